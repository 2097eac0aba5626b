"""Who may act on a person: every people action as every role, through the API
and the pages; a stranger's account cannot reach another organiser's people.

The world: the owner organises events A and B and the season made of them;
another organiser runs event C, where he registered "Kirsten Pedersen,
København Brætspil" (known from A): a suggested match, not a link.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from people.models import Person, PersonAudit, PersonMatch
from season.models import Series
from season.selectors import series_people
from season.services.people import person_match_confirm, season_persons_merge
from season.services.series import series_create, series_event_add
from tests.factories import UserFactory, judge_of
from tests.signup.conftest import sign_up
from tournament.models import Player, Tournament
from tournament.person_permissions import may_manage_person
from tournament.services.registration import pair_register, tournament_create

pytestmark = pytest.mark.django_db

KB = "København Brætspil"


@dataclass
class World:
    users: dict[str, Any]
    season: Series
    kirsten: Person  # known from A (the owner's)
    soeren: Person  # "Søren Poulsen" in B
    soeren_typo: Person  # "Soeren Poulsen" in A: the same human, to merge
    merge: PersonAudit  # Hanne Jensen of A and of B, merged by the owner
    match: PersonMatch  # C's Kirsten ~ A's Kirsten


def _event(organiser: Any, name: str, pairs: list[tuple[str, str, str]]) -> Tournament:
    tournament = tournament_create(
        actor=organiser, name=name, date=datetime.date(2026, 5, 1), published=True
    )
    for player_1, player_2, club in pairs:
        pair_register(
            tournament=tournament, actor=organiser, player_1=player_1, player_2=player_2,
            club=club,
        )  # fmt: skip
    return tournament


@pytest.fixture
def world() -> World:
    return build_world()


def build_world() -> World:
    owner, other = UserFactory(username="owner"), UserFactory(username="other")
    a = _event(
        owner,
        "Kval A",
        [("Kirsten Pedersen", "Lars Andersen", KB), ("Hanne Jensen", "Soeren Poulsen", "Odense")],
    )
    b = _event(
        owner,
        "Kval B",
        [("Anne Larsen", "Søren Poulsen", "Odense"), ("Hanne Jensen", "Bo Berg", "")],
    )
    season = series_create(actor=owner, name="Ejerens sæson")
    for event in (a, b):
        series_event_add(series=season, actor=owner, tournament=event)
    hanne_a, hanne_b = (
        Player.objects.get(tournament=t, name="Hanne Jensen").person for t in (a, b)
    )
    assert hanne_a is not None and hanne_b is not None and hanne_a != hanne_b
    merge = season_persons_merge(series=season, actor=owner, survivor=hanne_a, duplicate=hanne_b)
    _event(other, "Andens turnering", [("Kirsten Pedersen", "Pia Madsen", KB)])
    kirsten = Player.objects.get(tournament=a, name="Kirsten Pedersen").person
    (match,) = PersonMatch.objects.all()
    assert match.known == kirsten
    users = {
        "anonymous": None,
        "plain": UserFactory(username="plain"),
        "owner": owner,
        "other": other,
        "judge": judge_of(a, "dommer"),
        "staff": UserFactory(username="staff", is_staff=True),
    }
    return World(
        users=users,
        season=season,
        kirsten=kirsten,
        soeren=Person.objects.get(name="Søren Poulsen"),
        soeren_typo=Person.objects.get(name="Soeren Poulsen"),
        merge=merge,
        match=match,
    )


def snapshot() -> tuple[Any, ...]:
    """Everything a people action can change."""
    return (
        list(
            Person.objects.order_by("pk").values_list(
                "pk", "name", "club", "merged_into", "anonymised_at", "publish_consent"
            )
        ),
        list(Player.objects.order_by("pk").values_list("pk", "name", "club", "person")),
        list(PersonMatch.objects.order_by("pk").values_list("pk", "status")),
        list(PersonAudit.objects.order_by("pk").values_list("pk", "undone_at")),
    )


def _api_call(w: World, action: str) -> tuple[str, dict[str, int]]:
    season = f"/api/seasons/{w.season.slug}/people"
    return {
        "merge": (f"{season}/merge/", {"survivor": w.soeren.pk, "duplicate": w.soeren_typo.pk}),
        "undo": (f"{season}/merges/{w.merge.pk}/undo/", {}),
        "anonymise": (f"{season}/{w.kirsten.pk}/anonymise/", {}),
        "apart": (f"{season}/apart/", {"first": w.soeren.pk, "second": w.soeren_typo.pk}),
        "confirm": (f"/api/people/matches/{w.match.pk}/confirm/", {}),
        "dismiss": (f"/api/people/matches/{w.match.pk}/dismiss/", {}),
    }[action]


def _page_call(w: World, action: str) -> tuple[str, dict[str, int]]:
    season = f"/organise/seasons/{w.season.slug}/people"
    return {
        "merge": (f"{season}/merge/", {"survivor": w.soeren.pk, "duplicate": w.soeren_typo.pk}),
        "undo": (f"{season}/merges/{w.merge.pk}/undo/", {}),
        "anonymise": (f"{season}/{w.kirsten.pk}/anonymise/", {}),
        "apart": (f"{season}/apart/", {"first": w.soeren.pk, "second": w.soeren_typo.pk}),
        "confirm": (f"/organise/people/matches/{w.match.pk}/confirm/", {}),
        "dismiss": (f"/organise/people/matches/{w.match.pk}/dismiss/", {}),
    }[action]


# Who may: merging, undoing and anonymising the season's people of the owner's
# own events: the owner and staff; a suggested match across two organisers is
# merged by staff only; either organiser may keep the two apart.
ALLOWED = {
    "merge": {"owner", "staff"},
    "undo": {"owner", "staff"},
    "anonymise": {"owner", "staff"},
    "apart": {"owner", "staff"},
    "confirm": {"staff"},
    "dismiss": {"owner", "other", "staff"},
}
ROLES = ["anonymous", "plain", "owner", "other", "judge", "staff"]


@pytest.mark.parametrize("action", list(ALLOWED))
@pytest.mark.parametrize("role", ROLES)
def test_people_actions_through_the_api(world, role, action):
    client = APIClient()
    if world.users[role] is not None:
        client.force_login(world.users[role])
    url, data = _api_call(world, action)
    before = snapshot()
    response = client.post(url, data, format="json")
    if role in ALLOWED[action]:
        assert response.status_code in (200, 204), response.content
        assert snapshot() != before
    else:
        assert response.status_code in (401, 403), response.content
        assert response.json()["error"]["message_da"]
        assert snapshot() == before


@pytest.mark.parametrize("action", list(ALLOWED))
@pytest.mark.parametrize("role", ROLES)
def test_people_actions_through_the_pages(world, role, action):
    client = Client()
    if world.users[role] is not None:
        client.force_login(world.users[role])
    url, data = _page_call(world, action)
    before = snapshot()
    response = client.post(url, data)
    if role in ALLOWED[action]:
        assert response.status_code == 302 and "login" not in response["Location"]
        assert snapshot() != before
    else:
        if role == "anonymous":
            assert response.status_code == 302 and "login" in response["Location"]
        else:
            assert response.status_code == 403
        assert snapshot() == before


def test_a_person_also_in_another_organisers_event_is_staffs_alone(world):
    """Once C's Kirsten is confirmed as A's, she plays in two organisers' events:
    the owner's season can no longer anonymise her; staff can."""
    person_match_confirm(match=world.match, actor=world.users["staff"])
    assert not may_manage_person(world.users["owner"], world.kirsten)
    assert not may_manage_person(world.users["other"], world.kirsten)
    owner = APIClient()
    owner.force_login(world.users["owner"])
    url, _data = _api_call(world, "anonymise")
    before = snapshot()
    refused = owner.post(url)
    assert refused.status_code == 403 and snapshot() == before
    page = Client()
    page.force_login(world.users["owner"])
    url, _data = _page_call(world, "anonymise")
    assert page.post(url).status_code == 302 and snapshot() == before
    listing = page.get(f"/organise/seasons/{world.season.slug}/people/").content.decode()
    assert f"/people/{world.kirsten.pk}/anonymise/" not in listing
    assert "the federation&#x27;s staff only" in listing or "kun forbundets" in listing
    staff = APIClient()
    staff.force_login(world.users["staff"])
    assert staff.post(_api_call(world, "anonymise")[0]).status_code == 204
    world.kirsten.refresh_from_db()
    assert world.kirsten.anonymised_at is not None


