"""The ``kinghill`` command line: one subcommand per module of ``kinghill.experiments``.

Each subcommand module exposes ``add_parser(subparsers)`` and ``run(args) -> int`` (and may
expose ``former_spelling(argv) -> argv``, which rewrites a command line of an older grammar,
with a note, before it is parsed). A module that
is not there is left out, so the other subcommands keep working; one that fails to import is
left out too, and the help says why.

**User errors, one mechanism for every subcommand.** Whatever the user got wrong is reported as
one line on stderr, ``kinghill SUB: error: --arg: what is wrong``, with exit status 2, no
traceback, and before any work is done (nothing half-written):

- *Values* are checked while parsing, by the ``type=`` validators of this module
  (:func:`positive_int`, :func:`even_count`, :func:`non_negative_int`, :func:`bounded_int`,
  :func:`seed`, :func:`positive_float`, :func:`int_list`, :func:`agent_name`,
  :func:`named_agent`, :func:`output_dir`, :func:`output_file`, :func:`existing_file`);
  argparse names the argument. Every parser is a :class:`Parser`, which prints argparse's
  errors as that one line; an argument no option takes is reported by the subcommand it was
  given to, with the flag it may have meant.
- *Combinations* that only the logic can judge raise :class:`UsageError` naming the argument,
  from ``run`` or from the logic it calls, before anything is written; :func:`main` prints it.
- A run that fails later for a reason that is not the user's arguments (a worker process
  killed) raises :class:`CommandError`: the same one line, exit status 1.

A new subcommand gets all of this by using the validators and raising these errors; nothing to
catch in its ``run``. :func:`main` returns the exit status, it never raises ``SystemExit``.
"""

from __future__ import annotations

import argparse
import difflib
import importlib
import math
import os
import re
import sys
import tempfile
from collections.abc import Callable, Sequence
from importlib.metadata import version
from pathlib import Path
from typing import Any, NoReturn

SUBCOMMAND_MODULES = (
    "kinghill.experiments.cli.play",
    "kinghill.experiments.cli.train",
    "kinghill.experiments.cli.train_value",
    "kinghill.experiments.cli.train_expert",
    "kinghill.experiments.cli.train_position",
    "kinghill.experiments.cli.tournament",
    "kinghill.experiments.cli.ladder",
    "kinghill.experiments.cli.agents",
    "kinghill.experiments.cli.replay",
    "kinghill.experiments.cli.export",
    "kinghill.experiments.cli.bench_physics",
    "kinghill.experiments.cli.bench_env",
    "kinghill.experiments.cli.shots",
    "kinghill.experiments.cli.pockets",
    "kinghill.experiments.cli.serve",
    "kinghill.experiments.cli.export_policy",
)
"""Modules that each mount one subcommand, in the order the help lists them."""
NOTHING_KEPT = "nothing was written (the figures come at the end); run it again"
INTERRUPTED = {
    "kinghill.experiments.cli.bench_physics": NOTHING_KEPT,
    "kinghill.experiments.cli.bench_env": NOTHING_KEPT,
}
"""What Ctrl-C leaves, for subcommands that do not say it themselves (a parser default
``interrupted``): the line :func:`main` ends with."""


