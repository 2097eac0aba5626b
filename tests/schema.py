"""Checking an API answer against the published OpenAPI schema, strictly.

Stricter than a client would be: an object the schema describes field by
field may carry no field it does not declare, so a schema that says less than
the answer (a placeholder, a forgotten field) fails as surely as one that says
more. ``nullable`` (OpenAPI 3.0) becomes JSON Schema's ``null`` type.
"""

from __future__ import annotations

import json
from typing import Any

from django.test import Client
from jsonschema import Draft202012Validator

from tests.security.world import CSRF

_schema_cache: dict[str, Any] = {}


def openapi_schema() -> dict[str, Any]:
    """The schema /api/schema/ publishes (read once per test process)."""
    if "doc" not in _schema_cache:
        response = Client().get("/api/schema/?format=json")
        assert response.status_code == 200
        _schema_cache["doc"] = json.loads(response.content)
    return _schema_cache["doc"]


def _strict(node: Any) -> Any:
    if isinstance(node, list):
        return [_strict(item) for item in node]
    if not isinstance(node, dict):
        return node
    out = {key: _strict(value) for key, value in node.items() if key != "nullable"}
    if out.get("type") == "object" and "properties" in out:
        out.setdefault("additionalProperties", False)
    if node.get("nullable"):
        return {"anyOf": [out, {"type": "null"}]}
    return out


def answer_schema(path: str, method: str, status: int) -> dict[str, Any]:
    """The JSON schema of the answer ``status`` of ``method path`` (a path template)."""
    doc = openapi_schema()
    operation = doc["paths"][path][method.lower()]
    response = operation["responses"][str(status)]
    body = response["content"]["application/json"]["schema"]
    return {**_strict(body), "components": _strict(doc["components"])}


def schema_errors(data: Any, path: str, method: str, status: int) -> list[str]:
    """Every way ``data`` differs from the documented answer (empty: it matches)."""
    validator = Draft202012Validator(answer_schema(path, method, status))
    return [
        f"{'/'.join(str(p) for p in error.absolute_path) or '(top)'}: {error.message}"
        for error in validator.iter_errors(data)
    ]


def checked_answer(response: Any, path: str, method: str, status: int) -> Any:
    """The JSON of ``response``, asserted to have ``status`` and to match the schema."""
    assert response.status_code == status, response.content[:400]
    data = json.loads(response.content)
    assert schema_errors(data, path, method, status) == []
    return data


def post_json(client: Any, url: str, body: dict[str, Any]) -> Any:
    """POST ``body`` as JSON with the matrix world's CSRF token."""
    return client.post(
        url, data=json.dumps(body), content_type="application/json", HTTP_X_CSRFTOKEN=CSRF
    )
