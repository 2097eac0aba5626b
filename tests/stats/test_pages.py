"""Statistics and rating pages: numbers from the logs, pictures present, consent respected."""

from __future__ import annotations

import base64
import csv
import datetime
import io
import re
import xml.etree.ElementTree as ET
from typing import Any

import pytest
from django.urls import reverse

from games.services.move_log import move_submit
from games.services.results import game_result_record
from ratings.services import ratings_recompute
from tests.factories import (
    GameFactory,
    PairFactory,
    PersonFactory,
    PlayerFactory,
    RoundFactory,
    TournamentFactory,
    organiser_of,
)
from tests.stats.test_compute import RECORD

SVG = "{http://www.w3.org/2000/svg}svg"


def pictures(html: str) -> list[ET.Element]:
    """Every data: SVG image of a page, parsed."""
    found = re.findall(r'src="data:image/svg\+xml;base64,([^"]+)"', html)
    return [ET.fromstring(base64.b64decode(data)) for data in found]


@pytest.fixture
def event(db: None) -> dict[str, Any]:
    tournament = TournamentFactory(date=datetime.date(2026, 3, 1))
    boss = organiser_of(tournament, "stats-boss")
    public = [PersonFactory(name=n, publish_consent=True) for n in ("Anna", "Bo")]
    private = [PersonFactory(name=n) for n in ("Hemmelig Carl", "Hemmelig Dina")]

    def pair(people: list[Any]) -> Any:
        players = [PlayerFactory(tournament=tournament, name=p.name, person=p) for p in people]
        return PairFactory(tournament=tournament, player_1=players[0], player_2=players[1])

    game = GameFactory(
        round=RoundFactory(tournament=tournament, number=1),
        pair_yb=pair(public),
        pair_rg=pair(private),
        first_dealer="G",
    )
    for seq, text in enumerate(RECORD["moves"]):
        move_submit(game=game, text=text, client_id=f"stats-entry-{seq}", expected_seq=seq)
    game_result_record(
        game=game,
        actor=boss,
        winner="YB",
        timed_out=True,
        locked_yb=0,
        locked_rg=0,
        distance_yb=1,
        distance_rg=2,
        override_reason="",
    )
    ratings_recompute()
    return {"tournament": tournament, "game": game, "public": public, "private": private}


def test_the_event_page_counts_the_log_and_draws_the_cards(
    client: Any, event: dict[str, Any]
) -> None:
    page = client.get(reverse("stats:tournament", args=[event["tournament"].slug]))
    assert page.status_code == 200
    html = page.content.decode()
    charts = pictures(html)
    assert [c.tag for c in charts] == [SVG, SVG]
    titles = [t.text for t in charts[0].iter("{http://www.w3.org/2000/svg}text")]
    assert "Spillede kort" in titles  # the event's language: Danish
    # Locked pawns after each tenth of the game: none locked in this opening.
    locked = [t.text for t in charts[1].iter("{http://www.w3.org/2000/svg}text")]
    assert "Brikker i hus pr. par, i gennemsnit" in locked and "Vindere" in locked
    assert "100 %" in locked and "50 %" in locked
    assert page.context["summary"].locked_winners == [0.0] * 11
    summary = page.context["summary"]
    assert (summary.games, summary.entries, summary.swaps, summary.splits, summary.hits) == (
        1,
        14,
        1,
        1,
        1,
    )


def test_the_game_page_draws_distance_locked_pawns_and_cards(
    client: Any, event: dict[str, Any]
) -> None:
    url = reverse("stats:game", args=[event["tournament"].slug, event["game"].pk])
    page = client.get(url)
    assert page.status_code == 200
    charts = pictures(page.content.decode())
    assert len(charts) == 4 and all(c.tag == SVG for c in charts)
    # Cards per seat, named by the event's players: Anna Y, Bo B, Carl R, Dina G.
    legend = [t.text for t in charts[3].iter("{http://www.w3.org/2000/svg}text")]
    assert "Y: Anna" in legend and "G: Hemmelig Dina" in legend
    rows = dict(page.context["seat_rows"])
    assert [seat for seat, _ in page.context["seat_players"]] == ["Y", "R", "B", "G"]
    assert rows["11"] == [2, 1, 0, 0] and rows["J"] == [0, 0, 1, 0] and rows["13"] == [0, 1, 0, 1]
    # The distance picture has two lines (one per team) of 15 points each (start + 14 entries).
    paths = [
        p
        for p in charts[0].iter("{http://www.w3.org/2000/svg}path")
        if "line" in (p.get("class") or "")
    ]
    assert len(paths) >= 2


