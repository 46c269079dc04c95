"""Training, evaluation, tournaments and benchmarks; the ``kinghill`` command line."""
