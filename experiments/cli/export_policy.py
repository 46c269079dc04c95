"""``kinghill export-policy``: a PPO or MaskablePPO checkpoint as an ONNX file that plays with
onnxruntime and without torch, checked against the original (the Python API:
:mod:`kinghill.experiments.training.onnx_export`)."""

from __future__ import annotations

import argparse
from pathlib import Path

from kinghill.agents.builtins import data_path, shipped
from kinghill.experiments.cli.app import (
    CommandError,
    UsageError,
    existing_file,
    non_negative_int,
    out_file_option,
    require_extra,
)


def add_parser(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Mount ``kinghill export-policy``."""
    parser = subparsers.add_parser(
        "export-policy",
        help="a PPO or MaskablePPO checkpoint as ONNX, for a game without torch (the onnx extra)",
        description=(
            "Write the checkpoint's deterministic policy as ONNX (the action wrapper in its "
            "metadata), then play --check observations of heuristic-against-random frames to "
            "both and say how many actions they agree on. The file plays as "
            "kinghill.agents.onnx_policy:OnnxPolicyAgent?path=FILE, or through "
            "kinghill.agents.embedded.opponent(FILE)."
        ),
        epilog="example: kinghill export-policy maskable-ppo --out-file opponent.onnx",
    )
    parser.add_argument(
        "checkpoint",
        type=_checkpoint,
        metavar="CHECKPOINT",
        help="a .zip, or the name of a shipped SB3 model (maskable-ppo, ppo-aim)",
    )
    out_file_option(parser, ".onnx", help="the .onnx file", required=True)
    parser.add_argument(
        "--action",
        choices=("masked", "aim", "flat"),
        help="the action wrapper it was trained with (default: masked for MaskablePPO, else aim)",
    )
    parser.add_argument(
        "--check",
        type=non_negative_int,
        default=300,
        metavar="N",
        help="observations both models are asked about (default: 300; 0 skips the check)",
    )
    return parser


def _checkpoint(text: str) -> Path:
    """A checkpoint file, or a shipped model's name (what ``kinghill agents`` lists)."""
    model = next((b.model for b in shipped() if b.name == text), None)
    return data_path(model) if model is not None else existing_file(text)


ONNX_MODULES = ("onnx", "onnxscript", "onnxruntime")
"""What the onnx extra installs: the export writes with the first two, the check plays with the
third."""


def run(args: argparse.Namespace) -> int:
    """Export, check, and say how it went; a disagreement is an error (exit status 1)."""
    require_extra("export-policy", "onnx", ONNX_MODULES)  # imported when the export runs
    from kinghill.experiments.training.onnx_export import agreement, export_policy

    try:
        out = export_policy(args.checkpoint, args.out, args.action)
    except ValueError as error:
        raise UsageError(str(error), "CHECKPOINT") from None
    print(f"wrote {out}")
    if args.check:
        found = agreement(args.checkpoint, out, args.check)
        print(
            f"the same action on {found.same} of {found.observations} observations "
            f"(largest difference of a continuous action {found.largest_difference:.2e})"
        )
        if not found.all_same:
            raise CommandError(f"{out} disagrees with {args.checkpoint}: do not ship it")
    return 0