def test_the_matches_page_and_api_show_each_organiser_their_own(world):
    staff, owner, other, plain = (APIClient() for _ in range(4))
    for client, role in ((staff, "staff"), (owner, "owner"), (other, "other"), (plain, "plain")):
        client.force_login(world.users[role])
    seen = {role: c.get("/api/people/matches/").json()["open"] for role, c in (
        ("staff", staff), ("owner", owner), ("other", other), ("plain", plain)
    )}  # fmt: skip
    assert [m["may_confirm"] for m in seen["staff"]] == [True]
    assert [(m["may_confirm"], m["may_dismiss"]) for m in seen["owner"]] == [(False, True)]
    assert [(m["may_confirm"], m["may_dismiss"]) for m in seen["other"]] == [(False, True)]
    assert seen["plain"] == []
    assert APIClient().get("/api/people/matches/").status_code in (401, 403)
    page = Client()
    page.force_login(world.users["staff"])
    html = page.get("/organise/people/matches/").content.decode()
    assert f"/organise/people/matches/{world.match.pk}/confirm/" in html
    assert page.post(f"/organise/people/matches/{world.match.pk}/confirm/").status_code == 302
    world.match.refresh_from_db()
    assert world.match.status == PersonMatch.Status.CONFIRMED
    html = page.get("/organise/people/matches/").content.decode()
    assert f"/organise/people/matches/{world.match.pk}/undo/" in html
    assert page.post(f"/organise/people/matches/{world.match.pk}/undo/").status_code == 302
    world.match.refresh_from_db()
    new = Person.objects.get(pk=world.match.new_id)
    assert world.match.status == PersonMatch.Status.OPEN and new.merged_into is None


