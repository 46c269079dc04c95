"""The compiler of the hot loop: numba's ``njit``, cached on disk, for every kernel function.

The kernels are plain Python written in the subset numba compiles (floats, ints, tuples and
NumPy arrays); with ``NUMBA_DISABLE_JIT=1`` in the environment they run as that Python, for a
debugger, coverage or a print (slower, same results: ``tests/test_physics_compiled.py``).
The machine code is cached beside the sources (or in ``NUMBA_CACHE_DIR``), so the compile is
paid once per installation, not once per process (:func:`kinghill.physics.warm_up`).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any, TypeVar, cast

# numba colours its error messages through colorama, whose init() (numba's import builds an
# error) leaves an exit hook that writes ESC[0m to a terminal from every process that loads a
# kernel (a tournament's agent processes): plain messages, unless the user asked otherwise
os.environ.setdefault("NUMBA_DISABLE_ERROR_MESSAGE_HIGHLIGHTING", "1")

import numba  # noqa: E402

F = TypeVar("F", bound=Callable[..., Any])


def njit(function: F) -> F:
    """``function`` compiled by numba in nopython mode, cached on disk, releasing the GIL."""
    return cast(F, numba.njit(cache=True, nogil=True, error_model="numpy")(function))
