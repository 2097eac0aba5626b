"""Judging pages and API: permissions, the table's call, the replay viewer, search."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.services.judges import JudgeAtEvent, JudgeAtGame
from judging.models import JudgeCall, Ruling
from judging.services.rulings import ruling_penalty, ruling_warning

pytestmark = pytest.mark.django_db


def _review_url(game, at=None):
    url = reverse("judging:review", args=[game.round.tournament.slug, game.pk])
    return url + (f"?at={at}" if at is not None else "")


# --- the table (token) ---------------------------------------------------------


def test_table_calls_a_judge_through_the_api(api, logged, token):
    url = reverse("api:table-judge", args=[token])
    body = {"client_id": "table-call-1", "reason": "tvist", "seq": 10}
    answer = api.post(url, body, format="json")
    assert answer.status_code == 201
    assert answer.json()["call"]["status"] == "open"
    again = api.post(url, {"client_id": "table-call-1"}, format="json")
    assert again.json()["call"]["id"] == answer.json()["call"]["id"]
    assert JudgeCall.objects.count() == 1


def test_a_forged_table_link_cannot_call(api, logged):
    answer = api.post(
        reverse("api:table-judge", args=["forged-token-123"]), {"client_id": "table-call-1"},
        format="json",
    )  # fmt: skip
    assert answer.status_code == 403
    assert answer.json()["error"]["message_da"]
    assert not JudgeCall.objects.exists()


def test_malformed_call_is_refused_in_both_languages(api, logged, token):
    answer = api.post(
        reverse("api:table-judge", args=[token]), "not json", content_type="application/json"
    )
    assert answer.status_code == 400
    error = answer.json()["error"]
    assert error["message_en"] and error["message_da"]
    assert not JudgeCall.objects.exists()


def test_a_table_token_can_never_rule(api, logged, token):
    # The rulings API is session-authenticated: a token is not a login.
    answer = api.post(
        reverse("api:game-rulings", args=[logged.pk]) + f"?token={token}",
        {"kind": "void", "seq": 10, "reason": "x"},
        format="json",
        HTTP_AUTHORIZATION=f"Token {token}",
    )
    assert answer.status_code in (401, 403)
    assert not Ruling.objects.exists()


def test_table_sees_who_is_coming_and_the_rulings(api, logged, token, judge):
    from judging.services.calls import judge_call_create, judge_call_take

    call = judge_call_create(game=logged, client_id="table-call-1")
    judge_call_take(call=call, judge=JudgeAtEvent(call.tournament, judge))
    ruling_warning(game=logged, actor=judge, seat="R", reason="Snak ved bordet")
    data = api.get(reverse("api:table-judge", args=[token])).json()
    assert data["call"]["taken_by"] == "dommer"
    assert data["rulings"][0]["reason"] == "Snak ved bordet"
    assert data["rulings"][0]["entries"][0]["text"] == "! WARN R"


def test_table_page_has_the_call_button_in_danish(client, logged, token):
    page = client.get(reverse("games:table", args=[token]))
    assert page.status_code == 200
    html = page.content.decode()
    assert "Tilkald en dommer" in html
    assert 'id="judge-box"' in html and "judge_call.js" in html
    assert "<script>" not in html and " style=" not in html


# --- judges --------------------------------------------------------------------


def test_review_page_replays_to_an_entry(client, logged, judge):
    client.force_login(judge)
    page = client.get(_review_url(logged, 10))
    assert page.status_code == 200
    html = page.content.decode()
    entry = page.context["entry"]
    assert entry["seq"] == 10 and entry["verdict"]["ok"]
    assert entry["rule"] and entry["rule_text"]
    assert entry["card"] and entry["text"] in html
    # Every legal move of that card at that moment, the logged one among them.
    assert entry["text"].split(" ", 1)[1] in entry["legal"] or entry["card"] == "X"
    assert "Genafspil" in html or "Replay" in html


def test_review_steps_first_previous_next_last(client, logged, judge):
    client.force_login(judge)
    review = client.get(_review_url(logged, 4)).context["review"]
    assert review["nav"] == {"first": 0, "prev": 3, "next": 5, "last": 10}
    start = client.get(_review_url(logged, 0)).context["review"]
    assert start["entry"] is None
    assert all(loc.endswith("H") for c in "YRBG" for loc in start["position"][c])
    beyond = client.get(_review_url(logged, 99)).context["review"]
    assert beyond["at"] == 10


def test_review_page_is_for_judges_of_this_event_only(client, logged, other_judge, player):
    assert client.get(_review_url(logged)).status_code == 302  # to the login
    for user in (other_judge, player):
        client.force_login(user)
        assert client.get(_review_url(logged)).status_code == 403


def test_voiding_through_the_form(client, logged, judge):
    client.force_login(judge)
    url = reverse("judging:rule", args=[logged.round.tournament.slug, logged.pk])
    answer = client.post(url, {"action": "void", "seq": "10", "reason": "Forkert brik", "at": "10"})
    assert answer.status_code == 302
    ruling = Ruling.objects.get()
    assert ruling.kind == "void" and ruling.reason == "Forkert brik"


def test_form_errors_come_back_on_the_page_and_change_nothing(client, logged, judge):
    client.force_login(judge)
    url = reverse("judging:rule", args=[logged.round.tournament.slug, logged.pk])
    answer = client.post(url, {"action": "void", "seq": "10", "reason": ""})
    assert answer.status_code == 400
    assert "Skriv begrundelsen" in answer.content.decode()
    assert not Ruling.objects.exists()


def test_other_judges_cannot_post_rulings(client, logged, other_judge):
    client.force_login(other_judge)
    url = reverse("judging:rule", args=[logged.round.tournament.slug, logged.pk])
    answer = client.post(url, {"action": "void", "seq": "10", "reason": "x"})
    assert answer.status_code == 403
    assert not Ruling.objects.exists()


def test_rulings_api_needs_csrf_for_a_session(logged, judge):
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    client.force_login(judge)
    answer = client.post(
        reverse("api:game-rulings", args=[logged.pk]),
        {"kind": "warning", "seat": "Y", "reason": "x"},
        content_type="application/json",
    )
    assert answer.status_code == 403
    assert not Ruling.objects.exists()


def test_rulings_api(api, logged, judge):
    api.force_authenticate(judge)
    answer = api.post(
        reverse("api:game-rulings", args=[logged.pk]),
        {"kind": "penalty", "penalty": "P1", "seat": "B", "reason": "Flyttede før kortet"},
        format="json",
    )
    assert answer.status_code == 201 and answer.json()["rule"] == "P1"
    bad = api.post(
        reverse("api:game-rulings", args=[logged.pk]),
        {"kind": "penalty", "penalty": "P9", "seat": "B", "reason": "x"},
        format="json",
    )
    assert bad.status_code == 400 and bad.json()["error"]["message_da"]


def test_dashboard_lists_open_calls(api, logged, judge):
    from judging.services.calls import judge_call_create

    judge_call_create(game=logged, client_id="table-call-1", reason="tvist", seq=10)
    api.force_authenticate(judge)
    calls = api.get(reverse("api:judge-calls", args=[logged.round.tournament.slug])).json()
    assert calls["calls"][0]["table"] == logged.table_number
    assert calls["calls"][0]["review_url"].endswith("?at=10")
    take = api.post(reverse("api:call-take", args=[calls["calls"][0]["id"]]))
    assert take.json()["taken_by"] == "dommer"


def test_rulings_search_by_rule_and_text(client, logged, judge):
    ruling_penalty(game=logged, actor=judge, penalty="P1", seat="Y", reason="Rørte brikken først")
    ruling_warning(game=logged, actor=judge, seat="R", rule="P5", reason="Signal om kortbytte")
    client.force_login(judge)
    url = reverse("judging:rulings", args=[logged.round.tournament.slug])
    by_rule = client.get(url, {"rule": "p5"}).context["rulings"]
    assert [r.rule for r in by_rule] == ["P5"]
    by_text = client.get(url, {"q": "brikken"}).context["rulings"]
    assert [r.rule for r in by_text] == ["P1"]
    assert len(client.get(url).context["rulings"]) == 2


def test_incident_history_per_pair(api, logged, judge):
    from core.errors import ApplicationError
    from games.services.move_log import move_submit
    from judging.services.calls import judge_call_create

    judge_call_create(game=logged, client_id="table-call-1", reason="tvist")
    ruling_penalty(game=logged, actor=judge, penalty="P1", seat="R", reason="før kortet")
    with pytest.raises(ApplicationError):
        move_submit(game=logged, text="5: Y14+5", client_id="refused-0001", expected_seq=11)
    api.force_authenticate(judge)
    pairs = api.get(
        reverse("api:judge-incidents", args=[logged.round.tournament.slug]),
        {"pair": logged.pair_rg_id},
    ).json()["pairs"]
    assert len(pairs) == 1
    rg = pairs[0]
    assert len(rg["calls"]) == 1 and rg["penalties"][0]["rule"] == "P1"
    yb = api.get(
        reverse("api:judge-incidents", args=[logged.round.tournament.slug]),
        {"pair": logged.pair_yb_id},
    ).json()["pairs"][0]
    assert yb["penalties"] == []
    assert len(rg["refusals"]) + len(yb["refusals"]) == 1


def _follow_message(client, answer):
    from django.contrib.messages import get_messages

    assert answer.status_code == 302
    return [str(m) for m in get_messages(answer.wsgi_request)]


def test_a_ruling_from_the_review_page_says_what_it_did_to_call_and_clock(client, logged, judge):
    from judging.services.calls import judge_call_create

    call = judge_call_create(game=logged, client_id="table-call-1", seq=10)
    client.force_login(judge)
    url = reverse("judging:rule", args=[logged.round.tournament.slug, logged.pk])
    form = {"action": "uphold", "seq": "10", "reason": "Lovligt", "call": str(call.pk), "at": "10"}
    answer = client.post(url, form)
    assert answer["Location"].endswith("?at=10")
    assert _follow_message(client, answer) == [
        "Kendelsen er skrevet i spillets log: Loggen stadfæstet (Post 10 stadfæstet som logget). "
        "Tilkaldet er lukket, og uret kører igen."
    ]
    page = client.get(answer["Location"]).content.decode()
    assert "Tilkaldet er lukket, og uret kører igen." in page
    assert 'id="call-box"' not in page  # no open call any more


def test_closing_a_call_says_so_and_not_that_a_ruling_was_written(client, logged, judge):
    from judging.services.calls import judge_call_create

    call = judge_call_create(game=logged, client_id="table-call-1")
    client.force_login(judge)
    url = reverse("judging:rule", args=[logged.round.tournament.slug, logged.pk])
    answer = client.post(url, {"action": "close", "call": str(call.pk)})
    assert _follow_message(client, answer) == ["Tilkaldet er lukket, og uret kører igen."]


def test_resume_the_clock_from_the_review_page(client, logged, judge):
    from games.services.clock import clock_pause

    clock_pause(judge=JudgeAtGame(logged, judge), reason="pause")
    client.force_login(judge)
    page = client.get(_review_url(logged)).content.decode()
    assert 'id="resume-clock"' in page and "Uret står på pause — pause" in page
    url = reverse("judging:rule", args=[logged.round.tournament.slug, logged.pk])
    answer = client.post(url, {"action": "resume", "at": "3"})
    assert _follow_message(client, answer) == ["Uret kører igen."]
    logged.clock.refresh_from_db()
    assert logged.clock.paused_at is None


def test_a_malformed_call_id_is_refused_with_a_message(client, logged, judge):
    client.force_login(judge)
    url = reverse("judging:rule", args=[logged.round.tournament.slug, logged.pk])
    answer = client.post(url, {"action": "close", "call": "12x"})
    assert answer.status_code == 400
    assert "Angiv tilkaldet ved dets nummer." in answer.content.decode()
    answer = client.post(url, {"action": "close", "call": "999999"})
    assert answer.status_code == 404
    assert "Tilkaldet findes ikke." in answer.content.decode()


def test_rulings_api_reports_the_closed_call(api, logged, judge):
    from judging.services.calls import judge_call_create

    call = judge_call_create(game=logged, client_id="table-call-1")
    api.force_authenticate(judge)
    answer = api.post(
        reverse("api:game-rulings", args=[logged.pk]),
        {"kind": "warning", "seat": "Y", "reason": "Snak", "call": call.pk},
        format="json",
    )
    closing = answer.json()["call_closing"]
    assert closing["clock"] == "resumed" and closing["closed_now"]
    assert closing["message_en"] == "The call is closed and the clock runs again."


def test_replay_buttons_use_glyphs_every_font_has(client, logged, judge):
    # ⏮ and ⏭ (U+23EE, U+23ED) are missing from common fonts and showed as boxes.
    client.force_login(judge)
    html = client.get(_review_url(logged, 4)).content.decode()
    nav = html.split('class="replay-nav"')[1].split("</nav>")[0]
    assert "⏮" not in nav and "⏭" not in nav
    # Glyphs only, to keep the row on one line of a phone; the words are their names.
    assert 'aria-label="Første">«</a>' in nav and 'aria-label="Sidste">»</a>' in nav


def test_judges_pages_read_judge_entries_in_words_and_name_the_judge(client, api, logged, token):
    from judging.services.calls import judge_call_create, judge_call_take
    from tests.factories import judge_of

    judge = judge_of(logged.round.tournament, "uret")
    judge.first_name, judge.last_name = "Ulla", "Ravn"
    judge.save()
    call = judge_call_create(game=logged, client_id="words-call")
    judge_call_take(call=call, judge=JudgeAtEvent(call.tournament, judge))
    assert api.get(reverse("api:table-judge", args=[token])).json()["call"]["taken_by"] == (
        "Ulla Ravn"
    )
    ruling_penalty(game=logged, actor=judge, penalty="P1", seat="Y", reason="Rørte brikken først")
    client.force_login(judge)
    rulings = client.get(reverse("judging:rulings", args=[logged.round.tournament.slug]))
    html = rulings.content.decode()
    assert "Straf P1: Gul får 3 kort i næste giv" in html and "Ulla Ravn" in html
    review = client.get(_review_url(logged)).content.decode()
    assert "Straf P1: Gul får 3 kort i næste giv <code>! P1 Y</code>" in review


def test_correcting_the_position_through_the_form(client, logged, judge):
    """The "Correct the position" form posts the position the page prefilled (the
    position now) with the judge's reason; the ruling stores it as a judge entry."""
    client.force_login(judge)
    page = client.get(_review_url(logged)).content.decode()
    prefilled = page.split('id="form-position"')[1].split('name="position" value="')[1]
    position = prefilled.split('"')[0]
    assert position.startswith("Y=")
    url = reverse("judging:rule", args=[logged.round.tournament.slug, logged.pk])
    answer = client.post(url, {"action": "position", "position": position, "reason": "Tælt om"})
    assert answer.status_code == 302, answer.content.decode()[:2000]
    ruling = Ruling.objects.get()
    assert ruling.kind == "position" and ruling.reason == "Tælt om"
    assert [str(e["text"]).startswith("! SET") for e in ruling.log_entries] == [True]
