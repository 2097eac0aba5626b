# ruff: noqa: F811  (the event fixture is imported, then requested by name)
"""Times, seasons and comebacks counted by hand: the figures the pages show are true."""

from __future__ import annotations

import datetime
from types import SimpleNamespace
from typing import Any

import pytest
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation

from games.models import MoveEntry
from games.services.results import game_result_record
from ratings.selectors import rating_curves, top_rated_people
from ratings.services import ratings_recompute
from stats.compute import COMEBACK_STEPS, COMEBACKS_SHOWN, GameStats, game_stats, summarise
from stats.templatetags.stats_tags import rounded
from tests.factories import (
    GameFactory,
    PairFactory,
    PersonFactory,
    PlayerFactory,
    RoundFactory,
    TournamentFactory,
    organiser_of,
)
from tests.stats.test_compute import RECORD, T0
from tests.stats.test_pages import event  # noqa: F401  (the fixture)

# Seconds after T0 of the 14 entries: uneven gaps, 13 of them, 780 s from first to last.
OFFSETS = [120, 150, 200, 260, 300, 380, 430, 500, 560, 600, 700, 750, 820, 900]


def _times() -> list[datetime.datetime]:
    return [T0 + datetime.timedelta(seconds=s) for s in OFFSETS]


def test_minutes_from_the_clock_start_and_seconds_from_the_gaps() -> None:
    stats = game_stats(game_id=1, record=RECORD, times=_times(), started_at=T0)
    assert stats.minutes == pytest.approx(15.0)  # 900 s after the clock started
    assert stats.seconds_per_entry == pytest.approx(60.0)  # 780 s over 13 gaps
    without_clock = game_stats(game_id=1, record=RECORD, times=_times())
    assert without_clock.minutes == pytest.approx(13.0)  # first entry to last


def test_entries_loaded_together_have_no_times() -> None:
    same_second = [T0] * 14
    stats = game_stats(game_id=1, record=RECORD, times=same_second, started_at=T0)
    assert stats.minutes is None and stats.seconds_per_entry is None
    summary = summarise([stats])
    assert summary.minutes_per_game is None and summary.seconds_per_entry is None


def test_a_summary_averages_only_the_timed_games() -> None:
    timed = game_stats(game_id=1, record=RECORD, times=_times(), started_at=T0)
    untimed = game_stats(game_id=2, record=RECORD)
    summary = summarise([timed, untimed])
    assert summary.games == 2 and summary.timed_games == 1
    assert summary.minutes_per_game == pytest.approx(15.0)
    assert summary.seconds_per_entry == pytest.approx(60.0)


def test_times_are_rounded_sensibly() -> None:
    with translation.override("en"):
        assert [rounded(v) for v in (None, 0.25, 4.46, 12.6)] == ["—", "0.3", "4.5", "13"]
    with translation.override("da"):
        assert rounded(4.46) == "4,5"


def test_the_event_page_shows_the_logged_times(client: Any, event: dict[str, Any]) -> None:
    game = event["game"]
    for entry, when in zip(
        MoveEntry.objects.filter(game=game).order_by("seq"), _times(), strict=True
    ):
        MoveEntry.objects.filter(pk=entry.pk).update(created_at=when)
    type(game).objects.filter(pk=game.pk).update(started_at=T0)
    with translation.override("da"):
        html = client.get(
            reverse("stats:tournament", args=[event["tournament"].slug]), HTTP_ACCEPT_LANGUAGE="da"
        ).content.decode()
    assert '<span class="value">15</span>' in html
    assert '<span class="value">60</span>' in html


def _comeback(game_id: int, behind: int) -> GameStats:
    stats = GameStats(game_id, entries=1, winner="YB")
    stats.distance = [(400, 400), (400 + behind, 400), (0, 10)]
    return stats


def test_the_comeback_list_names_the_most_striking_and_folds_the_rest() -> None:
    behind = [COMEBACK_STEPS + d for d in (0, 50, 10, 90, 30, 70, 20)]
    games = [_comeback(i + 1, b) for i, b in enumerate(behind)]
    summary = summarise(games)
    assert len(summary.comebacks) == 7 and COMEBACKS_SHOWN == 5
    assert [g.game_id for g in summary.comebacks_shown] == [4, 6, 2, 5, 7]
    assert [g.game_id for g in summary.comebacks_more] == [3, 1]
    game = SimpleNamespace(
        pk=0,
        table_number=1,
        round=SimpleNamespace(number=1, tournament=SimpleNamespace(slug="x", name="DM")),
    )
    page = SimpleNamespace(
        line=lambda game_id: SimpleNamespace(game=SimpleNamespace(**{**vars(game), "pk": game_id}))
    )
    with translation.override("en"):
        html = render_to_string("stats/_notable.html", {"summary": summary, "page": page})
    shown, folded = html.split("<details")
    assert shown.split("Comeback wins")[1].count("<li>") == 5
    assert folded.count("<li>") == 2 and "2 more comeback wins" in folded


@pytest.fixture
def other_event(event: dict[str, Any]) -> dict[str, Any]:
    """A later event outside the season: Anna plays again, Eva only here."""
    tournament = TournamentFactory(date=datetime.date(2026, 6, 1))
    boss = organiser_of(tournament, "stats-other-boss")
    anna = event["public"][0]
    eva, finn, gry = (PersonFactory(name=n, publish_consent=True) for n in ("Eva", "Finn", "Gry"))

    def pair(people: list[Any]) -> Any:
        players = [PlayerFactory(tournament=tournament, name=p.name, person=p) for p in people]
        return PairFactory(tournament=tournament, player_1=players[0], player_2=players[1])

    game = GameFactory(
        round=RoundFactory(tournament=tournament, number=1),
        pair_yb=pair([anna, eva]),
        pair_rg=pair([finn, gry]),
    )
    game_result_record(game=game, actor=boss, winner="YB", locked_yb=8, locked_rg=1)
    ratings_recompute()
    return {"tournament": tournament, "anna": anna, "eva": eva}


def test_a_season_counts_only_its_own_events(
    event: dict[str, Any], other_event: dict[str, Any]
) -> None:
    season = [event["tournament"]]
    people = top_rated_people(tournaments=season)
    assert {p.name for p in people} == {"Anna", "Bo"}  # not Eva, who played only elsewhere
    anna = other_event["anna"]
    assert len(rating_curves(people=[anna])[anna.pk]) == 2  # both events
    assert len(rating_curves(people=[anna], tournaments=season)[anna.pk]) == 1  # the season's game