def test_a_dismissed_match_is_never_suggested_again(world):
    other = APIClient()
    other.force_login(world.users["other"])
    assert other.post(f"/api/people/matches/{world.match.pk}/dismiss/").json()["status"] == (
        "dismissed"
    )
    again = other.post(f"/api/people/matches/{world.match.pk}/dismiss/")
    assert again.status_code == 409
    assert other.get("/api/people/matches/").json()["open"] == []


def test_the_kirsten_pedersen_attack_is_refused_and_changes_nothing(world):
    """Any account creates an event, registers the owner's Kirsten by name and
    club, makes a season of it, and tries to anonymise or merge her."""
    attacker = APIClient()
    attacker.force_login(UserFactory(username="mallory"))
    before = snapshot()
    created = attacker.post(
        "/api/tournaments/", {"name": "Fælden", "date": "2026-06-01"}, format="json"
    )
    assert created.status_code == 201
    slug = created.json()["slug"]
    registered = attacker.post(
        f"/api/tournaments/{slug}/pairs/",
        {"player_1": "Kirsten Pedersen", "player_2": "Mallory Mal", "club": KB},
        format="json",
    )
    assert registered.status_code == 201
    decoy = Player.objects.get(tournament__slug=slug, name="Kirsten Pedersen").person
    assert decoy is not None and decoy != world.kirsten
    assert PersonMatch.objects.filter(new=decoy, known=world.kirsten, status="open").exists()
    season = attacker.post("/api/seasons/", {"name": "Fældens sæson"}, format="json")
    assert season.status_code == 201
    people = f"/api/seasons/{season.json()['slug']}/people"
    added = attacker.post(f"/api/seasons/{season.json()['slug']}/events/", {"tournament": slug})
    assert added.status_code == 201
    # The owner's events cannot be claimed into the attacker's season either.
    owners_event = Tournament.objects.get(name="Kval A").slug
    claimed = attacker.post(
        f"/api/seasons/{season.json()['slug']}/events/", {"tournament": owners_event}
    )
    assert claimed.status_code == 403
    assert attacker.post(f"{people}/{world.kirsten.pk}/anonymise/").status_code == 404
    merged = attacker.post(
        f"{people}/merge/", {"survivor": decoy.pk, "duplicate": world.kirsten.pk}, format="json"
    )
    assert merged.status_code == 404
    match = PersonMatch.objects.get(new=decoy)
    assert attacker.post(f"/api/people/matches/{match.pk}/confirm/").status_code == 403
    assert attacker.post(f"/organise/people/matches/{match.pk}/confirm/").status_code == 403
    # The owner's people, players and merges are exactly as they were.
    persons, players, _matches, audits = before
    after_persons, after_players, _after_matches, after_audits = snapshot()
    assert [p for p in after_persons if p[0] in {q[0] for q in persons}] == persons
    assert [p for p in after_players if p[0] in {q[0] for q in players}] == players
    assert after_audits == audits
    world.kirsten.refresh_from_db()
    assert world.kirsten.name == "Kirsten Pedersen" and world.kirsten.anonymised_at is None


def test_a_strangers_sign_up_naming_a_known_person_makes_a_suggestion_not_a_link(world):
    event = _event(world.users["other"], "Andens næste turnering", [])
    event.signup_closes_at = timezone.now() + datetime.timedelta(days=2)
    event.save()
    signup = sign_up(event, player_1="Kirsten Pedersen", player_2="Ny Makker", club=KB)
    assert signup.person_1 is not None and signup.person_1 != world.kirsten
    assert PersonMatch.objects.filter(new=signup.person_1, known=world.kirsten).exists()
    world.kirsten.refresh_from_db()
    assert not world.kirsten.publish_consent  # the stranger's form gives her nothing


def test_a_likely_duplicate_kept_apart_is_not_suggested_again(world):
    def spelt_apart():
        return [
            s
            for s in series_people(series=world.season).suggestions
            if {s.first.pk, s.second.pk} == {world.soeren.pk, world.soeren_typo.pk}
        ]

    assert spelt_apart()
    page = Client()
    page.force_login(world.users["owner"])
    html = page.get(f"/organise/seasons/{world.season.slug}/people/").content.decode()
    assert f"/organise/seasons/{world.season.slug}/people/apart/" in html
    url, data = _page_call(world, "apart")
    assert page.post(url, data).status_code == 302
    assert not spelt_apart()