class CommandError(Exception):
    """A command cannot go on: :func:`main` prints ``PROG: error: [ARGUMENT: ]MESSAGE`` on one
    line and returns :attr:`status`.

    :param message: what is wrong, and what to do about it where that is not obvious.
    :param argument: the option or positional the error is about (``"--out"``), if any.
    """

    status = 1

    def __init__(self, message: str, argument: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.argument = argument

    def __str__(self) -> str:
        return self.message if self.argument is None else f"{self.argument}: {self.message}"


class UsageError(CommandError):
    """An argument, or a combination of arguments, the command cannot use (exit status 2).

    Raise it before any work, so that a corrected command starts from a clean slate.
    """

    status = 2


def require_extra(command: str, extra: str, modules: Sequence[str]) -> None:
    """Raise :class:`UsageError` (one line: which extra, the module missing, the pip command)
    unless every one of ``modules``, what ``extra`` installs, imports: before any work, since
    a command may import some of them only when it gets there."""
    try:
        for module in modules:
            importlib.import_module(module)
    except ImportError as error:
        raise UsageError(
            f"{command} needs the {extra} extra ({error}): pip install 'kinghill[{extra}]'"
        ) from None


class DefaultsShown(argparse.HelpFormatter):
    """Help that ends each option's line with its default, where it has one (not None, not an
    off flag), for commands whose help texts do not say them."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text, default = action.help, action.default
        unset = default is None or default is False or default == argparse.SUPPRESS
        if unset or not text or "default" in text:
            return text
        if isinstance(default, tuple | list):  # as typed: --hidden 64 32
            return f"{text} (default: {' '.join(map(str, default))})"
        return f"{text} (default: %(default)s)"


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line, ``PROG: error: --arg: what is wrong``, and
    whose help is plain text (:func:`plain_text`: modules may pass their docstring as the
    description)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {_one_line(message.removeprefix('argument '))}\n")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        for key in ("description", "epilog"):
            if kwargs.get(key):
                kwargs[key] = plain_text(kwargs[key])
        super().__init__(*args, **kwargs)

    def add_argument(self, *args: Any, **kwargs: Any) -> argparse.Action:
        if kwargs.get("help"):
            kwargs["help"] = plain_text(kwargs["help"])
        return super().add_argument(*args, **kwargs)


class Deprecated(argparse.Action):
    """An old spelling of an option, still accepted: it stores what the new spelling would
    (its value, or ``value`` for a flag without one) after one note on stderr naming the new
    spelling. Mounted by :func:`deprecated`, hidden from the help."""

    def __init__(
        self, option_strings: Sequence[str], dest: str, new: str, value: Any = None, **kwargs: Any
    ) -> None:
        if value is not None:
            kwargs["nargs"] = 0
        super().__init__(option_strings, dest, **kwargs)
        self.new, self.value = new, value

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        print(f"{parser.prog}: note: {option_string} is now {self.new}", file=sys.stderr)
        setattr(namespace, self.dest, values if self.value is None else self.value)


def deprecated(parser: Any, old: str, new: str, dest: str, **kwargs: Any) -> None:
    """Accept ``old``, the former spelling of ``new``, into ``dest`` (``type=`` and the rest as
    ``new`` takes them; ``value=`` for a flag): :class:`Deprecated`."""
    parser.add_argument(
        old, dest=dest, action=Deprecated, new=new, help=argparse.SUPPRESS,
        default=argparse.SUPPRESS, **kwargs,
    )  # fmt: skip


def out_file_option(
    parser: Any, *suffixes: str, help: str, flag: str = "--out-file", required: bool = False
) -> None:
    """The option naming a file the command writes, into ``args.out``: ``flag`` (``--out-file``,
    or ``--report`` for figures), since ``--out`` names a folder in every subcommand; ``--out``,
    its former spelling, still accepted (:func:`deprecated`)."""
    kind = output_file(*suffixes)
    parser.add_argument(
        flag, dest="out", type=kind, metavar="FILE", help=f"{help}{' (required)' * required}"
    )
    deprecated(parser, "--out", flag, "out", type=kind, metavar="FILE")
    parser.set_defaults(out=None, out_required=flag if required else None)


_ROLE = re.compile(r":[a-z]+:`(~?)([^`]+)`")
_LITERAL = re.compile(r"``(.+?)``", flags=re.S)


def plain_text(text: str) -> str:
    """``text`` without reStructuredText/Sphinx markup, for a terminal: a role's target kept
    (``:class:`~a.B``` as ``B``), a ````literal```` as its text."""
    text = _ROLE.sub(lambda m: m[2].rsplit(".", 1)[-1] if m[1] else m[2], text)
    return _LITERAL.sub(lambda m: m[1], text)


def _one_line(text: str) -> str:
    """``text``'s lines joined with ``; ``, any other control character (a form feed, a NUL a
    user typed) written as its escape, so that an error is always one printable line."""
    return _printable("; ".join(part.strip() for part in text.splitlines() if part.strip()))


def _printable(text: str) -> str:
    """``text`` with every control character written as its escape (``\\x0c``)."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


