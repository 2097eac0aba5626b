"""The table page, the short-code form, the live view and the hall screen."""

from __future__ import annotations

import json
import re

import pytest
from django.conf import settings
from django.test import Client

from games.engine import ERROR_MESSAGES
from games.services.move_log import move_submit
from games.services.tokens import game_token
from tests.factories import GameFactory
from tournament.models import Round

pytestmark = pytest.mark.django_db


def test_table_page_renders_in_danish_with_json_config_and_no_inline_script(game, token):
    res = Client().get(f"/t/{token}/")
    html = res.content.decode()
    assert res.status_code == 200
    assert '<html lang="da">' in html
    assert "Skriv trækket" in html  # Danish by default
    assert 'type="module" src="/static/js/table/main.js"' in html
    assert 'id="table-config" type="application/json"' in html
    assert 'id="table-state" type="application/json"' in html
    assert f'data-clock-url="/api/table/{token}/clock/"' in html
    for bad in ("<script>", " style=", "onclick="):
        assert bad not in html


def test_table_page_with_forged_token_is_refused(game):
    res = Client().get("/t/not-a-real-token-at-all/")
    assert res.status_code == 403
    assert "ikke gyldigt" in res.content.decode()


def test_short_code_leads_to_the_table_page(game, token):
    game.refresh_from_db()
    res = Client().get("/t/", {"code": game.short_code.lower()})
    assert res.status_code == 302
    assert res["Location"] == f"/t/{token}/"
    res = Client().get("/t/", {"code": "ZZZZZZ"})
    assert res.status_code == 200
    assert "Intet bord har denne kode" in res.content.decode()


def test_closed_round_table_page_is_read_only(game, token):
    Round.objects.filter(pk=game.round_id).update(status=Round.Status.CLOSED)
    html = Client().get(f"/t/{token}/").content.decode()
    assert "runde er lukket" in html
    assert 'id="typed-form"' not in html


def test_live_view_and_hall_show_the_table(game):
    move_submit(game=game, text="11: in", client_id="client-000001", expected_seq=0)
    Round.objects.filter(pk=game.round_id).update(status=Round.Status.IN_PROGRESS)
    slug = game.round.tournament.slug
    live = Client().get(
        f"/tournaments/{slug}/rounds/{game.round.number}/tables/{game.table_number}/"
    )
    assert live.status_code == 200
    assert game.pair_yb.player_1.name in live.content.decode()
    hall = Client().get(f"/tournaments/{slug}/hall/")
    html = hall.content.decode()
    assert hall.status_code == 200
    assert f'data-game="{game.pk}"' in html
    assert '<progress max="100" value="0" data-team="YB"' in html
    assert game_token(game=game) not in html  # the hall never leaks a table token


def _json_block(html, name):
    return json.loads(re.search(rf'id="{name}" type="application/json">(.*?)</script>', html)[1])


def test_the_table_page_gives_the_device_what_it_needs_offline(game, token):
    """The deal and the engine's refusals in the page's language (static/js/table/rules.js)."""
    html = Client().get(f"/t/{token}/").content.decode()
    rules = _json_block(html, "table-config")["rules"]
    assert (rules["ruleset"], rules["hand_size"], rules["deals_per_dealer"]) == ("dm2023", 4, 3)
    assert rules["messages"]["d2"] == ["D2", ERROR_MESSAGES["d2"][2]]  # Danish
    visitor = Client()
    visitor.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"  # the visitor's own choice
    english = visitor.get(f"/t/{token}/").content.decode()
    assert _json_block(english, "table-config")["rules"]["messages"]["d2"] == [
        "D2",
        ERROR_MESSAGES["d2"][1],
    ]
    state = _json_block(html, "table-state")
    assert state["deal_number"] == 1 and state["penalised"] == []
    assert set(state["cards_seen"]) == set(rules["copies"])


def test_a_rehearsal_clock_is_named_on_the_table_device(game, token):
    real_time = GameFactory(first_dealer="Y")
    html = Client().get(f"/t/{game_token(game=real_time)}/").content.decode()
    assert 'id="rehearsal-clock"' not in html
    tournament = game.round.tournament
    tournament.clock_speed = 60.0
    tournament.save(update_fields=["clock_speed"])
    html = Client().get(f"/t/{token}/").content.decode()
    assert 'id="rehearsal-clock"' in html
    assert "Øvelse 60×" in html