def test_a_game_of_another_event_is_not_found(client: Any, event: dict[str, Any]) -> None:
    other = TournamentFactory()
    url = reverse("stats:game", args=[other.slug, event["game"].pk])
    assert client.get(url).status_code == 404


def test_the_event_csv_has_one_row_per_game(client: Any, event: dict[str, Any]) -> None:
    response = client.get(reverse("stats:tournament_csv", args=[event["tournament"].slug]))
    rows = list(
        csv.DictReader(io.StringIO(response.content.decode().lstrip("\ufeff")), delimiter=";")
    )
    assert len(rows) == 1
    assert rows[0]["entries"] == "14" and rows[0]["swaps"] == "1" and rows[0]["card_11"] == "3"
    assert rows[0]["hits_given_rg"] == "1" and rows[0]["winner"] == "YB"


def test_only_consenting_players_are_on_the_rating_list(client: Any, event: dict[str, Any]) -> None:
    html = client.get(reverse("ratings:list")).content.decode()
    assert "Anna" in html and "Bo" in html
    assert "Hemmelig" not in html
    assert [c.tag for c in pictures(html)] == [SVG]
    csv_text = client.get(reverse("ratings:list_csv")).content.decode()
    assert "Anna" in csv_text and "Hemmelig" not in csv_text


def test_a_player_page_only_for_consent(client: Any, event: dict[str, Any]) -> None:
    anna, carl = event["public"][0], event["private"][0]
    page = client.get(reverse("stats:player", args=[anna.pk]))
    assert page.status_code == 200
    html = page.content.decode()
    assert "Anna" in html and len(pictures(html)) == 2  # rating curve, her cards
    assert page.context["stats"].hits_taken == 0 and page.context["stats"].wins == 1
    # Anna sat at Yellow: her own plays, not her partner's.
    played = {c: n for c, n in page.context["stats"].cards.items() if n}
    assert played == {"8": 1, "4": 1, "11": 2}
    titles = [t.text for t in pictures(html)[1].iter("{http://www.w3.org/2000/svg}text")]
    assert "Kort spillet af denne spiller" in titles
    # Each finished game links its replay.
    finished = [g.game for g in page.context["stats"].games if g.game.status == "finished"]
    assert finished
    for game in finished:
        replay = reverse(
            "games:replay",
            args=[game.round.tournament.slug, game.round.number, game.table_number],
        )
        assert replay in html
    assert client.get(reverse("stats:player", args=[carl.pk])).status_code == 404
    assert client.get(reverse("stats:player", args=[999999])).status_code == 404


def test_an_unpublished_event_is_not_counted_publicly(client: Any, event: dict[str, Any]) -> None:
    tournament = event["tournament"]
    tournament.published = False
    tournament.save()
    assert client.get(reverse("stats:tournament", args=[tournament.slug])).status_code == 404
    page = client.get(reverse("stats:player", args=[event["public"][0].pk]))
    assert page.context["stats"].games == []


def test_the_event_pdf_carries_the_pictures(client: Any, event: dict[str, Any]) -> None:
    from tests.printing.pdf_tools import pdf_text

    response = client.get(reverse("stats:tournament_pdf", args=[event["tournament"].slug]))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    text = pdf_text(response.content)
    # The figures, then both pictures drawn from their SVG: titles, axis and legend texts.
    assert "spil med godkendt træklog" in text
    assert "Spillede kort" in text and "Resterende afstand" in text
    assert (
        "Gul/Blå" in text
        and "Rød/Grøn" in text
        and "Tætteste spil:" in text
        and "runde 1, bord" in text
    )
    # The event's best consenting players' rating curves: their names in the legend.
    assert "Rating efter hvert spil" in text and "Anna" in text and "Hemmelig" not in text
    assert "Brikker i hus gennem spillene" in text and "Andel af spillets træk" in text