# ---- type= validators (each raises ArgumentTypeError, which argparse prefixes with the name) --
def _integer(text: str, low: int, wrong: str) -> int:
    """``text`` as an integer of at least ``low``; else ``wrong`` (with the value) is the error."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < low:
        raise argparse.ArgumentTypeError(f"{wrong} (got {value})")
    return value


def positive_int(text: str) -> int:
    """An integer >= 1 (counts of frames, steps, workers, pixels)."""
    return _integer(text, 1, "must be at least 1")


def even_count(text: str) -> int:
    """An even integer >= 2 (frames played in pairs, so that each seat breaks in half)."""
    value = _integer(text, 2, "must be even and at least 2")
    if value % 2:
        raise argparse.ArgumentTypeError(f"must be even and at least 2 (got {value})")
    return value


def non_negative_int(text: str) -> int:
    """An integer >= 0 (counts where 0 means none)."""
    return _integer(text, 0, "must be 0 or more")


def seed(text: str) -> int:
    """A random seed: an integer >= 0 (numpy's seed sequences take no negative seeds)."""
    return _integer(text, 0, "a seed is 0 or more")


def bounded_int(low: int, high: int) -> Callable[[str], int]:
    """A validator for an integer from ``low`` to ``high`` inclusive."""

    def check(text: str) -> int:
        value = _integer(text, low, f"must be from {low} to {high}")
        if value > high:
            raise argparse.ArgumentTypeError(f"must be from {low} to {high} (got {value})")
        return value

    check.__name__ = "bounded_int"
    return check


def positive_float(text: str) -> float:
    """A finite number > 0 (rates, step sizes)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"must be a finite number above 0 (got {text})")
    return value


def int_list(text: str) -> tuple[int, ...]:
    """Comma-separated positive integers such as ``64,64`` (layer sizes)."""
    parts = [part.strip() for part in text.split(",")]
    if not all(part.isdigit() and int(part) > 0 for part in parts):
        raise argparse.ArgumentTypeError(
            f"must be positive whole numbers separated by commas, such as 64,64 (got {text!r})"
        )
    return tuple(int(part) for part in parts)


def agent_name(text: str) -> str:
    """An agent spec of :mod:`kinghill.agents.registry` (``random``, ``search:200``,
    ``policy:PATH``, ``mypkg.module:MyAgent?key=value`` ...), checked without building the
    agent: the class or factory is found, the arguments fit, a policy's checkpoint exists."""
    from kinghill.agents import AgentSpecError, check_agent

    try:
        check_agent(text)
    except AgentSpecError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    return text


def agent_specs() -> str:
    """The agent specs a help text lists: the registry's own list (:data:`~kinghill.agents.
    registry.NAMES`), so that a new built-in agent is offered by every subcommand at once."""
    from kinghill.agents.registry import NAMES

    return ", ".join(NAMES[:-1]) + ", or mypkg.module:MyAgent?key=value (a class on PYTHONPATH)"


DISPLAY_NAME = re.compile(r"([A-Za-z0-9_.+-]+)=(.+)")
"""``NAME=SPEC``: a short display name for an agent spec (a spec's own ``=`` comes after a
``:`` or ``?``, which a name does not hold)."""


def display_name(text: str) -> tuple[str, str]:
    """``(NAME, SPEC)`` of ``NAME=SPEC``, or ``(SPEC, SPEC)`` of a plain spec: the name the
    reports and the commentary show, and the spec that builds the agent."""
    named = DISPLAY_NAME.fullmatch(text)
    return (named[1], named[2]) if named else (text, text)


def named_agent(text: str) -> str:
    """An agent spec as :func:`agent_name` checks it, optionally ``NAME=SPEC`` with a short
    display name (:func:`display_name`); returned as given."""
    agent_name(display_name(text)[1])
    return text


def _path(text: str) -> Path:
    """``text`` as a path, refused when no file system can hold it (a NUL character, which
    Python's file functions reject with a ValueError far from the argument)."""
    if "\0" in text:
        raise argparse.ArgumentTypeError(f"a path cannot hold a NUL character: {text!r}")
    return Path(text)


def existing_file(text: str) -> Path:
    """A file that exists and can be read."""
    path = _path(text)
    if not path.is_file():
        what = "a directory" if path.is_dir() else "no such file"
        raise argparse.ArgumentTypeError(f"{path}: {what}")
    if not os.access(path, os.R_OK):
        raise argparse.ArgumentTypeError(f"{path}: cannot be read")
    return path


def output_dir(text: str) -> Path:
    """A directory that exists or can be created, and can be written to.

    Checked by writing a probe file (and removing it, with any directory made for it), since
    permissions alone do not tell (``/proc``, read-only mounts, running as root).
    """
    path = _path(text)
    if path.exists() and not path.is_dir():
        raise argparse.ArgumentTypeError(f"{path} exists and is not a directory")
    _probe(path)
    return path


def output_file(*suffixes: str) -> Callable[[str], Path]:
    """A validator for a file to be written, ending in one of ``suffixes`` (any if none): not a
    directory, and its folder writable (made, where missing, once the whole command line is
    read and before the command runs: :func:`main`)."""

    def check(text: str) -> Path:
        path = _path(text)
        if suffixes and path.suffix.lower() not in suffixes:
            raise argparse.ArgumentTypeError(f"must end in {' or '.join(suffixes)}: {path}")
        if path.is_dir():
            raise argparse.ArgumentTypeError(f"{path} is a directory")
        if path.exists() and not os.access(path, os.W_OK):
            raise argparse.ArgumentTypeError(f"{path} cannot be written")
        _probe(path.parent, path)
        return path

    check.__name__ = "output_file"
    return check


def _probe(folder: Path, target: Path | None = None) -> None:
    """Raise ArgumentTypeError unless a file can be created in ``folder`` (made if missing);
    leaves the file system as it found it. The message names what was to be written (the
    ``target`` file, else the folder) and the folder that refused it."""
    made: list[Path] = []
    where = folder
    what = f"cannot write in {folder}" if target is None else f"cannot write {target}"
    try:
        for parent in reversed([folder, *folder.parents]):
            if not parent.exists():
                parent.mkdir()
                made.append(parent)
            elif not parent.is_dir():
                raise argparse.ArgumentTypeError(f"{folder} is under {parent}, which is a file")
            where = parent
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as error:
        reason = error.strerror or str(error)
        raise argparse.ArgumentTypeError(
            f"{what}: the folder {where} is not writable ({reason})"
        ) from None
    finally:
        for parent in reversed(made):
            parent.rmdir()


# ---- the command ---------------------------------------------------------------------------
def build_parser() -> argparse.ArgumentParser:
    """The top-level parser with every subcommand whose module imports."""
    parser = Parser(
        prog="kinghill",
        description="King of the Hill (Russian pyramid) billiards: play, train and rate agents. "
        "Rate your agent against the shipped zoo, from any folder of an install (the "
        "README's, or the wheel: 'pip wheel --no-deps .' in the clone, then 'pip install "
        "kinghill-*.whl'): 'kinghill ladder mypkg.players:MyAgent' (or policy:my.zip, any "
        "spec 'kinghill agents' lists).",
    )
    parser.add_argument("--version", action="version", version=f"kinghill {version('kinghill')}")
    subparsers = parser.add_subparsers(title="commands", metavar="COMMAND")
    missing = []
    rewrites: list[Callable[[list[str]], list[str]]] = []
    parser.set_defaults(former_spellings=rewrites)
    for name in SUBCOMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as error:
            if error.name == name:  # not written or not installed: simply not offered
                continue
            missing.append(f"{name.rsplit('.', 1)[-1]} ({error})")
            continue
        except Exception as error:  # a broken module must not take the other commands down
            missing.append(f"{name.rsplit('.', 1)[-1]} ({type(error).__name__}: {error})")
            continue
        command = module.add_parser(subparsers)
        if hasattr(module, "former_spelling"):  # a command line of an older grammar, rewritten
            rewrites.append(module.former_spelling)
        command.set_defaults(
            run=module.run,
            command_prog=command.prog,
            command_flags=tuple(command._option_string_actions),
            command_outputs=tuple(  # output_file()'s validators are named so
                sorted({a.dest for a in command._actions if _validator(a) == "output_file"})
            ),
        )
        if name in INTERRUPTED:
            command.set_defaults(interrupted=INTERRUPTED[name])
    if missing:
        parser.epilog = "unavailable: " + "; ".join(missing)
    parser.epilog = " ".join(
        filter(None, [parser.epilog, "Run 'kinghill COMMAND --help' for a command's options."])
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the command line and run the chosen subcommand; returns the exit status (0 done,
    1 failed, 2 a usage error, 130 interrupted), with every error reported as one line."""
    parser = build_parser()
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        for rewrite in parser.get_default("former_spellings"):
            argv = rewrite(argv)
    except CommandError as refused:  # a command line no grammar reads, said before parsing
        print(f"kinghill {argv[0]}: error: {_one_line(str(refused))}", file=sys.stderr)
        return refused.status
    try:
        args, unknown = parser.parse_known_args(argv)
    except SystemExit as stop:  # --help, or an argument error already printed
        return stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 2)
    if not hasattr(args, "run"):
        if unknown:
            error = f"unrecognized arguments: {' '.join(map(_printable, unknown))}"
            print(f"kinghill: error: {error}", file=sys.stderr)
        else:
            parser.print_help()
        return 2
    if getattr(args, "out_required", None) and args.out is None:
        print(f"{args.command_prog}: error: {args.out_required} is required", file=sys.stderr)
        return 2
    if unknown:  # reported by the subcommand that was given them, with the flag it may mean
        error = _one_line(_unrecognized(unknown, args.command_flags))
        print(f"{args.command_prog}: error: {error}", file=sys.stderr)
        return 2
    for dest in args.command_outputs:  # a file's folder, checked writable, made for it now
        path = getattr(args, dest, None)
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
    try:
        return int(args.run(args))
    except CommandError as error:
        print(f"{args.command_prog}: error: {_one_line(str(error))}", file=sys.stderr)
        return error.status
    except KeyboardInterrupt:  # one line: what was kept and how to go on, where the command says
        note = getattr(args, "interrupted", None)
        print(f"{args.command_prog}: interrupted{f'; {note}' if note else ''}", file=sys.stderr)
        return 130


def _validator(action: argparse.Action) -> str | None:
    """The name of an option's ``type=`` validator (None: none)."""
    return getattr(action.type, "__name__", None)


def _unrecognized(unknown: Sequence[str], flags: Sequence[str]) -> str:
    """The error for arguments no option took, with the nearest flag of the subcommand for the
    first mistyped one (``--framez``: did you mean --frames?)."""
    message = f"unrecognized arguments: {' '.join(map(_printable, unknown))}"
    for word in unknown:
        if word.startswith("--"):
            close = difflib.get_close_matches(word.split("=", 1)[0], flags, n=1)
            if close:
                return f"{message} (did you mean {close[0]}?)"
    return message


if __name__ == "__main__":  # run the imported module, whose error classes the others raise
    from kinghill.experiments.cli.app import main as imported_main

    sys.exit(imported_main())
