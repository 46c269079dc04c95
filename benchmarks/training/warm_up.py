"""Load (on a fresh tree: compile) a tree's numba kernels before its timed run, as an
installation has them: the engine's and, where the tree has a compiled planner, the planner's."""

try:
    from kinghill.envs.planning import warm_up
except ImportError:  # a tree from before the compiled planner: the engine only, if compiled
    from kinghill.physics import simulate as _engine  # noqa: F401
else:
    warm_up()