def test_svg_pictures_become_drawings() -> None:
    from reportlab.graphics.shapes import Drawing

    from printing.charts import rating_chart
    from stats.pdf import svg_drawing

    drawing = svg_drawing(rating_chart({"Anna": [1.0, 2.5]}, title="R", x_title="x"), width=300)
    assert isinstance(drawing, Drawing) and round(drawing.width) == 300
    with pytest.raises(ValueError):
        svg_drawing("<html/>")


def test_the_season_page_draws_the_players_rating_curves(
    client: Any, event: dict[str, Any]
) -> None:
    from tests.factories import SeriesFactory

    series = SeriesFactory(published=True)
    series.events.create(tournament=event["tournament"])
    page = client.get(reverse("stats:season", args=[series.slug]))
    assert page.status_code == 200
    charts = pictures(page.content.decode())
    assert len(charts) == 3  # the rating curves, card usage, locked pawns over the games
    legend = [t.text for t in charts[0].iter("{http://www.w3.org/2000/svg}text")]
    assert "Anna" in legend and "Bo" in legend and not any("Hemmelig" in (t or "") for t in legend)


def test_the_event_and_season_pages_are_served_from_the_cache_until_a_result_changes(
    client: Any, event: dict[str, Any], django_assert_num_queries: Any
) -> None:
    from tests.factories import SeriesFactory
    from tournament.page_version import forget_stamps
    from tournament.services.audit import tournament_data_changed

    series = SeriesFactory(published=True)
    series.events.create(tournament=event["tournament"])
    event_url = reverse("stats:tournament", args=[event["tournament"].slug])
    season_url = reverse("stats:season", args=[series.slug])
    first = client.get(event_url).content
    client.get(season_url)
    with django_assert_num_queries(0):
        assert client.get(event_url).content == first  # no replay, not even a query
    game = event["game"]
    game.pair_yb.name = "Omdøbt"
    game.pair_yb.save()  # a write that bypasses the services: no version bump
    forget_stamps()
    assert "Omdøbt" not in client.get(event_url).content.decode()
    assert "Omdøbt" not in client.get(season_url).content.decode()
    tournament_data_changed(tournament=event["tournament"])
    forget_stamps()
    assert "Omdøbt" in client.get(event_url).content.decode()
    assert "Omdøbt" not in client.get(season_url).content.decode()  # the season lists no pairs
    assert client.get(season_url).status_code == 200


def test_rating_pages_follow_a_rename_an_anonymisation_and_the_events(
    client: Any, event: dict[str, Any], django_capture_on_commit_callbacks: Any
) -> None:
    from people.models import Person
    from people.services import person_anonymise
    from tests.factories import SeriesFactory
    from tournament.services.audit import tournament_data_changed

    def shown(response: Any) -> str:
        """The page's text and its pictures' texts (the season names people in a picture)."""
        html = response.content.decode()
        return html + " ".join(ET.tostring(p, encoding="unicode") for p in pictures(html))

    series = SeriesFactory(published=True)
    series.events.create(tournament=event["tournament"])
    anna, bo = event["public"]
    urls = {
        "list": reverse("ratings:list"),
        "player": reverse("stats:player", args=[anna.pk]),
        "season": reverse("stats:season", args=[series.slug]),
    }
    for url in urls.values():
        assert "Anna" in shown(client.get(url))
    # A write that announces nothing stays unseen: the pages do come from the cache.
    Person.objects.filter(pk=anna.pk).update(name="Ukendt Anna")
    for url in urls.values():
        assert "Ukendt" not in shown(client.get(url))
    with django_capture_on_commit_callbacks(execute=True):
        anna.name = "Anna Omdøbt"
        anna.save()
    for url in urls.values():
        assert "Anna Omdøbt" in shown(client.get(url)), url
    with django_capture_on_commit_callbacks(execute=True):
        person_anonymise(person=anna, actor=None)
    assert client.get(urls["player"]).status_code == 404
    for url in (urls["list"], urls["season"]):
        assert "Anna" not in shown(client.get(url)), url
    # Bo's page lists his games with the event's pair names (of pairs whose players all
    # consented, as here from now on): it follows the event's data.
    Person.objects.filter(pk__in=[p.pk for p in event["private"]]).update(publish_consent=True)
    game = event["game"]
    bo_page = reverse("stats:player", args=[bo.pk])
    assert "Nyt parnavn" not in client.get(bo_page).content.decode()
    game.pair_rg.name = "Nyt parnavn"
    game.pair_rg.save()
    assert "Nyt parnavn" not in client.get(bo_page).content.decode()
    tournament_data_changed(tournament=event["tournament"])
    assert "Nyt parnavn" in client.get(bo_page).content.decode()


