"""The human seat: play a frame against any agent in a pygame window (``kinghill play human B``).

:class:`Controls` is the seat's state machine (no pygame, testable on its own); :mod:`.panel`
draws the window's picture and lays out its menu; :class:`HumanSeat` is the agent that runs the
window.
"""

from kinghill.agents.human.controls import COMMANDS, KINDS, Controls
from kinghill.agents.human.seat import HUMAN, HumanSeat, NoDisplay

__all__ = ["COMMANDS", "HUMAN", "KINDS", "Controls", "HumanSeat", "NoDisplay"]
