"""The ``kinghill`` command line, the top floor: the only place that defines subcommands, parses
arguments and turns library errors into messages about flags and exit statuses.

:func:`main` runs it (``kinghill`` is ``main``); :mod:`.app` builds the parser from the
subcommand modules, each with ``add_parser(subparsers)`` and ``run(args) -> int`` over a
documented Python function of the libraries below.
"""

from kinghill.experiments.cli.app import CommandError, UsageError, build_parser, main

__all__ = ["CommandError", "UsageError", "build_parser", "main"]
