"""The motion of one ball as the contact laws take and return it, and as the kernel hands it
on: the type both sides import (so that no law imports another for it)."""

from __future__ import annotations

Motion = tuple[float, float, float, float, float]
"""``(vx, vy, wx, wy, wz)`` of one ball: velocity on the cloth (m/s) and spin (rad/s)."""
