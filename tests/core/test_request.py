"""core.request: one integer parser, bounded JSON, checked query and form text."""

from __future__ import annotations

import io
import json

import pytest
from django.test import RequestFactory

from core.errors import ApplicationError
from core.request import (
    MAX_JSON_DEPTH,
    int_or_none,
    json_object_body,
    parse_int,
    parse_optional_int,
    post_text,
    query_choice,
    query_flag,
    query_int,
    query_text,
    read_json,
    read_json_file,
)


@pytest.mark.parametrize(
    ("value", "number"),
    [(7, 7), ("7", 7), (" 12\n", 12), ("-3", -3), ("+4", 4), ("000", 0), (10**17, 10**17)],
)
def test_parse_int_takes_json_integers_and_ascii_digits(value, number):
    assert parse_int(value, field="n", minimum=-10, maximum=10**18) == number


@pytest.mark.parametrize(
    "value",
    [
        "²",  # isdigit() is true, int() raises
        "٣",  # int() takes Arabic-Indic digits; no client sends them on purpose
        "1e3",
        "1.5",
        "1_000",
        "0x10",
        "",
        " ",
        "9" * 19,  # more than 18 digits
        "9" * 5000,  # int() refuses more than 4300
        "1\x00",
        True,
        1.0,
        None,
        [1],
        {"n": 1},
    ],
)
def test_parse_int_refuses_everything_else_with_a_bilingual_400(value):
    with pytest.raises(ApplicationError) as refused:
        parse_int(value, field="seq", minimum=-(10**18), maximum=10**18)
    assert refused.value.status_code == 400
    assert refused.value.code == "seq_invalid"
    assert "whole number" in refused.value.message_en
    assert "helt tal" in refused.value.message_da


def test_parse_int_checks_the_range_and_can_carry_the_callers_error():
    assert parse_int("60", field="minutes", minimum=1, maximum=60) == 60
    with pytest.raises(ApplicationError, match="from 1 to 60"):
        parse_int("61", field="minutes", minimum=1, maximum=60)
    own = ApplicationError("clock_extension_minutes", "Extra time …", "Ekstra tid …")
    with pytest.raises(ApplicationError) as refused:
        parse_int("0", field="minutes", minimum=1, maximum=60, error=own)
    assert refused.value is own


def test_optional_and_lenient_forms():
    assert parse_optional_int(None, field="n", minimum=0, maximum=9) is None
    assert parse_optional_int("  ", field="n", minimum=0, maximum=9) is None
    assert int_or_none("12", minimum=1, maximum=99) == 12
    assert int_or_none("Hansen", minimum=1, maximum=99) is None
    assert int_or_none("²", minimum=1, maximum=99) is None


def test_query_and_form_readers():
    factory = RequestFactory()
    request = factory.get("/", {"tail": "20", "q": "  Ærø  ", "lang": "en", "legal": "1"})
    assert query_int(request, "tail", minimum=1, maximum=500) == 20
    assert query_int(request, "absent", minimum=1, maximum=500, default=0) == 0
    assert query_text(request, "q", max_length=3) == "  Æ"
    assert query_choice(request, "lang", ("da", "en"), "da") == "en"
    assert query_choice(request, "q", ("da", "en"), "da") == "da"
    assert query_flag(request, "legal") and not query_flag(request, "q")
    bad = factory.get("/?tail=%C2%B2&q=a%00b")
    with pytest.raises(ApplicationError, match="tail must be a whole number"):
        query_int(bad, "tail", minimum=1, maximum=500)
    with pytest.raises(ApplicationError) as refused:
        query_text(bad, "q", max_length=100)
    assert refused.value.code == "text_not_storable"
    form = factory.post("/", {"reason": "a\x00b"})
    with pytest.raises(ApplicationError):
        post_text(form, "reason", max_length=100)


@pytest.mark.parametrize(
    ("raw", "code"),
    [
        ("[" * 50_000 + "]" * 50_000, "json_too_deep"),
        ("[" * (MAX_JSON_DEPTH + 1) + "]" * (MAX_JSON_DEPTH + 1), "json_too_deep"),
        ('{"a": NaN}', "malformed_request"),
        ('{"a": Infinity}', "malformed_request"),
        ('{"a": 1', "malformed_request"),
        (b"\xff\xfe{}", "malformed_request"),
        ('{"text": "\\ud800"}', "text_not_storable"),
        ('{"\\udfff": 1}', "text_not_storable"),
        ('{"reason": "a\\u0000b"}', "text_not_storable"),
        ('{"list": [[["\\u0000"]]]}', "text_not_storable"),
    ],
)
def test_read_json_refuses_what_would_hurt(raw, code):
    with pytest.raises(ApplicationError) as refused:
        read_json(raw, max_bytes=10**6)
    assert refused.value.code == code
    assert refused.value.status_code == 400
    assert refused.value.message_da and refused.value.message_en


def test_read_json_counts_only_real_brackets_and_takes_the_deepest_allowed():
    deepest = "[" * MAX_JSON_DEPTH + "]" * MAX_JSON_DEPTH
    assert read_json(deepest, max_bytes=10**6) is not None
    brackets_in_text = {"text": "[" * 100, "quote": 'a \\" [[[[ {{{{'}
    assert read_json(json.dumps(brackets_in_text), max_bytes=10**6) == brackets_in_text


def test_read_json_is_bounded_in_size_and_refuses_depth_before_parsing():
    with pytest.raises(ApplicationError) as refused:
        read_json_file(io.BytesIO(b'{"a": "' + b"x" * 2000 + b'"}'), max_bytes=1000)
    assert refused.value.status_code == 413
    # A million brackets would exhaust json's recursion: refused before parsing.
    with pytest.raises(ApplicationError) as refused:
        read_json("[" * 1_000_000 + "]" * 1_000_000, max_bytes=4 * 10**6)
    assert refused.value.code == "json_too_deep"


class _FakeRequest:
    def __init__(self, data):
        self.data = data


def test_json_object_body_wants_an_object():
    assert json_object_body(_FakeRequest({"a": 1})) == {"a": 1}
    for data in ([1, 2], "text", 3, None):
        with pytest.raises(ApplicationError) as refused:
            json_object_body(_FakeRequest(data))
        assert refused.value.code == "malformed_request"