def test_a_broker_that_is_down_does_not_stop_a_result(
    event: dict[str, Any], monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any
) -> None:
    from ratings.tasks import ratings_update

    attempted = []

    def down(game_id: int) -> None:
        attempted.append(game_id)
        raise ConnectionError("broker down")

    monkeypatch.setattr(ratings_update, "delay", down)
    game = event["game"]
    boss = event["tournament"].roles.first().user
    with django_capture_on_commit_callbacks(execute=True):
        game_result_record(
            game=game,
            actor=boss,
            winner="YB",
            timed_out=True,
            locked_yb=0,
            locked_rg=0,
            distance_yb=1,
            distance_rg=2,
            note="rettet",
        )
    assert attempted == [game.pk]  # the rating update was attempted, and failed quietly
    game.refresh_from_db()
    assert game.result_note == "rettet"


def test_the_season_pdf_carries_the_figures_and_pictures(
    client: Any, event: dict[str, Any]
) -> None:
    from tests.factories import SeriesFactory
    from tests.printing.pdf_tools import pdf_text

    series = SeriesFactory(published=True, name="Sæson 2026")
    series.events.create(tournament=event["tournament"])
    page = client.get(reverse("stats:season", args=[series.slug])).content.decode()
    url = reverse("stats:season_pdf", args=[series.slug])
    assert f'href="{url}"' in page
    response = client.get(url)
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    text = pdf_text(response.content)
    assert "Sæson 2026: statistik" in text and "spil med godkendt træklog" in text
    # Each picture drawn from its SVG: card usage, locked pawns, the closest game, the curves.
    assert "Spillede kort" in text and "Brikker i hus pr. par, i gennemsnit" in text
    assert f"Tætteste spil: {event['tournament'].name}, runde 1, bord" in text
    assert "Resterende afstand" in text and "Rating efter hvert spil" in text
    assert "Anna" in text and "Hemmelig" not in text
    hidden = SeriesFactory(published=False)
    assert client.get(reverse("stats:season_pdf", args=[hidden.slug])).status_code == 404


def test_the_player_pdf_only_for_consent(client: Any, event: dict[str, Any]) -> None:
    from tests.printing.pdf_tools import pdf_text

    anna, carl = event["public"][0], event["private"][0]
    url = reverse("stats:player_pdf", args=[anna.pk])
    assert f'href="{url}"' in client.get(reverse("stats:player", args=[anna.pk])).content.decode()
    response = client.get(url)
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    text = pdf_text(response.content)
    assert "Anna" in text and "Hemmelig" not in text
    # The figures, then her rating curve and her own cards, drawn from their SVG.
    assert "usikkerhed" in text.lower()
    assert "Rating efter hvert spil" in text and "Kort spillet af denne spiller" in text
    assert client.get(reverse("stats:player_pdf", args=[carl.pk])).status_code == 404
    assert client.get(reverse("stats:player_pdf", args=[999999])).status_code == 404
