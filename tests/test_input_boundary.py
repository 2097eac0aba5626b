"""One input boundary: serializers and forms check what a person sent, services take
typed values (docs/architecture.md, "One input boundary").

Read from the source, as the other shape checks (tests/test_architecture.py):

- a service's public function takes no parameter typed ``Any``, ``object`` or a
  loose mapping (``dict``, ``Mapping``, ``dict[str, Any]`` …): what it takes says
  what it is. The few that take a whole document are listed, with why;
- a service reads no request: it imports none of ``core.request``'s readers and
  parsers (``parse_int``, ``json_object_body``, ``post_text`` …);
- a view reads no form or query field by hand: no ``request.POST[...]``,
  ``request.POST.get(...)`` or ``post_text(request, ...)``; it hands
  ``request.POST`` to a form (``request.GET`` goes through ``core.request``'s
  query readers).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

from django.conf import settings

ROOT = Path(settings.BASE_DIR)
NOT_CODE = {".venv", "var", "node_modules", "tests", "__pycache__", ".git"}

LOOSE = {
    "Any",
    "object",
    "dict",
    "Mapping",
    "dict[str, Any]",
    "dict[str, object]",
    "Mapping[str, Any]",
    "Mapping[str, object]",
}
# Parameters a Django signal receiver takes by the framework's contract.
RECEIVER_PARAMETERS = {"sender", "kwargs"}

# (module, function, parameter): a whole document, read as one (a backup, a
# handover file, a game record: their own checks walk them, docs/backup.md,
# docs/move-log.md), or a value that is not a person's input.
DOCUMENTS = {
    ("competition/services/backup.py", "is_user_model", "model"),
    ("competition/services/backup_check.py", "backup_document_check", "document"),
    ("competition/services/backup_import.py", "tournament_import", "document"),
    ("competition/services/backup_import.py", "tournament_contents_replace", "document"),
    ("competition/services/handover.py", "event_digests", "document"),
    ("competition/services/handover.py", "handover_receive", "document"),
    ("competition/services/handover.py", "handover_return_import", "document"),
    ("games/services/move_log/record.py", "game_record_import", "record"),
}
REQUEST_READERS = {
    "parse_int",
    "parse_optional_int",
    "int_or_none",
    "field_int",
    "field_text",
    "query_int",
    "query_text",
    "query_choice",
    "query_flag",
    "post_text",
    "post_texts",
    "post_choice",
    "json_object_body",
    "json_object_or_none",
    "json_str",
}
POST_READERS = {"post_text", "post_texts", "post_choice"}


def _code_files() -> Iterator[Path]:
    for path in sorted(ROOT.rglob("*.py")):
        if not NOT_CODE & set(path.relative_to(ROOT).parts):
            yield path


def _is_service(path: Path) -> bool:
    parts = path.relative_to(ROOT).parts
    return "services" in parts[:-1] or parts[-1] == "services.py"


def _is_view(path: Path) -> bool:
    name = path.name
    parts = path.relative_to(ROOT).parts
    return name.startswith(("views", "api")) or "views" in parts[:-1]


def loose_parameters(source: str) -> Iterator[tuple[str, str, str]]:
    """(function, parameter, annotation) for each loosely typed parameter of a public
    function."""
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        if node.name.startswith("_"):
            continue
        arguments = node.args
        parameters = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]
        if arguments.vararg:
            parameters.append(arguments.vararg)
        if arguments.kwarg:
            parameters.append(arguments.kwarg)
        for parameter in parameters:
            if parameter.arg in RECEIVER_PARAMETERS or parameter.annotation is None:
                continue
            annotation = ast.unparse(parameter.annotation).strip("'\"")
            if annotation in LOOSE:
                yield node.name, parameter.arg, annotation


def request_readers(source: str) -> Iterator[str]:
    """``line: name`` for each of core.request's readers a module imports."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module == "core.request":
            for alias in node.names:
                if alias.name in REQUEST_READERS:
                    yield f"{node.lineno}: {alias.name}"


def _is_request_post(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.Attribute)
        and node.attr == "POST"
        and isinstance(node.value, ast.Name)
        and node.value.id == "request"
    )


def hand_read_fields(source: str) -> Iterator[str]:
    """``line: what`` for each form field a view reads itself."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Subscript) and _is_request_post(node.value):
            yield f"{node.lineno}: request.POST[...]"
        elif isinstance(node, ast.Call):
            function = node.func
            if isinstance(function, ast.Attribute) and _is_request_post(function.value):
                yield f"{node.lineno}: request.POST.{function.attr}(...)"
            elif isinstance(function, ast.Name) and function.id in POST_READERS:
                yield f"{node.lineno}: {function.id}(...)"
            elif (
                isinstance(function, ast.Name)
                and function.id in ("field_int", "field_text")
                and node.args
                and _is_request_post(node.args[0])
            ):
                yield f"{node.lineno}: {function.id}(request.POST, ...)"


def test_the_checks_see_what_they_look_for():
    service = (
        "from core.request import parse_int, read_json\n"
        "def clock_extend(*, game: Game, minutes: Any, reason: str) -> None: ...\n"
        "def ruling_make(*, data: dict[str, Any], seats: dict[str, int]) -> None: ...\n"
        "def _helper(value: Any) -> None: ...\n"
        "def receiver(sender: Any, **kwargs: Any) -> None: ...\n"
    )
    assert list(loose_parameters(service)) == [
        ("clock_extend", "minutes", "Any"),
        ("ruling_make", "data", "dict[str, Any]"),
    ]
    assert list(request_readers(service)) == ["1: parse_int"]
    view = (
        "def rule(request):\n"
        "    a = request.POST['seq']\n"
        "    b = request.POST.get('seat')\n"
        "    c = post_text(request, 'reason', max_length=9)\n"
        "    d = field_int(request.POST, 'at', minimum=0, maximum=9)\n"
        "    form = RulingForm(request.POST)\n"
        "    e = query_int(request, 'at', minimum=0, maximum=9)\n"
    )
    assert list(hand_read_fields(view)) == [
        "2: request.POST[...]",
        "3: request.POST.get(...)",
        "4: post_text(...)",
        "5: field_int(request.POST, ...)",
    ]


def test_services_take_typed_values():
    found = []
    for path in filter(_is_service, _code_files()):
        module = path.relative_to(ROOT).as_posix()
        for function, parameter, annotation in loose_parameters(path.read_text()):
            if (module, function, parameter) not in DOCUMENTS:
                found.append(f"{module}: {function}({parameter}: {annotation})")
    assert not found, "a service takes an untyped value; check it where it enters: " + str(found)


def test_the_lists_of_exceptions_hold_only_what_is_still_there():
    still = set()
    for path in filter(_is_service, _code_files()):
        module = path.relative_to(ROOT).as_posix()
        still |= {(module, f, p) for f, p, _ in loose_parameters(path.read_text())}
    assert (DOCUMENTS) - still == set()


def test_services_read_no_request():
    found = [
        f"{path.relative_to(ROOT).as_posix()}:{reader}"
        for path in filter(_is_service, _code_files())
        for reader in request_readers(path.read_text())
    ]
    assert not found, "a service parses input; a serializer or form does that: " + str(found)


def test_views_hand_the_posted_fields_to_a_form():
    found = [
        f"{path.relative_to(ROOT).as_posix()}:{read}"
        for path in filter(_is_view, _code_files())
        for read in hand_read_fields(path.read_text())
    ]
    assert not found, "a view reads a form field by hand; give request.POST to a form: " + str(
        found
    )
