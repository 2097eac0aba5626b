"""The printed documents of a singles event (DUO), rendered from the database."""

from __future__ import annotations

import pytest
from django.urls import reverse

from competition.services.pairing import round_pair
from games.engine import DUO, selfplay_game
from games.services.move_log import game_record_import
from games.services.tokens import game_token
from tests.factories import TournamentFactory, judge_of, organiser_of
from tests.printing.pdf_tools import area_labels, pdf_pages, pdf_text, qr_codes
from tournament.services.registration import pair_register

NAMES = ["Anne Als", "Bo Bak", "Carl Carlsen", "Dorte Dam", "Erik Eg"]


@pytest.fixture
def duo_round(db):
    tournament = TournamentFactory(name="DUO-pokalen", slug="duo-2026", ruleset="duo")
    organiser = organiser_of(tournament)
    for name in NAMES:
        pair_register(tournament=tournament, actor=organiser, player_1=name, check_in=True)
    return round_pair(tournament=tournament, actor=organiser), organiser


def _url(name, round_):
    return reverse(f"printing:{name}", args=[round_.tournament.slug, round_.number])


def test_singles_score_sheets_seat_two_players_with_the_table_qr(client, duo_round):
    round_, organiser = duo_round
    client.force_login(organiser)
    response = client.get(_url("score_sheets_pdf", round_) + "?lang=en")
    assert response.status_code == 200
    games = list(round_.games.select_related("pair_yb__player_1", "pair_rg__player_1"))
    pages = pdf_pages(response.content)
    assert len(pages) == len(games) == 2
    for index, game in enumerate(sorted(games, key=lambda g: g.table_number)):
        page = pages[index]
        assert game.pair_yb.player_1.name in page and game.pair_rg.player_1.name in page
        assert "Yellow (Y)" in page and "Red (R)" in page and "Blue (B)" not in page
        assert game.first_dealer in ("Y", "R")
        game.refresh_from_db()
        assert qr_codes(response.content, index) == [
            f"https://dm.example/t/{game_token(game=game)}/"
        ]


def test_singles_pairings_list_names_each_player_once_and_the_bye(client, duo_round):
    round_, organiser = duo_round
    client.force_login(organiser)
    response = client.get(_url("pairings_pdf", round_) + "?lang=en")
    assert response.status_code == 200
    text = pdf_text(response.content)
    for name in NAMES:
        assert text.count(name) == 2, name  # by table (or bye) and A–Z
    assert "Bye:" in text and "Partner" not in text and " & " not in text


def test_a_duo_game_record_names_two_players_and_draws_duo_diagrams(client, duo_round):
    round_, organiser = duo_round
    game = round_.games.select_related("pair_yb__player_1", "pair_rg__player_1").get(table_number=1)
    record = selfplay_game(3, DUO, first_dealer="Y")
    game.first_dealer = "Y"
    game.save()
    game_record_import(game=game, actor=organiser, record={**record, "moves": record["moves"][:25]})
    client.force_login(judge_of(round_.tournament))
    url = reverse("printing:game_record_pdf", args=[round_.tournament.slug, game.pk])
    response = client.get(url + "?lang=en")
    assert response.status_code == 200
    text = pdf_text(response.content)
    yellow, red = game.pair_yb.player_1.name, game.pair_rg.player_1.name
    assert f"Yellow: {yellow}, Red: {red}" in text and "Blue" not in text
    assert "All 25 entries accepted by the rules engine." in text
    # Diagrams every 20 entries and at the end, on the DUO board (duo.md B1).
    assert "Position after entry 20" in text and "Position after entry 25" in text
    assert area_labels(text) == ["YK", "RK", "YO", "RO"] * 2
