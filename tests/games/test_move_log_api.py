"""API tests of the table endpoints, export/import and the public reads."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from games.engine import replay
from games.models import Game, MoveEntry
from games.services.tokens import game_token
from tests.factories import GameFactory, organiser_of
from tournament.models import Round

pytestmark = pytest.mark.django_db


def post(client, url, body, **extra):
    return client.post(url, json.dumps(body), content_type="application/json", **extra)


def submit(client, token, text, client_id, expected_seq, **extra):
    return post(
        client,
        f"/api/table/{token}/entries/",
        {"text": text, "client_id": client_id, "expected_seq": expected_seq},
        **extra,
    )


@pytest.fixture
def client():
    return Client(enforce_csrf_checks=True)


def test_submit_answers_201_then_200_for_a_retry(client, game, token):
    first = submit(client, token, "11: in", "api-client-1", 0)
    assert first.status_code == 201
    assert first.json()["state"]["seq"] == 1
    again = submit(client, token, "11: in", "api-client-1", 0)
    assert again.status_code == 200
    assert again.json()["created"] is False
    assert again.json()["entry"] == first.json()["entry"]
    assert MoveEntry.objects.filter(game=game).count() == 1


def test_illegal_move_answers_422_with_rule_in_both_languages(client, game, token):
    res = submit(client, token, "5: R3+5", "api-client-1", 0)
    assert res.status_code == 422
    error = res.json()["error"]
    assert error["code"] == error["rule"]
    assert error["message_da"] and error["message_en"]
    assert error["message"] == error["message_da"]  # Danish is the default
    res_en = post(
        client,
        f"/api/table/{token}/entries/",
        {"text": "5: R3+5", "client_id": "api-client-2", "expected_seq": 0, "lang": "en"},
    )
    assert res_en.json()["error"]["message"] == error["message_en"]
    assert not MoveEntry.objects.exists()


def test_a_refused_field_answers_in_the_bodys_language_too(client, game, token):
    """The table's own language holds for every refusal, a field's included (the one
    exception handler writes it while the request runs in the body's ``lang``)."""
    body = {"text": "11: in", "client_id": "short", "expected_seq": 0}
    danish = post(client, f"/api/table/{token}/entries/", body).json()["error"]
    english = post(client, f"/api/table/{token}/entries/", {**body, "lang": "en"}).json()["error"]
    assert danish["code"] == english["code"] == "client_id_invalid"
    assert danish["message"] == danish["message_da"] != danish["message_en"]
    assert english["message"] == english["message_en"]
    assert not MoveEntry.objects.exists()


def test_stale_answers_409_with_state(client, game, token):
    submit(client, token, "11: in", "api-client-1", 0)
    res = submit(client, token, "8: in", "api-client-2", 0)
    assert res.status_code == 409
    assert res.json()["error"]["code"] == "stale_sequence"
    assert res.json()["error"]["state"]["seq"] == 1


@pytest.mark.parametrize("client_id", ["", "short", "has space in it", "x" * 65, None])
def test_client_id_is_required(client, game, token, client_id):
    res = submit(client, token, "11: in", client_id, 0)
    assert res.status_code == 400
    error = res.json()["error"]
    assert error["code"] == "client_id_invalid" and error["field"] == "client_id"
    assert error["message_en"] != error["message_da"]
    assert not MoveEntry.objects.exists()


@pytest.mark.parametrize(
    ("url", "body", "code"),
    [
        ("entries/", {"text": "11: in", "client_id": "api-client-1", "expected_seq": -1},
         "expected_seq_invalid"),
        ("entries/", {"text": "11: in", "client_id": "api-client-1", "expected_seq": True},
         "expected_seq_invalid"),
        ("entries/", {"text": "11: in", "client_id": "api-client-1", "expected_seq": "²"},
         "expected_seq_invalid"),
        ("entries/", {"text": ["11: in"], "client_id": "api-client-1", "expected_seq": 0},
         "invalid"),
        ("take-back/", {"client_id": "api-client-1", "seq": 0}, "seq_invalid"),
        ("take-back/", {"client_id": "bad id", "seq": 1}, "client_id_invalid"),
        ("confirm/", {"client_id": "api-client-1", "pair_side": "YG"}, "pair_side_invalid"),
        ("confirm/", {"client_id": "api-client-1"}, "pair_side_invalid"),
    ],
)  # fmt: skip
def test_the_table_api_checks_its_input_before_the_log(client, game, token, url, body, code):
    res = post(client, f"/api/table/{token}/{url}", body)
    assert res.status_code == 400
    error = res.json()["error"]
    assert error["code"] == code
    assert error["message_da"] and error["message_en"] != error["message_da"]
    assert not MoveEntry.objects.exists()


def test_an_empty_entry_is_a_notation_refusal(client, game, token):
    res = submit(client, token, "  ", "api-client-1", 0)
    assert res.status_code == 422 and res.json()["error"]["code"] == "N"


def test_malformed_json_is_refused_in_both_languages(client, token):
    res = client.post(f"/api/table/{token}/entries/", "{not json", content_type="application/json")
    assert res.status_code == 400
    assert res.json()["error"]["code"] == "malformed_request"
    assert res.json()["error"]["message_en"] != res.json()["error"]["message_da"]


def test_token_api_needs_no_csrf_and_no_session(client, token):
    # enforce_csrf_checks is on: a token request still goes through.
    assert submit(client, token, "11: in", "api-client-1", 0).status_code == 201


def test_token_of_table_3_cannot_write_to_table_4(client):
    table3 = GameFactory(table_number=3)
    table4 = GameFactory(round=table3.round, table_number=4)
    token3 = game_token(game=table3)
    res = submit(client, token3, "11: in", "api-client-1", 0)
    assert res.status_code == 201
    assert MoveEntry.objects.filter(game=table3).count() == 1
    assert MoveEntry.objects.filter(game=table4).count() == 0
    forged = token3[:-2] + ("AA" if not token3.endswith("AA") else "BB")
    res = submit(client, forged, "8: in", "api-client-2", 1)
    assert res.status_code == 403
    assert res.json()["error"]["code"] == "table_token_invalid"
    assert MoveEntry.objects.count() == 1


def test_closed_round_token_cannot_write_but_can_read(client, game, token):
    submit(client, token, "11: in", "api-client-1", 0)
    Round.objects.filter(pk=game.round_id).update(status=Round.Status.CLOSED)
    res = submit(client, token, "8: in", "api-client-2", 1)
    assert res.status_code == 403
    assert res.json()["error"]["code"] == "permission_denied"
    take_back = post(
        client, f"/api/table/{token}/take-back/", {"client_id": "tb-client-1", "seq": 1}
    )
    assert take_back.status_code == 403
    assert MoveEntry.objects.filter(game=game, withdrawn_at__isnull=True).count() == 1
    assert client.get(f"/api/table/{token}/state/").status_code == 200


def test_take_back_endpoint(client, game, token):
    submit(client, token, "11: in", "api-client-1", 0)
    submit(client, token, "8: in", "api-client-2", 1)
    old = post(client, f"/api/table/{token}/take-back/", {"client_id": "tb-client-1", "seq": 1})
    assert old.status_code == 409
    res = post(client, f"/api/table/{token}/take-back/", {"client_id": "tb-client-1", "seq": 2})
    assert res.status_code == 200
    assert res.json()["seq"] == 1


def test_state_and_preview_endpoints(client, game, token):
    state = client.get(f"/api/table/{token}/state/").json()
    assert state["to_move"] == "R"
    assert state["legal_entries"]["11"] == ["11: in"]
    assert state["legal_entries"]["5"] == []
    res = post(client, f"/api/table/{token}/preview/", {"text": "11: in"})
    assert res.status_code == 200
    assert res.json()["changes"] == [{"colour": "R", "from": ["RH"], "to": ["RS"]}]
    assert not MoveEntry.objects.exists()


def test_export_then_import_round_trips(client, game, token, record):
    for i, text in enumerate(record["moves"][:30]):
        assert submit(client, token, text, f"api-client-{i:03d}", i).status_code == 201
    exported = client.get(f"/api/games/{game.pk}/record/").json()
    assert exported["moves"] == record["moves"][:30]
    assert exported["first_dealer"] == "Y"
    assert exported["players"]["Y"] == game.pair_yb.player_1.name
    assert exported["players"]["G"] == game.pair_rg.player_2.name
    assert client.get(f"/api/table/{token}/record/").json() == exported

    other = GameFactory(round=game.round, first_dealer="Y")
    organiser = organiser_of(game.round.tournament)
    staff = Client()
    staff.force_login(organiser)
    res = post(staff, f"/api/games/{other.pk}/record/", exported)
    assert res.status_code == 201, res.content
    assert res.json()["seq"] == 30
    assert (
        res.json()["position"]
        == replay(dict(record, moves=record["moves"][:30])).position.to_json()
    )
    assert [e.text for e in MoveEntry.objects.filter(game=other).order_by("seq")] == exported[
        "moves"
    ]


def test_import_reports_the_first_error_and_stores_nothing(game, record):
    organiser = organiser_of(game.round.tournament)
    staff = Client()
    staff.force_login(organiser)
    moves = list(record["moves"][:20])
    moves[12] = "Y 5: G9+5"
    res = post(staff, f"/api/games/{game.pk}/record/", dict(record, moves=moves))
    assert res.status_code == 422
    error = res.json()["error"]
    assert error["index"] == 12
    assert error["move"] == "Y 5: G9+5"
    assert not MoveEntry.objects.filter(game=game).exists()


def test_import_needs_a_judge_or_organiser(game, record):
    anonymous = Client()
    res = post(anonymous, f"/api/games/{game.pk}/record/", record)
    assert res.status_code == 403
    other_event_org = organiser_of(GameFactory().round.tournament, username="elsewhere")
    stranger = Client()
    stranger.force_login(other_event_org)
    assert post(stranger, f"/api/games/{game.pk}/record/", record).status_code == 403
    assert not MoveEntry.objects.filter(game=game).exists()


def test_import_needs_csrf_for_a_session(game, record):
    organiser = organiser_of(game.round.tournament)
    staff = Client(enforce_csrf_checks=True)
    staff.force_login(organiser)
    assert post(staff, f"/api/games/{game.pk}/record/", record).status_code == 403
    assert not MoveEntry.objects.filter(game=game).exists()


def test_import_into_a_logged_game_is_refused(client, game, token, record):
    submit(client, token, record["moves"][0], "api-client-1", 0)
    staff = Client()
    staff.force_login(organiser_of(game.round.tournament))
    res = post(staff, f"/api/games/{game.pk}/record/", record)
    assert res.status_code == 409
    assert res.json()["error"]["code"] == "log_not_empty"


def test_public_state_and_hall(client, game, token):
    submit(client, token, "11: in", "api-client-1", 0)
    Round.objects.filter(pk=game.round_id).update(status=Round.Status.IN_PROGRESS)
    state = client.get(f"/api/games/{game.pk}/state/").json()
    assert state["seq"] == 1
    hall = client.get(f"/api/tournaments/{game.round.tournament.slug}/hall/").json()
    assert hall["round"] == game.round.number
    (table,) = hall["tables"]
    assert table["seq"] == 1
    assert table["distance"] == {"YB": 8 * 61, "RG": 8 * 61 - 1}  # Red's pawn entered
    assert table["locked"] == {"YB": 0, "RG": 0}


def test_unpublished_tournament_is_hidden(client, game):
    game.round.tournament.published = False
    game.round.tournament.save()
    assert client.get(f"/api/games/{game.pk}/state/").status_code == 404


def test_schema_lists_the_move_log_endpoints(client):
    res = client.get("/api/schema/?format=json")
    assert res.status_code == 200
    paths = json.loads(res.content)["paths"]
    for path in (
        "/api/table/{token}/entries/",
        "/api/table/{token}/state/",
        "/api/table/{token}/take-back/",
        "/api/table/{token}/confirm/",
        "/api/games/{game_id}/record/",
        "/api/tournaments/{slug}/hall/",
    ):
        assert path in paths


def test_status_time_up_refuses_entries(client, game, token):
    Game.objects.filter(pk=game.pk).update(status=Game.Status.TIME_UP)
    res = submit(client, token, "11: in", "api-client-1", 0)
    assert res.status_code == 409
    assert res.json()["error"]["code"] == "game_time_up"


def test_hall_summary_is_shared_briefly_then_follows_the_log(client, game, token):
    Round.objects.filter(pk=game.round_id).update(status=Round.Status.IN_PROGRESS)
    url = f"/api/tournaments/{game.round.tournament.slug}/hall/"
    assert client.get(url).json()["tables"][0]["seq"] == 0
    submit(client, token, "11: in", "hall-client-1", 0)
    # Within the sharing window every poller gets the same copy ...
    assert client.get(url).json()["tables"][0]["seq"] == 0
    # ... and once it expires, the new entry shows.
    from django.core.cache import cache

    cache.clear()
    assert client.get(url).json()["tables"][0]["seq"] == 1


# --- a submission may use the read memo: the locked read re-checks the link ---------


def test_a_submission_refuses_a_link_rotated_in_another_process_after_a_read(client, game, token):
    assert client.get(f"/api/table/{token}/state/").status_code == 200  # remembered here
    # Another web process rotates the link: this process's memo still knows the old one.
    Game.objects.filter(pk=game.pk).update(token_nonce="f" * 32, token_hash="0" * 64)
    res = submit(client, token, "11: in", "api-client-1", 0)
    assert res.status_code == 403
    assert res.json()["error"]["code"] == "table_token_invalid"
    assert res.json()["error"]["message_da"] and res.json()["error"]["message_en"]
    assert not MoveEntry.objects.filter(game=game).exists()


def test_a_submission_refuses_a_round_closed_after_a_read(client, game, token):
    assert client.get(f"/api/table/{token}/state/").status_code == 200
    Round.objects.filter(pk=game.round_id).update(status=Round.Status.CLOSED)
    res = submit(client, token, "11: in", "api-client-1", 0)
    assert res.status_code == 403
    assert not MoveEntry.objects.filter(game=game).exists()


def test_a_submission_after_a_read_spares_the_token_query(client, game, token):
    from django.db import connection

    from games.services import tokens

    def count_queries(call):
        # execute_wrapper, not CaptureQueriesContext: that one slices a bounded
        # log and can miss the first query once the session has made 9,000.
        statements = []

        def wrapper(execute, sql, params, many, context):
            statements.append(sql)
            return execute(sql, params, many, context)

        with connection.execute_wrapper(wrapper):
            call()
        return statements

    assert submit(client, token, "11: in", "api-client-1", 0).status_code == 201
    tokens._read_memo.clear()
    # A retry of the same entry: the same work both times, but for the lookup.
    fresh = count_queries(lambda: submit(client, token, "11: in", "api-client-1", 0))
    client.get(f"/api/table/{token}/state/")  # remembers the lookup
    remembered = count_queries(lambda: submit(client, token, "11: in", "api-client-1", 0))
    assert len(remembered) == len(fresh) - 1
    assert "token_hash" in fresh[0] and not any('token_hash" =' in q for q in remembered)


@pytest.mark.parametrize(
    ("start", "says"),
    [
        ({"Y": ["YH"] * 4, "R": ["RH"] * 4, "B": ["BH"] * 4}, "cannot be read"),
        ("Y=Y1", "cannot be read"),
        ({"Y": ["Y1", "YH", "YH", "YH"], "R": ["RH"] * 4, "B": ["BH"] * 4, "G": ["GH"] * 4},
         "another position"),
    ],
)  # fmt: skip
def test_import_refuses_a_start_position_the_log_cannot_start_from(game, record, start, says):
    # Found: an invalid `start` was ignored and the moves stored as if played from home.
    staff = Client()
    staff.force_login(organiser_of(game.round.tournament))
    res = post(staff, f"/api/games/{game.pk}/record/", dict(record, start=start))
    assert res.status_code == 422
    error = res.json()["error"]
    assert error["code"] == "N" and says in error["message_en"] and error["message_da"]
    assert not MoveEntry.objects.filter(game=game).exists()
    # Every pawn home is where a table's log starts: such a record imports.
    home = {"Y": ["YH"] * 4, "R": ["RH"] * 4, "B": ["BH"] * 4, "G": ["GH"] * 4}
    moves = record["moves"][:4]
    imported = post(staff, f"/api/games/{game.pk}/record/", dict(record, moves=moves, start=home))
    assert imported.status_code == 201
    assert MoveEntry.objects.filter(game=game).count() == 4


def test_import_of_a_void_with_unicode_digits_names_the_entry_and_rule_n(game, record):
    # Found: "! VOID ²" made replay() raise (500) instead of reporting rule N.
    staff = Client()
    staff.force_login(organiser_of(game.round.tournament))
    moves = [*record["moves"][:3], "! VOID ²"]
    res = post(staff, f"/api/games/{game.pk}/record/", dict(record, moves=moves))
    assert res.status_code == 422
    assert res.json()["error"]["code"] == "N" and res.json()["error"]["index"] == 3


@pytest.mark.parametrize(
    ("text", "status", "code", "recorded"),
    [
        (5, 422, "N", ["5"]),  # a number is read as the text it spells, refused and kept
        (12.5, 422, "N", ["12.5"]),
        (None, 400, "invalid", []),  # no text at all is a malformed request, not a refusal
    ],
)
def test_an_entry_that_is_no_text_is_answered_and_kept_as_the_table_sent_it(
    client, game, token, text, status, code, recorded
):
    from judging.models import MoveRefusal

    res = submit(client, token, text, "api-client-1", 0)
    assert res.status_code == status
    assert res.json()["error"]["code"] == code
    assert list(MoveRefusal.objects.values_list("text", flat=True)) == recorded
    assert not MoveEntry.objects.exists()
