"""The shipped ``expert-position`` model: ``expert-gumbel``'s prior net (with its learnt value
and no break of its own, as shipped) and the position net ``net-16core`` in one file, so that
the agent is one model by name and its content key covers both nets.

    python3 docs/training/position/ship_expert_position.py \\
        agents/data/expert-gumbel.npz docs/training/position/net-16core.npz \\
        agents/data/expert-position.npz

``expert-position`` decides as ``variants:refine?value=docs/training/position/net-16core.npz&
arms=12&budget=60&refine_budget=72`` does (tests/test_issue35_scripts.py), the player measured
in docs/training.md at 0.569 [0.553, 0.584] against ``search`` over 4,000 frames.
"""

import argparse
from dataclasses import replace

from kinghill.agents.position_value import PositionNet
from kinghill.agents.prior import PriorNet


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("prior", help="the prior net's .npz (PriorNet.save)")
    parser.add_argument("position", help="the position net's .npz (PositionNet.save)")
    parser.add_argument("out", help="the combined .npz to write")
    args = parser.parse_args()
    net = replace(PriorNet.load(args.prior), position=PositionNet.load(args.position))
    net.save(args.out)


if __name__ == "__main__":
    main()
