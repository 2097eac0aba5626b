"""Lean spectator state and conditional GETs (ETag / 304) of the state polls.

A poll of an unchanged table answers 304 without a body; everything a table
device or the live view shows (a move, a take-back, a judge's ruling, a
confirmation, a status change to time up, a result) answers 200 again.
"""

from __future__ import annotations

import json

import pytest
from django.http import HttpResponse
from django.test import Client, RequestFactory

from core.conditional import conditional_response
from games.models import Game
from games.services.clock import clock_time_up
from games.services.move_log import game_result_confirm, move_submit, move_take_back
from judging.services.rulings import ruling_warning
from tests.factories import judge_of
from tournament.models import Round

pytestmark = pytest.mark.django_db


def play(game, moves, start=0):
    for i, text in enumerate(moves, start=start):
        move_submit(game=game, text=text, client_id=f"client-{i:06d}", expected_seq=i)


def public_url(game):
    return f"/api/games/{game.pk}/state/"


def table_url(token):
    return f"/api/table/{token}/state/"


def poll(url, etag):
    return Client().get(url, HTTP_IF_NONE_MATCH=etag)


# --- lean state ---------------------------------------------------------------


def test_the_public_state_leaves_out_the_legal_moves_unless_asked(game):
    lean = Client().get(public_url(game)).json()
    assert lean["legal_entries"] is None and lean["legal_effects"] is None
    assert lean["seq"] == 0 and lean["position"]  # the board is all there
    full = Client().get(public_url(game) + "?legal=1").json()
    assert full["legal_entries"]["11"] == ["11: in"]
    assert set(full["legal_effects"]["by_card"]) == set(full["legal_entries"])


def test_the_table_state_keeps_the_legal_moves(game, token):
    state = Client().get(table_url(token)).json()
    assert state["legal_entries"]["11"] == ["11: in"]
    assert state["legal_effects"] is not None


def test_the_live_page_embeds_the_lean_state_and_its_etag(game):
    slug = game.round.tournament.slug
    page = Client().get(
        f"/tournaments/{slug}/rounds/{game.round.number}/tables/{game.table_number}/"
    )
    assert page.status_code == 200
    html = page.content.decode()
    assert '"legal_entries": null' in html
    etag = Client().get(public_url(game) + "?tail=20")["ETag"]
    assert f'"state_etag": {json.dumps(etag)}' in html
    assert poll(public_url(game) + "?tail=20", etag).status_code == 304  # the first poll: 304


def test_the_table_page_config_carries_the_state_etag(game, token):
    html = Client().get(f"/t/{token}/").content.decode()
    # The page lists the last 20 entries and polls for those.
    assert f'"state": "{table_url(token)}?tail=20"' in html
    etag = Client().get(table_url(token) + "?tail=20")["ETag"]
    assert f'"state_etag": {json.dumps(etag)}' in html
    assert Client().get(table_url(token))["ETag"] != etag


# --- 304 while unchanged ------------------------------------------------------


@pytest.mark.parametrize("which", ["public", "table"])
def test_an_unchanged_table_answers_304_without_a_body(game, token, which):
    play(game, ["R 11: in"])
    url = public_url(game) if which == "public" else table_url(token)
    first = Client().get(url)
    etag = first["ETag"]
    assert first.status_code == 200 and etag.startswith('W/"')
    assert "no-cache" in first["Cache-Control"]
    again = poll(url, etag)
    assert again.status_code == 304
    assert again.content == b""
    assert again["ETag"] == etag
    # Any other tag, or none, gets the state.
    assert poll(url, 'W/"something-else"').status_code == 200
    assert Client().get(url).status_code == 200


def test_lean_and_full_answers_have_different_tags(game):
    lean = Client().get(public_url(game))["ETag"]
    full = Client().get(public_url(game) + "?legal=1")["ETag"]
    assert lean != full
    assert poll(public_url(game) + "?legal=1", lean).status_code == 200


def test_the_table_state_is_private_and_the_public_state_is_not(game, token):
    assert Client().get(table_url(token))["Cache-Control"] == "private, no-cache"
    assert Client().get(public_url(game))["Cache-Control"] == "no-cache"


# --- 200 after anything the pages show ----------------------------------------


@pytest.mark.parametrize("which", ["public", "table"])
def test_a_move_then_a_take_back_change_the_answer(game, token, which):
    url = public_url(game) if which == "public" else table_url(token)
    before = Client().get(url)["ETag"]
    play(game, ["R 11: in"])
    after_move = poll(url, before)
    assert after_move.status_code == 200 and after_move.json()["seq"] == 1
    move_take_back(game=game, client_id="device-tb-1", seq=1)
    after_take_back = poll(url, after_move["ETag"])
    assert after_take_back.status_code == 200 and after_take_back.json()["seq"] == 0
    # The log is the one it was before the move: the tag names the log, not the time.
    assert after_take_back["ETag"] == before


