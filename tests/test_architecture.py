"""The tree keeps its shape: what docs/architecture.md and the house rules say of
modules, checked against the files themselves.

- No private name (``_name``) is imported from another module: a name another
  module needs is public, or the code moves to where it is used.
- No module is longer than ``MAX_LINES``: a longer one is split by subdomain.
- Every file path and module docs/architecture.md names exists, and its
  dependency line is the import-linter layers contract.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import re
import tomllib
from collections.abc import Iterator
from pathlib import Path

from django.apps import apps
from django.conf import settings

ROOT = Path(settings.BASE_DIR)
# Not the project's code: the virtual environment, run-time files, the tests.
NOT_CODE = {".venv", "var", "node_modules", "tests", "__pycache__", ".git"}

MAX_LINES = 600


def code_files() -> Iterator[Path]:
    for path in sorted(ROOT.rglob("*.py")):
        if not NOT_CODE & set(path.relative_to(ROOT).parts):
            yield path


def private_imports(source: str) -> Iterator[str]:
    """``line: from module import _name`` for each private name imported."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom):
            module = "." * node.level + (node.module or "")
            for alias in node.names:
                if alias.name.startswith("_") and not alias.name.startswith("__"):
                    yield f"{node.lineno}: from {module} import {alias.name}"


def test_the_tree_is_found():
    files = {p.relative_to(ROOT).as_posix() for p in code_files()}
    assert "core/errors.py" in files
    assert "bench/round_load.py" in files
    assert not any(f.startswith("tests/") for f in files)


def test_the_check_sees_a_private_import():
    source = "from a.b import _hidden, public\nfrom .c import _x as y\nfrom d import __all__\n"
    assert list(private_imports(source)) == ["1: from a.b import _hidden", "2: from .c import _x"]


def test_no_private_name_is_imported_from_another_module():
    found = [
        f"{path.relative_to(ROOT)}:{line}"
        for path in code_files()
        for line in private_imports(path.read_text(encoding="utf-8"))
    ]
    assert found == [], "make the name public or move the code:\n" + "\n".join(found)


def test_no_module_is_longer_than_the_limit():
    long = [
        f"{path.relative_to(ROOT)}: {count} lines"
        for path in code_files()
        if (count := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    ]
    assert long == [], f"split these by subdomain (at most {MAX_LINES} lines):\n" + "\n".join(long)


# --- docs/architecture.md against the tree --------------------------------------

ARCHITECTURE = ROOT / "docs" / "architecture.md"
# `path/like.py`, `folder/`, `app.module.name` between backticks.
CODE_SPAN = re.compile(r"`([^`\s]+)`")


def top_level() -> set[str]:
    return {p.name for p in ROOT.iterdir() if not p.name.startswith(".")} - NOT_CODE | {"tests"}


def named_paths(text: str, top_level: set[str]) -> set[str]:
    """Every file or folder path in ``text`` that starts at the top of the tree
    (not a pattern: ``<name>`` or ``…`` in it)."""
    return {
        span.split(":")[0]
        for span in CODE_SPAN.findall(text)
        if "/" in span and span.split("/")[0] in top_level and not {"<", "…"} & set(span)
    }


def named_modules(text: str, packages: set[str]) -> set[str]:
    """Every dotted name in ``text`` that starts with one of the project's packages."""
    return {
        span
        for span in CODE_SPAN.findall(text)
        if "." in span
        and "/" not in span
        and span.split(".")[0] in packages
        and re.fullmatch(r"[A-Za-z_][\w.]*[\w*]", span)
    }


def resolves(dotted: str) -> bool:
    """A module, or a name in one (``core.public_cache.cached_page``); ``x.*`` a
    package, ``x.selectors*`` the modules whose names start so."""
    dotted = dotted.removesuffix(".*").removesuffix("*")
    app_label, _, model = dotted.partition(".")
    if model[:1].isupper() and "." not in model:  # a model's label: games.Game
        return model in {m.__name__ for m in apps.get_app_config(app_label).get_models()}
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        module = ".".join(parts[:cut])
        try:
            found = importlib.util.find_spec(module)
        except ModuleNotFoundError:
            found = None
        if found is None:
            continue
        target: object = importlib.import_module(module)
        for name in parts[cut:]:
            if not hasattr(target, name):
                return False
            target = getattr(target, name)
        return True
    return False


def importlinter() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]


def test_every_path_named_in_the_architecture_page_exists():
    text = ARCHITECTURE.read_text(encoding="utf-8")
    paths = named_paths(text, top_level())
    assert "core/errors.py" in paths  # the page is read
    missing = sorted(p for p in paths if not (ROOT / p).exists())
    assert missing == [], "docs/architecture.md names paths that are not in the tree"


def test_every_module_named_in_the_architecture_page_exists():
    text = ARCHITECTURE.read_text(encoding="utf-8")
    modules = named_modules(text, set(importlinter()["root_packages"]))
    assert "tournament.permissions" in modules
    missing = sorted(m for m in modules if not resolves(m))
    assert missing == [], "docs/architecture.md names modules or names that do not exist"


def dependency_line(text: str) -> list[str]:
    """The one-line drawing under "The dependency direction", as import-linter layers."""
    section = text.split("## The dependency direction", 1)[1]
    line = section.split("```", 2)[1].strip()
    return [layer.strip().strip("{}").strip() for layer in line.split("→")]


def test_the_dependency_line_is_the_layers_contract():
    contract = next(
        c for c in importlinter()["contracts"] if c["name"] == "Apps depend downward only"
    )
    drawn = dependency_line(ARCHITECTURE.read_text(encoding="utf-8"))
    # The engine is drawn as the ground floor under core; import-linter cannot
    # make a package inside games a layer of its own, so the contract says it
    # with exactly these two ignores and nothing else is ignored.
    assert drawn == [*contract["layers"], "games.engine"]
    assert contract.get("ignore_imports") == ["** -> games.engine", "** -> games.engine.**"]


def test_the_checks_see_what_they_look_for():
    text = "`core/errors.py` `docs/x.md:3` `a/b.py` `core.errors.Conflict` `core.nope` `x.y`"
    assert named_paths(text, {"core", "docs"}) == {"core/errors.py", "docs/x.md"}
    assert named_modules(text, {"core"}) == {"core.errors.Conflict", "core.nope"}
    assert resolves("core.errors.Conflict") and not resolves("core.nope")
    assert resolves("games.Game") and not resolves("games.Nope")
    assert dependency_line("## The dependency direction\n```\na → {b | c} → d\n```") == [
        "a",
        "b | c",
        "d",
    ]
