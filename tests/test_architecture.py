"""The tree keeps its shape: what docs/architecture.md and the house rules say of
modules, checked against the files themselves.

- No private name (``_name``) is imported from another module: a name another
  module needs is public, or the code moves to where it is used.
- No module is longer than ``MAX_LINES``: a longer one is split by subdomain.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

from django.conf import settings

ROOT = Path(settings.BASE_DIR)
# Not the project's code: the virtual environment, run-time files, the tests.
NOT_CODE = {".venv", "var", "node_modules", "tests", "__pycache__", ".git"}

MAX_LINES = 600
# Folders whose modules may still be longer while their split is under way.
LONG_MODULES_ALLOWED_UNDER = ("games/engine/",)


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
        if not path.relative_to(ROOT).as_posix().startswith(LONG_MODULES_ALLOWED_UNDER)
        and (count := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    ]
    assert long == [], f"split these by subdomain (at most {MAX_LINES} lines):\n" + "\n".join(long)
