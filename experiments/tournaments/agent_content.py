"""What decides how an agent plays beyond its name, as a key for stored frames (issue 39.2): a
tournament folder is resumed, and a ladder's cached pair reused, only while every agent's key is
the one its frames were played with.

An agent's key is a SHA-256 over

- the contents of every file or folder its spec names: each part of the spec (split at ``:``,
  ``?``, ``,``, ``=`` and ``&``) that is an existing path, relative to the working folder as the
  agents read them (a checkpoint, a net, an RLlib folder: every file under it, by relative path;
  an old ``docs/training/NAME`` the shipped file it plays), and the shipped model a built-in
  plays by name (``maskable-ppo``, ``expert``); the bytes alone, so that a model keeps its key
  whether named by its name or by a path;
- for a plug-in agent (a spec ``module:Attribute`` whose module is not kinghill's, an entry point
  of ``kinghill.agents``, or a class, factory or object given to ``evaluate``): the version its
  class or factory declares (a ``version`` or ``__version__`` attribute), else the contents of
  its module's file.

It is empty when nothing but the name decides (a built-in agent without files: ``search:120``),
so a tournament of built-in agents stores what it always stored.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import inspect
import re
import sys
from collections.abc import Iterable
from importlib.metadata import entry_points
from pathlib import Path

from kinghill.agents import ENTRY_POINT_GROUP
from kinghill.agents.builtins import built_in, data_path, moved_path

_SEPARATORS = re.compile(r"[:?,=&]")


def content_key(agent: object) -> str:
    """The key of ``agent``: a spec, or a class, factory or object (see the module docstring);
    ``""`` when nothing but its name decides how it plays."""
    parts = list(_spec_parts(agent) if isinstance(agent, str) else _object_parts(agent))
    if not parts:
        return ""
    digest = hashlib.sha256()
    for part in parts:
        digest.update(part.encode() + b"\0")
    return "sha256:" + digest.hexdigest()[:20]


def _spec_parts(spec: str) -> Iterable[str]:
    """The files a spec names (by content) and its plug-in's version or module file."""
    target = spec.partition("?")[0]
    kind, colon, argument = target.partition(":")
    shipped = built_in(kind)
    if shipped is not None and shipped.model is not None and not argument:
        yield f"file {_path_digest(data_path(shipped.model))}"  # a shipped model, by name
    for token in dict.fromkeys(_SEPARATORS.split(spec)):
        path = moved_path(token) if token else None  # an old docs/training path: shipped
        if path is not None and path.exists():
            yield f"file {_path_digest(path)}"  # its bytes, wherever it lies
    module, colon, attribute = target.partition(":")
    if colon and not module.startswith("kinghill") and _importable(module):
        yield from _plugin_parts(module, attribute)
    elif not colon:
        for point in entry_points(group=ENTRY_POINT_GROUP, name=target):
            yield from _plugin_parts(point.module, point.attr or "")


def _importable(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):  # a parent package that cannot be imported, a bad name
        return False


def _plugin_parts(module: str, attribute: str) -> Iterable[str]:
    """A plug-in's declared version, else its module file's contents (nothing when it cannot be
    imported: building the agent reports that)."""
    try:
        found: object = importlib.import_module(module)
        for name in filter(None, attribute.split(".")):
            found = getattr(found, name)
    except Exception:  # user code: whatever it raises, the agent's build says it
        return
    yield from _object_parts(found)


def _object_parts(agent: object) -> Iterable[str]:
    """The version a class, factory or object (or its class) declares, else the contents of
    the file of the module that defines it; nothing for kinghill's own agents or code without
    a file (typed at a prompt)."""
    owner = agent if inspect.isclass(agent) or inspect.isroutine(agent) else type(agent)
    for holder in (agent, owner):
        version = getattr(holder, "version", None) or getattr(holder, "__version__", None)
        if isinstance(version, str | int | float) and not isinstance(version, bool):
            yield f"version {version!r}"
            return
    module = sys.modules.get(getattr(owner, "__module__", "") or "")
    name = getattr(module, "__name__", "")
    file = getattr(module, "__file__", None)
    if module is None or name == "kinghill" or name.startswith("kinghill.") or not file:
        return
    yield f"module {name} {_path_digest(Path(file))}"


def _path_digest(path: Path) -> str:
    """SHA-256 of a file's bytes, or of a folder's files (relative paths and bytes, sorted)."""
    digest = hashlib.sha256()
    files = sorted(p for p in path.rglob("*") if p.is_file()) if path.is_dir() else [path]
    for file in files:
        if path.is_dir():
            digest.update(file.relative_to(path).as_posix().encode() + b"\0")
        try:
            digest.update(file.read_bytes())
        except OSError as error:  # unreadable: its error, so that it never matches a real file
            digest.update(f"unreadable: {error}".encode())
    return digest.hexdigest()
