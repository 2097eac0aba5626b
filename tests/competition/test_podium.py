"""The end of an event: champions, podium and final standings (selector, page, PDF)."""

from __future__ import annotations

import html

import pytest
from django.urls import reverse

from competition.placings import final_results
from competition.selectors import standings_for_tournament
from competition.services.knockout import knockout_advance, knockout_create
from competition.services.pairing import round_close
from tests.competition.helpers import event_with_pairs, pair_and_play, play
from tests.printing.pdf_tools import pdf_text
from tournament.models import Pair
from tournament.page_version import forget_stamps

pytestmark = pytest.mark.django_db


def _knockout_event(size, third_place_game):
    """8 seeded pairs, two Swiss rounds, a knockout from the seeds in which the better seed
    wins every game; returns the tournament with the final (maybe) still to play."""
    tournament, organiser, pairs = event_with_pairs(
        8, knockout_size=size, third_place_game=third_place_game, swiss_rounds=2
    )
    for pair in pairs:
        Pair.objects.filter(pk=pair.pk).update(seed=pair.start_number)
    for _ in range(2):
        round_close(round=pair_and_play(tournament, organiser), actor=organiser)
    round_ = knockout_create(tournament=tournament, actor=organiser, source="seeds")
    return tournament, organiser, round_


def _finish(organiser, tournament, round_):
    while round_ is not None:
        play(round_, organiser)
        round_ = knockout_advance(tournament=tournament, actor=organiser)


def _places(final):
    return [(p.place, p.shared, p.pair.start_number, p.how_da) for p in final.places]


def test_the_bracket_decides_the_top_and_the_swiss_standings_the_rest():
    tournament, organiser, semis = _knockout_event(4, third_place_game=True)
    assert not final_results(tournament=tournament).finished
    _finish(organiser, tournament, semis)
    final = final_results(tournament=tournament)
    assert final.finished
    assert [p.pair.start_number for p in final.champions] == [1]
    assert _places(final)[:4] == [
        (1, False, 1, "Vandt finalen"),
        (2, False, 2, "Tabte finalen"),
        (3, False, 3, "Vandt bronzekampen"),
        (4, False, 4, "Tabte bronzekampen"),
    ]
    assert [p.place for p in final.podium] == [1, 2, 3]
    rest = _places(final)[4:]
    assert {p[2] for p in rest} == {5, 6, 7, 8}
    assert all("efter Monrad-runderne" in p[3] for p in rest)
    assert [p[0] for p in rest] == sorted(p[0] for p in rest) and rest[0][0] == 5


def test_without_a_third_place_game_both_semi_final_losers_share_third_and_quarters_fifth():
    tournament, organiser, quarters = _knockout_event(8, third_place_game=False)
    _finish(organiser, tournament, quarters)
    places = _places(final_results(tournament=tournament))
    assert places[:2] == [(1, False, 1, "Vandt finalen"), (2, False, 2, "Tabte finalen")]
    assert places[2:4] == [(3, True, 3, "Ude i semifinaler"), (3, True, 4, "Ude i semifinaler")]
    assert [(p[0], p[1]) for p in places[4:]] == [(5, True)] * 4
    assert all(p[3] == "Ude i kvartfinaler" for p in places[4:])


def test_a_swiss_only_event_finishes_with_its_last_round():
    tournament, organiser, _ = event_with_pairs(4, swiss_rounds=2)
    pair_and_play(tournament, organiser)
    assert not final_results(tournament=tournament).finished
    pair_and_play(tournament, organiser)
    final = final_results(tournament=tournament)
    standings = standings_for_tournament(tournament=tournament)
    assert final.finished and final.champions[0].pair == standings[0].pair
    assert [(p.place, p.pair) for p in final.places] == [(r.rank, r.pair) for r in standings]


def test_the_public_page_pdf_and_home_show_the_champions(client):
    tournament, organiser, semis = _knockout_event(4, third_place_game=True)
    url = reverse("tournament:final", args=[tournament.slug])
    assert "Endnu ikke afgjort" in client.get(url).content.decode()
    _finish(organiser, tournament, semis)
    forget_stamps()
    champions = Pair.objects.get(tournament=tournament, start_number=1).display_name
    page = html.unescape(client.get(url).content.decode())
    assert "Vindere" in page and champions in page
    assert 'class="podium__step podium__step--3"' in page and "Vandt bronzekampen" in page
    home = html.unescape(
        client.get(reverse("tournament:public_home", args=[tournament.slug])).content.decode()
    )
    assert "Podium og slutstilling" in home and champions in home
    pdf = client.get(reverse("printing:final_pdf", args=[tournament.slug]))
    assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf"
    text = " ".join(pdf_text(pdf.content).split())
    assert "Slutresultat" in text and f"VINDERE {champions}" in text
    assert "Vandt finalen" in text and "Tabte bronzekampen" in text
