"""The input boundary: the API's serializers and the pages' forms refuse bad values
with the codes API clients read, before any service runs (tournament.validators)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from competition.forms import PairRegisterForm, ResultForm, TournamentForm
from competition.serializers import PairRowInputSerializer, TournamentUpdateInputSerializer
from games.engine import find_variant
from tests.factories import (
    GameFactory,
    PairFactory,
    RoundFactory,
    TournamentFactory,
    UserFactory,
    organiser_of,
)
from tournament.models import AuditEntry, Pair, Round, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def tournament():
    return TournamentFactory()


@pytest.fixture
def api(tournament):
    client = APIClient()
    client.force_login(organiser_of(tournament))
    return client


@pytest.mark.parametrize(
    ("fields", "code"),
    [
        ({"knockout_size": 6}, "knockout_size_invalid"),
        ({"tiebreaks": ["buchholz", "coin"]}, "tiebreaks_invalid"),
        ({"tiebreaks": ["wins", "wins"]}, "tiebreaks_invalid"),
        ({"ruleset": "chess"}, "ruleset_unknown"),
        ({"adjudication": "coin"}, "adjudication_unknown"),
        ({"language": "fr"}, "language_unknown"),
        ({"time_limit_minutes": 601}, "field_out_of_range"),
        ({"swiss_rounds": -1}, "field_out_of_range"),
        ({"signup_capacity": 0}, "field_out_of_range"),
        ({"clock_speed": 1e-300}, "clock_speed_invalid"),
        ({"clock_speed": 0.05}, "clock_speed_invalid"),
        ({"clock_speed": 1001}, "clock_speed_invalid"),
        ({"name": "DM\u202e2026"}, "name_control_character"),
        ({"venue": "Odense\x00"}, "text_not_storable"),
        ({"signup_closes_at": "0916-04-16T19:22:19-20:30"}, "field_out_of_range"),
        # DRF's own checks (type, blank, format) answer "invalid" with the fields.
        ({"swiss_rounds": "many"}, "invalid"),
        ({"swiss_rounds": "²"}, "invalid"),
        ({"swiss_rounds": 5.7}, "invalid"),
        ({"name": "  "}, "invalid"),
        ({"signup_closes_at": "2026-13-01T10:00"}, "invalid"),
    ],
)
def test_the_api_refuses_a_bad_setting_with_its_code_and_changes_nothing(
    api, tournament, fields, code
):
    before = Tournament.objects.values().get(pk=tournament.pk)
    response = api.patch(f"/api/tournaments/{tournament.slug}/", fields, format="json")
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == code
    assert error["message_da"] and error["message_en"] != error["message_da"]
    # A NUL byte is refused as the body is read, before the serializer (core.request).
    assert set(fields) <= set(error.get("fields", fields))
    assert Tournament.objects.values().get(pk=tournament.pk) == before


def test_a_refusal_names_its_field_and_reads_in_both_languages(api, tournament):
    response = api.patch(
        f"/api/tournaments/{tournament.slug}/", {"time_limit_minutes": 601}, format="json"
    )
    error = response.json()["error"]
    assert error["field"] == "time_limit_minutes"
    assert error["message_en"] == "time_limit_minutes must be between 1 and 600."
    assert error["message_da"] == "time_limit_minutes skal være mellem 1 og 600."
    assert error["message"] == error["message_da"]


def test_a_not_a_number_clock_speed_is_refused():
    # JSON cannot carry NaN to the API; the serializer refuses it all the same.
    settings = TournamentUpdateInputSerializer(data={"clock_speed": float("nan")})
    assert not settings.is_valid()
    assert {e.code for e in settings.errors["clock_speed"]} & {"clock_speed_invalid", "invalid"}


def test_a_new_event_refuses_a_bad_short_name():
    client = APIClient()
    client.force_login(UserFactory())
    response = client.post(
        "/api/tournaments/",
        {"name": "Cup", "date": "2026-11-28", "slug": "Not A Slug"},
        format="json",
    )
    assert response.status_code == 400 and response.json()["error"]["code"] == "slug_invalid"
    assert not Tournament.objects.exists()


@pytest.mark.parametrize(
    ("player_1", "code"),
    [
        ("Ali \u202eHans", "name_control_character"),  # right-to-left override
        ("Ali \u2067Hans\u2069", "name_control_character"),  # an isolate
        ("Ali\tHans", "name_control_character"),
        ("Ali\x00Hans", "text_not_storable"),
        ("x" * 121, "invalid"),
    ],
)
def test_the_api_refuses_invisible_characters_in_names(api, tournament, player_1, code):
    response = api.post(
        f"/api/tournaments/{tournament.slug}/pairs/",
        {"player_1": player_1, "player_2": "Bo"},
        format="json",
    )
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == code
    assert error["message_da"] and error["message_en"] != error["message_da"]
    assert not Pair.objects.filter(tournament=tournament).exists()


def test_a_pair_edit_refuses_an_out_of_range_seed(api, tournament):
    pair = PairFactory(tournament=tournament)
    response = api.patch(f"/api/pairs/{pair.pk}/", {"seed": 0}, format="json")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "field_out_of_range"
    assert not AuditEntry.objects.filter(action="pair_update").exists()


def test_the_api_collapses_spaces_in_names(api, tournament):
    response = api.post(
        f"/api/tournaments/{tournament.slug}/pairs/",
        {"player_1": "  Mette   Hansen ", "player_2": "Bo"},
        format="json",
    )
    assert response.status_code == 201
    assert response.json()["player_1"]["name"] == "Mette Hansen"


def test_a_csv_row_is_checked_like_a_pair_of_the_api():
    row = PairRowInputSerializer(data={"player_1": "Anna", "player_2": "Bo", "seed": "x"})
    assert not row.is_valid()
    why_en, why_da = row.first_refusal()
    assert why_en.startswith("seed: ") and why_da.startswith("seed: ")
    blank = PairRowInputSerializer(data={"player_1": "Anna", "player_2": "Bo", "seed": " "})
    assert blank.is_valid() and blank.validated_data["seed"] is None


def test_the_csv_import_reports_a_row_with_a_control_character(api, tournament):
    response = api.post(
        f"/api/tournaments/{tournament.slug}/pairs/import/",
        {"csv_text": "player_1,player_2\nAnna,Bo\nAli\u202eHans,Eva\n"},
        format="json",
    )
    assert response.status_code == 400
    errors = response.json()["errors"]
    assert [e["line"] for e in errors] == [3]
    assert "U+202E" in errors[0]["message_en"] and "U+202E" in errors[0]["message_da"]
    assert not Pair.objects.filter(tournament=tournament).exists()


# --- the pages' forms use the same checks ------------------------------------------------


def test_the_settings_form_refuses_what_the_api_refuses(tournament):
    form = TournamentForm(
        {"name": "DM\u202e", "knockout_size": 6, "time_limit_minutes": 601},
        instance=tournament,
    )
    assert not form.is_valid()
    assert form.has_error("name", "name_control_character")
    assert form.has_error("knockout_size")  # the form offers the sizes as choices
    assert form.has_error("time_limit_minutes", "field_out_of_range")


def test_the_settings_form_refuses_a_repeated_tiebreak(tournament):
    form = TournamentForm(
        {"tiebreak_1": "wins", "tiebreak_2": "wins"}, instance=tournament, creating=False
    )
    assert not form.is_valid()
    assert form.has_error("__all__", "tiebreaks_invalid")


def test_the_pair_form_refuses_what_the_api_refuses():
    form = PairRegisterForm({"player_1": "Ali\tHans", "player_2": "Bo", "seed": 0})
    assert not form.is_valid()
    assert form.has_error("player_1", "name_control_character")
    assert form.has_error("seed", "field_out_of_range")


def test_the_pair_page_shows_the_refusal_and_registers_nothing(tournament):
    client = Client()
    client.force_login(organiser_of(tournament, "org"))
    response = client.post(
        reverse("tournament:organiser_pairs", args=[tournament.slug]),
        {"player_1": "Ali \u202eHans", "player_2": "Bo"},
    )
    assert response.status_code == 200
    assert "U+202E" in response.content.decode()
    assert not Pair.objects.filter(tournament=tournament).exists()


@pytest.mark.parametrize(
    ("body", "code", "field"),
    [
        ({"winner": "XY"}, "invalid", "winner"),
        ({"winner": "YB", "locked_yb": 9}, "result_value_invalid", "locked_yb"),
        ({"winner": "YB", "distance_rg": -1}, "result_value_invalid", "distance_rg"),
        ({"winner": "YB", "distance_yb": 8 * 61 + 1}, "result_value_invalid", "distance_yb"),
        ({"winner": "YB", "note": "x" * 501}, "invalid", "note"),
    ],
)
def test_the_api_refuses_a_bad_result_value_and_records_nothing(api, tournament, body, code, field):
    game = GameFactory(round=RoundFactory(tournament=tournament, status=Round.Status.IN_PROGRESS))
    response = api.post(f"/api/games/{game.pk}/result/", body, format="json")
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == code and field in error["fields"]
    assert error["message_da"] != error["message_en"]
    game.refresh_from_db()
    assert game.winner == "" and not AuditEntry.objects.exists()


def test_the_result_form_refuses_what_the_api_refuses(tournament):
    game = GameFactory(round=RoundFactory(tournament=tournament, status=Round.Status.IN_PROGRESS))
    prefix = f"g{game.pk}-"
    data = {f"{prefix}winner": "XY", f"{prefix}locked_yb": "9", f"{prefix}distance_rg": "-1"}
    form = ResultForm.for_game(game, data)
    assert not form.is_valid()
    assert form.has_error("winner", "invalid_choice")
    assert form.has_error("locked_yb", "result_value_invalid")
    assert form.has_error("distance_rg", "result_value_invalid")


def test_the_singles_result_form_takes_at_most_six_locked_pawns(tournament):
    """docs/rulesets/duo.md S2: a DUO player has six pawns."""
    game = GameFactory(round=RoundFactory(tournament=tournament, status=Round.Status.IN_PROGRESS))
    prefix = f"g{game.pk}-"
    form = ResultForm.for_game(
        game, {f"{prefix}winner": "YB", f"{prefix}locked_yb": "7"}, variant=find_variant("duo")
    )
    assert not form.is_valid() and form.has_error("locked_yb", "result_value_invalid")
