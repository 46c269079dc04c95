"""Fit the ablations' position nets to self-play positions saved by
``kinghill.experiments.training.position_data`` (``SelfPlay.save``), as docs/training.md says:

    python3 docs/training/position/fit.py H1 H2 EPOCHS OUT.npz FRAMES.npz ... [--start NET --rate R]

``net-16core.npz``: 64 32 10; ``net-16core-wide.npz``: 128 64 30 (the frames: 25,490 played on a
lent 16-core machine by ``device_selfplay.py``, 3,000 and 4,000 here, seeds 100,000 on). With
``--start`` the fit goes on from that net's weights (its sizes, not H1 H2) at rate ``R``, and the
starting net's held-out log loss is printed beside the new one's.
"""

import argparse

from kinghill.agents.position_value import PositionNet, position_features
from kinghill.experiments.training.position_data import SelfPlay
from kinghill.experiments.training.position_training import fit_and_report
from kinghill.experiments.training.tasks import concatenated, held_out_frames
from kinghill.experiments.training.value_training import HELD_OUT, log_loss
from kinghill.physics import TableSpec

parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
parser.add_argument("h1", type=int, help="units of the first hidden layer")
parser.add_argument("h2", type=int, help="units of the second")
parser.add_argument("epochs", type=int, help="passes over the positions")
parser.add_argument("out", help="where to save the net (.npz)")
parser.add_argument("frames", nargs="+", help="self-play positions (SelfPlay .npz files)")
parser.add_argument("--start", type=PositionNet.load, help="a position net to go on from")
parser.add_argument("--rate", type=float, default=2e-3, help="the learning rate")
args = parser.parse_args()
data = concatenated([SelfPlay.load(path) for path in args.frames])
net, report = fit_and_report(
    data, TableSpec(), hidden=(args.h1, args.h2), epochs=args.epochs, rate=args.rate,
    initial=args.start,
)  # fmt: skip
print(report)
if args.start is not None:
    test = held_out_frames(data.frames, HELD_OUT)
    held = position_features(data.positions, TableSpec())[test]
    print(
        "start net's held-out log loss", log_loss(args.start.win_chances(held), data.results[test])
    )
net.save(args.out)
