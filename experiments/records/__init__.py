"""Shot records: every decision of a frame as data (:mod:`.store`), their exact JSON forms
(:mod:`.codec`), and data sets for imitation learning exported from them (:mod:`.dataset`)."""

from kinghill.experiments.records.dataset import DATASET_DOC, DatasetSummary, export_dataset
from kinghill.experiments.records.store import (
    DecisionRecord,
    FrameShots,
    RecordError,
    iter_frames,
    load_frame,
)

__all__ = [
    "DATASET_DOC",
    "DatasetSummary",
    "DecisionRecord",
    "FrameShots",
    "RecordError",
    "export_dataset",
    "iter_frames",
    "load_frame",
]
