"""The input boundary's plumbing: refusals in both languages, our codes before DRF's."""

from __future__ import annotations

import pytest
from rest_framework import serializers

from core.api_errors import exception_handler
from core.validation import InputRefused, InputSerializer, OneLineName, WholeNumberRange


class _Body(InputSerializer):
    name = serializers.CharField(max_length=5, validators=[OneLineName("name")])
    count = serializers.IntegerField(required=False, validators=[WholeNumberRange("count", 1, 9)])


def _answer(data):
    body = _Body(data=data)
    with pytest.raises(InputRefused) as refused:
        body.is_valid(raise_exception=True)
    return exception_handler(refused.value, {}).data["error"]


def test_our_check_answers_its_code_field_and_both_languages():
    error = _answer({"name": "Anna", "count": 10})
    assert (error["code"], error["field"]) == ("field_out_of_range", "count")
    assert error["message_en"] == "count must be between 1 and 9."
    assert error["message_da"] == "count skal være mellem 1 og 9."
    assert set(error["fields"]) == {"count"}


def test_our_code_wins_over_drfs_own_on_the_same_field():
    # Too long (DRF's max_length) and a direction control (ours): the code clients read is ours.
    error = _answer({"name": "Anna\u202eHansen"})
    assert error["code"] == "name_control_character"
    assert "U+202E" in error["message_en"] and "U+202E" in error["message_da"]


def test_drfs_own_checks_alone_answer_invalid():
    error = _answer({"count": "many"})
    assert error["code"] == "invalid" and set(error["fields"]) == {"name", "count"}


def test_a_valid_body_raises_nothing():
    body = _Body(data={"name": "Anna", "count": 3})
    assert body.is_valid(raise_exception=True)
    assert body.validated_data == {"name": "Anna", "count": 3}