def test_a_judges_ruling_changes_the_table_state(game, token):
    play(game, ["R 11: in"])
    etag = Client().get(table_url(token))["ETag"]
    judge = judge_of(game.round.tournament)
    ruling_warning(game=game, actor=judge, seat="R", reason="Talked about the cards")
    answer = poll(table_url(token), etag)
    assert answer.status_code == 200
    assert answer.json()["entries"][-1]["text"].startswith("! WARN R")


def test_time_up_changes_the_table_state(game, token):
    Round.objects.filter(pk=game.round_id).update(status=Round.Status.IN_PROGRESS)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.IN_PROGRESS)
    etag = Client().get(table_url(token))["ETag"]
    assert clock_time_up(game_id=game.pk)
    answer = poll(table_url(token), etag)
    assert answer.status_code == 200 and answer.json()["status"] == "time_up"


def test_a_confirmation_by_the_other_pair_changes_the_table_state(game, token, record):
    play(game, record["moves"])
    etag = Client().get(table_url(token))["ETag"]
    assert poll(table_url(token), etag).status_code == 304
    game_result_confirm(game=game, pair_side="YB", client_id="confirm-yb-1")
    answer = poll(table_url(token), etag)
    assert answer.status_code == 200
    assert answer.json()["confirmations"] == {"YB": True, "RG": False}
    game_result_confirm(game=game, pair_side="RG", client_id="confirm-rg-1")
    finished = poll(table_url(token), answer["ETag"])
    assert finished.status_code == 200
    assert finished.json()["result"]["finished"] is True


def test_a_result_set_on_the_game_changes_the_public_state(game):
    etag = Client().get(public_url(game))["ETag"]
    Game.objects.filter(pk=game.pk).update(winner="YB", result_source="judge")
    answer = poll(public_url(game), etag)
    assert answer.status_code == 200 and answer.json()["result"]["winner"] == "YB"


# --- If-None-Match ------------------------------------------------------------


@pytest.mark.parametrize(
    ("header", "matches"),
    [
        ('W/"abc"', True),
        ('"abc"', True),  # weak comparison ignores W/
        ('W/"x", W/"abc"', True),
        ("*", True),
        ('W/"abcd"', False),
        ("", False),
        ("garbage", False),
    ],
)
def test_if_none_match_uses_weak_comparison(header, matches):
    request = RequestFactory().get("/", HTTP_IF_NONE_MATCH=header)
    answered = conditional_response(
        request, etag='W/"abc"', headers={}, answer=lambda: HttpResponse(b"{}")
    )
    assert answered.status_code == (304 if matches else 200)
    assert answered["ETag"] == 'W/"abc"'
    assert (answered.content == b"") is matches


def test_schema_documents_the_conditional_reads():
    paths = Client().get("/api/schema/?format=json").json()["paths"]
    public = paths["/api/games/{game_id}/state/"]["get"]
    table = paths["/api/table/{token}/state/"]["get"]
    for operation in (public, table):
        assert "304" in operation["responses"]
        assert "If-None-Match" in {p["name"] for p in operation["parameters"]}
    assert "legal" in {p["name"] for p in public["parameters"]}


def test_the_live_view_polls_the_last_entries_only_with_its_own_tag(game, record):
    play(game, record["moves"][:30])
    full = Client().get(public_url(game))
    tail = Client().get(public_url(game) + "?tail=20")
    assert len(full.json()["entries"]) == 30
    entries = tail.json()["entries"]
    assert len(entries) == 20 and entries == full.json()["entries"][-20:]
    assert tail["ETag"] != full["ETag"]  # a poller never mixes the two answers
    assert poll(public_url(game) + "?tail=20", tail["ETag"]).status_code == 304
    assert poll(public_url(game), tail["ETag"]).status_code == 200


@pytest.mark.parametrize("bad", ["0", "-1", "x", "501", "2.5"])
def test_a_bad_tail_is_refused_in_both_languages(game, bad):
    answer = Client().get(public_url(game) + f"?tail={bad}")
    assert answer.status_code == 400
    error = answer.json()["error"]
    assert error["code"] == "tail_invalid" and error["message_da"] != error["message_en"]


def test_the_live_page_embeds_and_polls_the_tail(game, record):
    play(game, record["moves"][:30])
    page = Client().get(
        f"/tournaments/{game.round.tournament.slug}/rounds/{game.round.number}"
        f"/tables/{game.table_number}/"
    )
    assert page.status_code == 200
    html = page.content.decode()
    assert f"/api/games/{game.pk}/state/?tail=20" in html
    script = html.split('id="table-state" type="application/json">', 1)[1]
    embedded = json.loads(script.split("<", 1)[0])
    assert len(embedded["entries"]) == 20
