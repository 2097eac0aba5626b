"""Schema components the API's serializers cannot declare themselves (pure data: the
settings read it, ``SPECTACULAR_SETTINGS["APPEND_COMPONENTS"]``).

``FieldErrors`` is what DRF reports per refused field (``error.fields``): a list
of messages, or for a nested object or a list's items the same again, by field
name or by item position (``{"pairs": {"0": {"name": ["…"]}}}``; a list of
objects answers one entry per item). Recursive, so it is a named component.
"""

FIELD_ERRORS = "FieldErrors"

COMPONENTS = {
    "schemas": {
        FIELD_ERRORS: {
            "type": "object",
            "description": "Per refused field, its messages in the request's language; a "
            "nested object's or a list's fields nest the same way (by name or item position).",
            "additionalProperties": {
                "anyOf": [
                    {"type": "array", "items": {"type": "string"}},
                    {"$ref": f"#/components/schemas/{FIELD_ERRORS}"},
                    {"type": "array", "items": {"$ref": f"#/components/schemas/{FIELD_ERRORS}"}},
                ]
            },
        }
    }
}
