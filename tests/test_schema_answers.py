"""No answer of the API is documented as a free object.

Every JSON answer's schema (and every component it reaches) is walked; a
value the schema leaves open — any value at all (``{}``), an object with
neither properties nor a typed value schema, an object with properties that
admits any other field, a list of anything — fails here with the component
and field that holds it. A map with typed values (a seat to its pawns'
locations) is described, not loose: its ``additionalProperties`` is a schema.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.core.management import call_command

from tests.schema import openapi_schema

pytestmark = pytest.mark.django_db

# Values that are truly free, each with why, as "Component.field" (a path below
# an answer's own inline schema is "<METHOD path status>.field"). Empty: every
# value an answer holds today has a shape or is a map with typed values.
FREE_VALUES: dict[str, str] = {}

_SHAPED = ("type", "$ref", "oneOf", "anyOf", "allOf", "enum", "const")


def _loose(node: dict[str, Any]) -> str:
    """Why ``node`` is loose ("" if it is not)."""
    if not any(key in node for key in _SHAPED):
        return "any value"
    extra = node.get("additionalProperties")
    if node.get("type") == "object":
        if "properties" not in node and not (isinstance(extra, dict) and extra):
            return "an object of any fields"
        if "properties" in node and (extra is True or extra == {}):
            return "an object that admits any other field"
    if node.get("type") == "array" and not node.get("items"):
        return "a list of anything"
    return ""


def loose_values(doc: dict[str, Any]) -> dict[str, str]:
    """Every loose value in ``doc``'s JSON answers: where ("Component.field") -> why."""
    components = doc["components"]["schemas"]
    found: dict[str, str] = {}
    seen: set[str] = set()

    def walk(node: Any, where: str) -> None:
        if not isinstance(node, dict):
            return
        ref = node.get("$ref")
        if ref:
            name = ref.rsplit("/", 1)[-1]
            if name not in seen:
                seen.add(name)
                walk(components[name], name)
            return
        why = _loose(node)
        if why:
            found[where] = why
        for field, value in node.get("properties", {}).items():
            walk(value, f"{where}.{field}")
        # An empty value schema is the holder's fault, told once, at the holder.
        if isinstance(node.get("additionalProperties"), dict) and node["additionalProperties"]:
            walk(node["additionalProperties"], f"{where}{{}}")
        if node.get("items"):
            walk(node["items"], f"{where}[]")
        for key in ("oneOf", "anyOf", "allOf"):
            for choice in node.get(key, []):
                walk(choice, where)

    for path, item in doc["paths"].items():
        for method, operation in item.items():
            for status, response in operation.get("responses", {}).items():
                body = response.get("content", {}).get("application/json")
                if body is not None:
                    walk(body.get("schema", {}), f"<{method.upper()} {path} {status}>")
    return found


def test_no_answer_holds_a_free_object():
    found = loose_values(openapi_schema())
    unexplained = {where: why for where, why in found.items() if where not in FREE_VALUES}
    assert unexplained == {}
    # An allowance for a value that has since been given a shape is stale.
    assert set(FREE_VALUES) <= set(found)


def test_no_answer_is_a_bare_flag():
    doc = openapi_schema()
    components = doc["components"]["schemas"]
    bare = []
    for path, item in doc["paths"].items():
        for method, operation in item.items():
            for status, response in operation.get("responses", {}).items():
                schema = response.get("content", {}).get("application/json", {}).get("schema")
                if not status.startswith("2") or schema is None:
                    continue
                name = schema.get("$ref", "").rsplit("/", 1)[-1]
                fields = set((components[name] if name else schema).get("properties", {}))
                if fields and fields <= {"ok", "detail"}:
                    bare.append(f"{method.upper()} {path} {status}")
    assert bare == []


