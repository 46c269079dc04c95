"""``kinghill train-expert`` with the search's wide candidate set (issue 35): the expert and the
guided search it trains both choose among 8 pots (x 6 variants), 3 kicks and 8 safeties at 0.6,
1.0 and 1.5 times their speed, the set with which ``search?budget=1920`` scored 0.61 against
``search`` (docs/strength/position/wide-budget1920.md). The constants are set at the top so that
the spawned workers, which import this script again, search the same set.

    python3 docs/training/position/distill_wide.py --iterations 1 --frames 1500 \\
        --expert-budget 1920 --budget 180 --arms 16 --eval-frames 100 --break-population 0 \\
        --jobs 2 --seed 0 --out runs/distill-wide
"""

import sys

import kinghill.agents.search as search
import kinghill.experiments.training.expert_iteration as expert_iteration

search.POT_CANDIDATES = 8
search.SAFETY_CANDIDATES = 8
search.SAFETY_SPEED_FACTORS = (0.6, 1.0, 1.5)
expert_iteration.MAX_ARMS = 80  # 8 x 6 pots, 3 kicks, 8 x 3 safeties

if __name__ == "__main__":
    from kinghill.experiments.cli.app import main

    sys.exit(main(["train-expert", *sys.argv[1:]]))
