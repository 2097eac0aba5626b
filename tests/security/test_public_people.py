"""Nothing about a non-consenting person is public outside the published event's own
pages, and nothing of an unpublished event (or a draft round) is public anywhere.

Generated from the URL configuration like the permission matrix: every GET
URL of the site is read as an anonymous visitor, pages, JSON, CSV, PDF (its
text) and the pictures inside pages (``data:`` SVGs, decoded), and the
answer is searched for:

- the **name** of a person who never consented to publish (``SECRET``): it may
  appear only on the published event's own pages (a URL naming ``sec-main``),
  which show its pairs and players as the event's publication;
- that person's **id**, as a person id in any JSON answer (a link between their
  appearances across events is a history of them);
- the **unpublished event** (name, slug) and its games, and a **draft
  round's** game: in no public answer at all (a consenting player's history,
  rating curve or statistics included).

The world: the matrix world (tests/security/world.py) where pair 1 of
``sec-main`` is ``SECRET`` (no consent) with a consenting partner, a finished
game in its closed round, an unpublished event and a draft round in which
the consenting partner won games, and the event seeded by rating. Ratings
count only published events' public rounds; the world is read in the moment
after the other event was unpublished and before the recomputation that
queues has run, so its game still has rating rows the public histories must
leave out.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
from typing import Any

import pytest
from django.core.cache import cache
from django.urls import reverse
from django.utils import timezone

from games.models import Game
from people.models import Person
from ratings.models import PairRating, PersonRating, PersonRatingChange
from ratings.selectors import person_rating_history, rating_curves
from ratings.services import ratings_recompute, ratings_seed_event
from season.models import SeriesEvent
from tests.factories import GameFactory, PairFactory, PlayerFactory, RoundFactory, TournamentFactory
from tests.printing.pdf_tools import pdf_text
from tests.security.public_urls import get_urls
from tests.security.test_permission_matrix import URLS, _kwargs
from tests.security.world import World, build_world
from tournament.models import Pair, Round, Tournament
from tournament.page_version import forget_stamps
from tournament.services.registration import tournament_update

SECRET = "Hemmeligsen Zulu"
HIDDEN_NAME = "Skjultstaevne Quebec"
HIDDEN_SLUG = "skjult-quebec"
_DATA_SVG = re.compile(r"data:image/svg\+xml;base64,([A-Za-z0-9+/=]+)")
# JSON keys that carry a person's id.
PERSON_KEYS = {"person", "person_id", "player_id"}


def _rename(person: Person, name: str) -> None:
    person.name = name
    person.save()
    person.players.update(name=name)


def _played(round_: Round, yb: Pair, rg: Pair, table: int, winner: str = "YB") -> Game:
    return GameFactory(
        round=round_, table_number=table, pair_yb=yb, pair_rg=rg, winner=winner,
        result_source="typed", status=Game.Status.FINISHED,
    )  # fmt: skip


def _hidden_pair(tournament: Any, start_number: int, persons: list[Person]) -> Pair:
    players = [
        PlayerFactory(tournament=tournament, name=p.name, club=p.club, person=p) for p in persons
    ]
    return PairFactory(
        tournament=tournament, start_number=start_number, player_1=players[0], player_2=players[1]
    )


def build_people_world(tmp_path: Any) -> World:
    world = build_world(tmp_path)
    main, pairs = world.main, world.pairs
    secret, public = world.person, world.public_person  # pair 1 of sec-main: both of them
    _rename(secret, SECRET)
    persons = [pl.person for pl in (pairs[1].player_1, pairs[1].player_2)]
    # An event the consenting player won a game in, unpublished below.
    hidden = TournamentFactory(name=HIDDEN_NAME, slug=HIDDEN_SLUG, published=True)
    hidden_round = RoundFactory(tournament=hidden, number=1, status=Round.Status.CLOSED)
    hidden_game = _played(
        hidden_round,
        _hidden_pair(hidden, 1, [public, persons[0]]),
        _hidden_pair(hidden, 2, [secret, persons[1]]),
        table=1,
    )
    # In the season too: the season's pages list published events only.
    SeriesEvent.objects.create(series=world.series, tournament=hidden)
    # A draft round of the published event with a result (typed before publishing).
    draft = RoundFactory(tournament=main, number=3, status=Round.Status.DRAFT)
    draft_game = _played(draft, pairs[0], pairs[1], table=1, winner="RG")
    ratings_recompute()
    # Unpublished after it was rated; the recomputation this queues has not run yet.
    Tournament.objects.filter(pk=hidden.pk).update(published=False)
    hidden.refresh_from_db()
    ratings_seed_event(tournament=main, actor=world.users["organiser"])
    world.objects.update(
        secret=secret, hidden=hidden, hidden_game=hidden_game, draft_game=draft_game
    )
    return world


@pytest.fixture
def people_world(db, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    return build_people_world(tmp_path)


def _texts(response: Any) -> tuple[str, Any]:
    """The answer as searchable text (PDF text, pictures decoded) and its JSON (or None)."""
    body = b"".join(response) if response.streaming else response.content
    kind = response.get("Content-Type", "")
    if "pdf" in kind:
        return pdf_text(body), None
    text = body.decode("utf-8-sig", "replace")
    pictures = []
    for encoded in _DATA_SVG.findall(text):
        try:
            pictures.append(base64.b64decode(encoded).decode("utf-8", "replace"))
        except (binascii.Error, ValueError):
            continue
    data = json.loads(body) if "json" in kind and body else None
    return "\n".join([text, *pictures]), data


def _person_ids(data: Any) -> set[int]:
    if isinstance(data, dict):
        found = {v for k, v in data.items() if k in PERSON_KEYS and isinstance(v, int)}
        for v in data.get("persons") or []:
            found |= {v} if isinstance(v, int) else set()
        return found.union(*(_person_ids(v) for v in data.values()))
    if isinstance(data, list):
        return set().union(*(_person_ids(v) for v in data))
    return set()


def _game_ids(data: Any) -> set[int]:
    if isinstance(data, dict):
        found = {v for k, v in data.items() if k in ("game_id", "game") and isinstance(v, int)}
        return found.union(*(_game_ids(v) for v in data.values()))
    if isinstance(data, list):
        return set().union(*(_game_ids(v) for v in data))
    return set()


# A URL naming one of these names the published event or one of its rounds, games,
# pairs or tables: the event's own pages (and API), which show its pairs and players.
EVENT_KWARGS = {
    "slug", "game_id", "pk", "number", "round_number", "table_number", "start_number",
    "pair_id", "token", "signup_token",
}  # fmt: skip


def _public_urls(world: World) -> list[tuple[str, str, bool]]:
    """(URL name, address, whether it is the event's own) of every GET, as the matrix
    fills in its values; a player's page also for the person who did not consent."""

    def fill(name: str, _names: set[str]) -> list[dict[str, Any]]:
        _route, pattern = URLS[name]
        kwargs = _kwargs(name, pattern, world, "anon")
        if "player_id" in kwargs:
            return [kwargs, {**kwargs, "player_id": world.secret.pk}]
        return [kwargs]

    return [(name, url, bool(EVENT_KWARGS & set(kw))) for name, url, kw in get_urls(fill)]


def test_no_public_answer_shows_a_non_consenting_person_or_an_unpublished_event(people_world):
    world = people_world
    client = world.client("anon")
    hidden_games = {world.hidden_game.pk, world.draft_game.pk}
    leaks: list[str] = []
    for name, url, event_own in _public_urls(world):
        cache.clear()
        forget_stamps()
        response = client.get(url)
        text, data = _texts(response)
        if SECRET in text and not event_own:
            leaks.append(f"{name} {url}: the non-consenting person's name")
        if world.secret.pk in _person_ids(data):
            leaks.append(f"{name} {url}: the non-consenting person's id")
        if HIDDEN_NAME in text or HIDDEN_SLUG in text:
            leaks.append(f"{name} {url}: the unpublished event")
        if hidden_games & _game_ids(data):
            leaks.append(f"{name} {url}: a game of the unpublished event or the draft round")
    assert not leaks, "\n".join(leaks)


def test_the_world_has_what_the_walk_looks_for(people_world):
    """The walk can fail: the data it must not find exists (the unpublished event's
    game still rated, until the queued recomputation runs)."""
    world = people_world
    rated = set(PersonRatingChange.objects.values_list("game_id", flat=True))
    assert {world.hidden_game.pk, world.game_closed.pk} <= rated
    assert world.draft_game.pk not in rated  # a draft round's game never counts
    assert Game.objects.get(pk=world.draft_game.pk).winner == "RG"
    assert (
        PairRating.objects.filter(person_low=world.secret).exists()
        or PairRating.objects.filter(person_high=world.secret).exists()
    )
    assert Pair.objects.get(pk=world.pairs[0].pk).player_1.name == SECRET
    assert Pair.objects.get(pk=world.pairs[0].pk).rating is not None  # seeded by rating
    # The published event's own pages do show the pair, as its publication.
    page = world.client("anon").get(reverse("tournament:standings", args=["sec-main"]))
    assert SECRET in page.content.decode()


def _json(client: Any, url: str) -> Any:
    response = client.get(url)
    assert response.status_code == 200, url
    return response.json()


def _consent(*persons: Person) -> None:
    """Consent as sign-up records it: a bulk update (no save signal)."""
    Person.objects.filter(pk__in=[p.pk for p in persons]).update(
        publish_consent=True, consent_at=timezone.now()
    )


def test_seed_by_rating_publishes_nothing_about_non_consenting_players(people_world):
    world = people_world
    url = reverse("api:tournament-pairs", args=["sec-main"])
    shown = {p["start_number"]: p for p in _json(world.client("anon"), url)}
    # Every pair has a player who did not consent: no rating, no person id.
    assert all(p["rating"] is None for p in shown.values())
    assert shown[1]["player_1"]["person"] is None
    assert shown[1]["player_2"]["person"] == world.public_person.pk  # consented
    single = _json(world.client("anon"), reverse("api:pair-detail", args=[world.pairs[0].pk]))
    assert single["rating"] is None and single["player_1"]["person"] is None
    # The event's organisers and judges still see what they seeded.
    for role in ("organiser", "judge"):
        staff = {p["start_number"]: p for p in _json(world.client(role), url)}
        assert staff[1]["rating"] is not None and staff[1]["player_1"]["person"] == world.secret.pk
    # Once both players of a pair consent, its rating is public.
    _consent(*(pl.person for pl in (world.pairs[1].player_1, world.pairs[1].player_2)))
    shown = {p["start_number"]: p for p in _json(world.client("anon"), url)}
    assert shown[2]["rating"] == Pair.objects.get(pk=world.pairs[1].pk).rating is not None
    assert shown[1]["rating"] is None


def test_the_rating_list_shows_pair_ratings_of_consenting_pairs_only(people_world):
    world = people_world
    page = world.client("anon").get(reverse("ratings:list")).content.decode()
    assert SECRET not in page and world.public_person.name in page
    _consent(world.secret)
    cache.clear()
    page = world.client("anon").get(reverse("ratings:list")).content.decode()
    assert f"{SECRET} &amp; {world.public_person.name}" in page or (
        f"{world.public_person.name} &amp; {SECRET}" in page
    )


def test_public_histories_leave_out_unpublished_events_and_draft_rounds(people_world):
    world = people_world
    public = world.public_person
    history = _json(world.client("anon"), reverse("api:player-detail", args=[public.pk]))
    assert [row["game_id"] for row in history["history"]] == [world.game_closed.pk]
    assert history["games"] == 1
    curves = rating_curves(people=[public])
    assert len(curves[public.pk]) == 1
    # Until the queued recomputation runs, the unpublished event's rows are still there.
    assert len(rating_curves(people=[public], public=False)[public.pk]) == 2
    assert len(person_rating_history(person=public, public=False)) == 2
    ratings_recompute()  # what the queued task does: the rating counts public games only
    assert len(person_rating_history(person=public, public=False)) == 1
    assert PersonRating.objects.get(person=public).games == 1
    page = world.client("anon").get(reverse("stats:player", args=[public.pk])).content
    assert HIDDEN_NAME.encode() not in page and world.main.name.encode() in page


def test_a_consenting_players_page_masks_partners_and_opponents_who_did_not(people_world):
    world = people_world
    url = reverse("stats:player", args=[world.public_person.pk])
    page = world.client("anon").get(url).content.decode()
    assert SECRET not in page
    assert "a player" in page or "en spiller" in page


def test_a_consent_renews_the_cached_player_and_season_pages(
    people_world, django_capture_on_commit_callbacks
):
    world = people_world
    client = world.client("anon")
    urls = [
        reverse("stats:player", args=[world.public_person.pk]),
        reverse("season:ranking", args=[world.series.slug]),
        reverse("season:overview", args=[world.series.slug]),
    ]
    for url in urls:
        assert SECRET not in client.get(url).content.decode()  # now cached
    _consent(world.secret)
    for url in urls:
        assert SECRET in client.get(url).content.decode(), url
    # Withdrawn (a save, as the admin does): private again at once.
    world.secret.refresh_from_db()
    world.secret.publish_consent = False
    with django_capture_on_commit_callbacks(execute=True):
        world.secret.save()
    for url in urls:
        assert SECRET not in client.get(url).content.decode(), url


def test_unpublishing_an_event_renews_every_cached_history(people_world):
    world = people_world
    client = world.client("anon")
    name = world.main.name
    urls = [
        reverse("stats:player", args=[world.public_person.pk]),
        reverse("stats:season", args=[world.series.slug]),
        reverse("season:overview", args=[world.series.slug]),
    ]
    for url in urls:
        assert name in client.get(url).content.decode(), url  # now cached
    tournament_update(tournament=world.main, actor=world.users["organiser"], published=False)
    for url in urls:
        assert name not in client.get(url).content.decode(), url
    history = _json(client, reverse("api:player-detail", args=[world.public_person.pk]))
    assert history["history"] == [] and history["games"] == 0
