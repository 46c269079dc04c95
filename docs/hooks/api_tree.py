"""MkDocs hook: lay out the ``kinghill`` import package for mkdocstrings.

The source folders (``package/``, ``physics/``, ``envs/``, ``agents/``, ``experiments/``)
become ``kinghill`` and ``kinghill.*`` only through ``[tool.setuptools.package-dir]``, and the
editable install's path hook is invisible to static tools. So, as ``.ci/typecheck`` does for
mypy, a throwaway tree ``build/api-src/kinghill/<sub>`` of symlinks onto the folders is made
before the build; the mkdocstrings handler's ``paths`` points at it (``mkdocs.yml``). Works in a
clean clone.

It also keeps the manual's pages in step with the docstrings they quote: a block
``<!-- docstring: module.Name -->`` ... ``<!-- /docstring -->`` holds that docstring as Markdown
(a string constant: its text), committed so that the page reads whole on GitHub too::

    python3 docs/hooks/api_tree.py           # rewrite the blocks of docs/ in place
    python3 docs/hooks/api_tree.py --check   # exit 1, naming the page, if a block is stale

``tests/test_manual_pages.py`` runs the check.
"""

from __future__ import annotations

import importlib
import re
import shutil
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
TREE = ROOT / "build" / "api-src"
SUBPACKAGES = ("physics", "envs", "agents", "experiments")


def make_tree() -> Path:
    """(Re)make ``build/api-src/kinghill``: its ``__init__.py`` from ``package/`` and one symlink
    per source folder."""
    package = TREE / "kinghill"
    if package.exists():
        shutil.rmtree(package)
    package.mkdir(parents=True)
    (package / "__init__.py").symlink_to(ROOT / "package" / "__init__.py")
    for sub in SUBPACKAGES:
        (package / sub).symlink_to(ROOT / sub, target_is_directory=True)
    return TREE


def on_startup(**kwargs: Any) -> None:
    make_tree()


DOCSTRING_BLOCK = re.compile(r"(<!-- docstring: ([\w.]+) -->\n)(.*?)(<!-- /docstring -->)", re.S)
ROLE = re.compile(r":(?:class|func|meth|mod|attr|data):`~?([^`]+)`")


def docstring_markdown(dotted: str) -> str:
    """The docstring of ``module.Name`` as Markdown: its ``## Section`` headings one level down,
    reST literals and roles as code. For docstrings built at import time (an f-string that
    splices in generated tables, like the env's), which static analysis cannot read."""
    module, _, name = dotted.rpartition(".")
    if str(TREE) not in sys.path:
        sys.path.insert(0, str(TREE))
    found = getattr(importlib.import_module(module), name)
    text = found if isinstance(found, str) else found.__doc__ or ""
    first, _, rest = text.partition("\n")
    lines = [line[4:] if line.startswith("    ") else line for line in rest.splitlines()]
    body = "\n".join([first.strip(), *lines])
    body = ROLE.sub(lambda m: f"`{m.group(1).rpartition('.')[2]}`", body)
    body = body.replace("``", "`")
    body = re.sub(r"^## ", "### ", body, flags=re.M)
    body = re.sub(
        r"((?:^>>> .*\n?)+)",
        lambda m: "```python\n" + re.sub(r"^>>> ", "", m.group(1), flags=re.M) + "```\n",
        body,
        flags=re.M,
    )
    # a table spliced in without a blank line before it would not render as one
    return re.sub(r"([^\n|])\n\|", r"\1\n\n|", body)


def filled(markdown: str) -> str:
    """``markdown`` with every docstring block holding its docstring as it is now."""
    return DOCSTRING_BLOCK.sub(
        lambda m: f"{m[1]}\n{docstring_markdown(m[2]).strip()}\n\n{m[4]}", markdown
    )


def on_page_markdown(markdown: str, **kwargs: Any) -> str:
    return filled(markdown)


def main(argv: list[str]) -> int:
    """Rewrite (or with ``--check`` only compare) the docstring blocks of the pages in docs/."""
    check = argv == ["--check"]
    if argv and not check:
        print(__doc__, file=sys.stderr)
        return 2
    stale = []
    for page in sorted((ROOT / "docs").rglob("*.md")):
        text = page.read_text(encoding="utf-8")
        new = filled(text)
        if new != text:
            stale.append(page.relative_to(ROOT))
            if not check:
                page.write_text(new, encoding="utf-8")
    for page in stale:
        print(f"{page}: {'a docstring block is stale' if check else 'rewritten'}", file=sys.stderr)
    return 1 if check and stale else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))


HTML_ROLE = re.compile(r":(?:class|func|meth|mod|attr|data|exc):(<code>)~?")


def on_page_content(html: str, **kwargs: Any) -> str:
    """Docstrings cite names with Sphinx roles (``:class:`Game```), which mkdocstrings leaves
    as text before the code; keep the code, drop the role."""
    return HTML_ROLE.sub(r"\1", html)