@pytest.mark.parametrize(
    ("schema", "why"),
    [
        ({}, "any value"),
        ({"type": "object", "additionalProperties": {}}, "an object of any fields"),
        ({"type": "object"}, "an object of any fields"),
        (
            {"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": {}},
            "an object that admits any other field",
        ),
        ({"type": "array", "items": {}}, "a list of anything"),
    ],
)
def test_the_walk_finds_each_kind_of_free_value(schema, why):
    doc = {
        "paths": {"/x/": {"get": {"responses": {"200": _json({"$ref": "#/c/Thing"})}}}},
        "components": {
            "schemas": {
                "Thing": {
                    "type": "object",
                    "properties": {
                        "typed_map": {
                            "type": "object",
                            "additionalProperties": {"type": "array", "items": {"type": "string"}},
                        },
                        "list": {"type": "array", "items": {"$ref": "#/c/Inner"}},
                    },
                },
                "Inner": {"type": "object", "properties": {"value": schema}},
            }
        },
    }
    assert loose_values(doc) == {"Inner.value": why}


def _json(schema: dict[str, Any]) -> dict[str, Any]:
    return {"content": {"application/json": {"schema": schema}}}


# --- what a refusal carries beside its messages --------------------------------

ROOT = Path(settings.BASE_DIR)
_NOT_CODE = {".venv", "var", "tests", "bench", "__pycache__", ".git", "node_modules"}
# ``illegal(rule, message, message_da, params=…)``: its other keywords ride along.
_ILLEGAL_OWN = {"params"}


def refusal_fields(source: str) -> set[str]:
    """The keys a module's refusals add to the error body: the string keys of every
    ``extra={...}`` literal, and the keywords given to ``illegal(...)`` beyond its own."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        for keyword in node.keywords:
            if keyword.arg == "extra" and isinstance(keyword.value, ast.Dict):
                found |= {
                    key.value
                    for key in keyword.value.keys
                    if isinstance(key, ast.Constant) and isinstance(key.value, str)
                }
        name = getattr(node.func, "id", getattr(node.func, "attr", None))
        if name == "illegal":
            found |= {k.arg for k in node.keywords if k.arg and k.arg not in _ILLEGAL_OWN}
    return found


def _documented(component: str) -> set[str]:
    return set(openapi_schema()["components"]["schemas"][component]["properties"])


def test_every_field_a_refusal_carries_is_in_the_error_schema():
    raised: dict[str, set[str]] = {}
    for path in sorted(ROOT.rglob("*.py")):
        if _NOT_CODE & set(path.relative_to(ROOT).parts):
            continue
        for key in refusal_fields(path.read_text()):
            raised.setdefault(key, set()).add(path.relative_to(ROOT).as_posix())
    project = _documented("ApiErrorBody")
    games = _documented("ErrorBody")
    assert project <= games, "the games API's error body is the project's and more"
    missing = {
        key: sorted(where)
        for key, where in raised.items()
        # the table's state rides only on the games API's refusals (a stale write)
        if key not in project and not (key in games and all(w.startswith("games/") for w in where))
    }
    assert not missing, f"refusal fields the error schema does not describe: {missing}"
    assert {"rule", "field", "seq", "tables", "choices"} <= raised.keys()


def test_the_refusal_walk_sees_extras_and_illegal_keywords():
    source = (
        "raise Conflict('x', _('y'), extra={'rule': 'J2', 'undocumented': 1})\n"
        "raise illegal('C2', msg, 'da', params={'n': 1}, move='Y 5: Y1+5')\n"
    )
    assert refusal_fields(source) == {"rule", "undocumented", "move"}


def test_the_schema_is_valid_and_its_generator_has_no_warning(tmp_path):
    """A warning is a schema that says less than it could (a field whose type was
    guessed, one choice set under two names); the published schema must validate."""
    call_command(
        "spectacular", "--validate", "--fail-on-warn", "--file", str(tmp_path / "schema.yml")
    )
    assert (tmp_path / "schema.yml").stat().st_size > 0
