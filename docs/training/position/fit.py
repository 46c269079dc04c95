"""Fit the ablations' position nets to self-play positions saved by
``kinghill.experiments.training.position_data`` (``SelfPlay.save``), as docs/training.md says:

    python3 docs/training/position/fit.py H1 H2 EPOCHS OUT.npz FRAMES.npz ...

``net-16core.npz``: 64 32 10; ``net-16core-wide.npz``: 128 64 30 (the frames: 25,490 played on a
lent 16-core machine by ``device_selfplay.py``, 3,000 and 4,000 here, seeds 100,000 on).
"""

import sys

from kinghill.experiments.training.position_data import SelfPlay
from kinghill.experiments.training.position_training import fit_and_report
from kinghill.experiments.training.tasks import concatenated
from kinghill.physics import TableSpec

h1, h2, epochs, out = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
data = concatenated([SelfPlay.load(path) for path in sys.argv[5:]])
net, report = fit_and_report(data, TableSpec(), hidden=(h1, h2), epochs=epochs)
print(report)
net.save(out)
