"""The REST API: reads, writes, errors, and who may write."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from competition.services.knockout import knockout_create
from competition.services.pairing import round_pair, round_publish, round_start
from games.models import Game
from tests.competition.helpers import play
from tests.factories import PairFactory, TournamentFactory, UserFactory, judge_of, organiser_of
from tournament.models import AuditEntry, Pair, Round, Tournament, TournamentRole

pytestmark = pytest.mark.django_db


class Event:
    def __init__(self) -> None:
        self.tournament = TournamentFactory(knockout_size=4, swiss_rounds=3)
        self.organiser = organiser_of(self.tournament)
        self.judge = judge_of(self.tournament)
        self.pairs = [
            PairFactory(tournament=self.tournament, start_number=k + 1, seed=k + 1)
            for k in range(4)
        ]

    @property
    def slug(self) -> str:
        return self.tournament.slug

    def draft(self) -> Round:
        return round_pair(tournament=self.tournament, actor=self.organiser)

    def published(self) -> Round:
        round_ = self.draft()
        return round_publish(round=round_, actor=self.organiser)

    def started(self) -> Round:
        round_ = self.published()
        return round_start(round=round_, actor=self.organiser)


def _swap(e: Event):
    round_ = e.draft()
    g1, g2 = list(round_.games.all())
    return "post", f"/api/rounds/{round_.pk}/swap/", {
        "pair_a": g1.pair_yb_id, "pair_b": g2.pair_yb_id, "allow_rematch": True,
    }  # fmt: skip


def _close(e: Event):
    round_ = play(e.started(), e.organiser)
    return "post", f"/api/rounds/{round_.pk}/close/", {}


def _result_clear(e: Event):
    game = play(e.started(), e.organiser).games.first()
    return "post", f"/api/games/{game.pk}/result/clear/", {"reason": "wrong table"}


def _knockout_only(e: Event) -> None:
    """The event is a knockout by seeds (no Swiss rounds), so the cut is due at once."""
    Tournament.objects.filter(pk=e.tournament.pk).update(swiss_rounds=0)
    e.tournament.refresh_from_db()


def _knockout_create(e: Event):
    _knockout_only(e)
    return "post", f"/api/tournaments/{e.slug}/knockout/", {"source": "seeds"}


def _advance(e: Event):
    _knockout_only(e)
    play(knockout_create(tournament=e.tournament, actor=e.organiser, source="seeds"), e.organiser)
    return "post", f"/api/tournaments/{e.slug}/knockout/advance/", {}


def _revoke(e: Event):
    helper = UserFactory(username="helper")
    TournamentRole.objects.create(tournament=e.tournament, user=helper, role="judge")
    return (
        "post",
        f"/api/tournaments/{e.slug}/roles/revoke/",
        {"username": "helper", "role": "judge"},
    )


def _registered_pair(e: Event) -> Pair:
    Pair.objects.filter(pk=e.pairs[0].pk).update(status=Pair.Status.REGISTERED)
    return e.pairs[0]


WRITES = {
    "tournament_update": (
        lambda e: ("patch", f"/api/tournaments/{e.slug}/", {"venue": "Vejle"}),
        200,
    ),
    "pair_register": (
        lambda e: ("post", f"/api/tournaments/{e.slug}/pairs/", {"player_1": "A", "player_2": "B"}),
        201,
    ),
    "pairs_import": (
        lambda e: (
            "post",
            f"/api/tournaments/{e.slug}/pairs/import/",
            {"csv_text": "player_1;player_2\nA;B\n"},
        ),
        201,
    ),
    "pair_update": (lambda e: ("patch", f"/api/pairs/{e.pairs[0].pk}/", {"club": "Vejle"}), 200),
    "pair_check_in": (
        lambda e: ("post", f"/api/pairs/{_registered_pair(e).pk}/check-in/", {}),
        200,
    ),
    "pair_check_out": (lambda e: ("post", f"/api/pairs/{e.pairs[0].pk}/check-out/", {}), 200),
    "pair_drop": (lambda e: ("post", f"/api/pairs/{e.pairs[0].pk}/drop/", {}), 200),
    "pair_fixed_table": (
        lambda e: ("post", f"/api/pairs/{e.pairs[0].pk}/fixed-table/", {"table_number": 5}),
        200,
    ),
    "round_pair": (lambda e: ("post", f"/api/tournaments/{e.slug}/rounds/pair/", {}), 201),
    "round_publish": (lambda e: ("post", f"/api/rounds/{e.draft().pk}/publish/", {}), 200),
    "round_repair": (lambda e: ("post", f"/api/rounds/{e.published().pk}/repair/", {}), 200),
    "round_swap": (_swap, 200),
    "round_start": (lambda e: ("post", f"/api/rounds/{e.published().pk}/start/", {}), 200),
    "round_close": (_close, 200),
    "game_result": (
        lambda e: (
            "post",
            f"/api/games/{e.started().games.first().pk}/result/",
            {"winner": "YB", "locked_yb": 8, "locked_rg": 3},
        ),
        200,
    ),
    "game_result_clear": (_result_clear, 200),
    "knockout_create": (_knockout_create, 201),
    "knockout_advance": (_advance, 201),
    "role_grant": (
        lambda e: (
            "post",
            f"/api/tournaments/{e.slug}/roles/",
            {"username": UserFactory(username="newjudge").username, "role": "judge"},
        ),
        204,
    ),
    "role_revoke": (_revoke, 204),
}


def client_for(who: str, event: Event) -> APIClient:
    client = APIClient()
    user = {
        "anonymous": None,
        "judge": event.judge,
        "other_organiser": lambda: organiser_of(TournamentFactory(), "other-org"),
        "organiser": event.organiser,
    }[who]
    if callable(user):
        user = user()
    if user is not None:
        client.force_login(user)
    return client


def snapshot(event: Event):
    t = event.tournament
    return (
        AuditEntry.objects.filter(tournament=t).count(),
        list(Tournament.objects.filter(pk=t.pk).values()),
        list(Pair.objects.filter(tournament=t).order_by("pk").values()),
        list(Round.objects.filter(tournament=t).order_by("pk").values()),
        list(Game.objects.filter(round__tournament=t).order_by("pk").values()),
        list(TournamentRole.objects.filter(tournament=t).order_by("pk").values()),
    )


@pytest.mark.parametrize("who", ["anonymous", "judge", "other_organiser"])
@pytest.mark.parametrize("endpoint", sorted(WRITES))
def test_writes_are_refused_for_everyone_but_this_organiser(endpoint, who):
    event = Event()
    method, url, body = WRITES[endpoint][0](event)
    before = snapshot(event)
    response = getattr(client_for(who, event), method)(url, body, format="json")
    # A draft round is invisible to non-organisers (404); everything else 403.
    assert response.status_code in (403, 404), response.content
    if response.status_code == 403:
        error = response.json()["error"]
        assert error["code"] == "permission_denied"
        assert error["message_da"] and error["message_en"]
    assert snapshot(event) == before


@pytest.mark.parametrize("endpoint", sorted(WRITES))
def test_writes_are_allowed_for_this_organiser(endpoint):
    event = Event()
    method, url, body = WRITES[endpoint][0](event)
    audits = AuditEntry.objects.filter(tournament=event.tournament).count()
    response = getattr(client_for("organiser", event), method)(url, body, format="json")
    assert response.status_code == WRITES[endpoint][1], response.content
    assert AuditEntry.objects.filter(tournament=event.tournament).count() > audits


def test_create_tournament_needs_a_signed_in_user():
    anonymous = APIClient().post(
        "/api/tournaments/", {"name": "Cup", "date": "2026-11-28"}, format="json"
    )
    assert anonymous.status_code == 403
    client = APIClient()
    user = UserFactory()
    client.force_login(user)
    response = client.post(
        "/api/tournaments/", {"name": "Cup", "date": "2026-11-28", "swiss_rounds": 6}, format="json"
    )
    assert response.status_code == 201 and response.json()["swiss_rounds"] == 6
    assert TournamentRole.objects.filter(user=user, role="organiser").count() == 1


def test_csrf_is_enforced_for_session_users():
    event = Event()
    client = APIClient(enforce_csrf_checks=True)
    client.force_login(event.organiser)
    response = client.patch(f"/api/tournaments/{event.slug}/", {"venue": "X"}, format="json")
    assert response.status_code == 403
    event.tournament.refresh_from_db()
    assert event.tournament.venue == "Odense"


def test_errors_are_bilingual_and_danish_by_default():
    event = Event()
    client = client_for("organiser", event)
    response = client.patch(f"/api/tournaments/{event.slug}/", {"alert_minutes": 70}, format="json")
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "alert_not_before_limit"
    assert error["message"] == error["message_da"] == "Dommeralarmen skal komme før tidsgrænsen."
    client.cookies["django_language"] = "en"  # the language switch's choice
    english = client.patch(f"/api/tournaments/{event.slug}/", {"alert_minutes": 70}, format="json")
    assert english.json()["error"]["message"] == "The judge alert must come before the time limit."


def test_bad_csv_answers_the_row_report_and_imports_nothing():
    event = Event()
    response = client_for("organiser", event).post(
        f"/api/tournaments/{event.slug}/pairs/import/",
        {"csv_text": "player_1,player_2\nA,B\n,C\n"},
        format="json",
    )
    assert response.status_code == 400
    assert response.json()["created"] == []
    assert [e["line"] for e in response.json()["errors"]] == [3]
    assert Pair.objects.filter(tournament=event.tournament).count() == 4


def test_public_reads_hide_drafts_and_unpublished_tournaments():
    event = Event()
    draft = event.draft()
    anonymous = APIClient()
    assert anonymous.get(f"/api/tournaments/{event.slug}/rounds/").json() == []
    assert anonymous.get(f"/api/rounds/{draft.pk}/").status_code == 404
    # The event's judges see its drafts as its organisers do (tournament.permissions).
    assert client_for("judge", event).get(f"/api/rounds/{draft.pk}/").status_code == 200
    assert client_for("other_organiser", event).get(f"/api/rounds/{draft.pk}/").status_code == 404
    organiser_view = client_for("organiser", event).get(f"/api/rounds/{draft.pk}/")
    assert organiser_view.status_code == 200 and len(organiser_view.json()["games"]) == 2
    round_publish(round=draft, actor=event.organiser)
    games = anonymous.get(f"/api/rounds/{draft.pk}/games/").json()
    assert len(games) == 2 and "token_hash" not in games[0] and "short_code" not in games[0]
    Tournament.objects.filter(pk=event.tournament.pk).update(published=False)
    assert anonymous.get(f"/api/tournaments/{event.slug}/").status_code == 404
    assert client_for("judge", event).get(f"/api/tournaments/{event.slug}/").status_code == 200


def test_standings_bracket_and_history_reads():
    event = Event()
    round_ = play(event.started(), event.organiser)
    client = APIClient()
    rows = client.get(f"/api/tournaments/{event.slug}/standings/").json()
    assert [r["points"] for r in rows] == [2, 2, 0, 0]
    assert rows[0]["pair"]["start_number"] in (1, 2)
    after = client.get(f"/api/tournaments/{event.slug}/standings/?round=0").json()
    assert all(r["points"] == 0 for r in after)
    assert client.get(f"/api/tournaments/{event.slug}/standings/?round=x").status_code == 400
    history = client.get(f"/api/pairs/{event.pairs[0].pk}/history/").json()
    assert history[0]["round"] == round_.pk and history[0]["result"] == "win"
    assert client.get(f"/api/tournaments/{event.slug}/bracket/").json() == []


def test_swap_with_a_pair_of_another_tournament_is_refused():
    event = Event()
    round_ = event.draft()
    stranger = PairFactory()
    response = client_for("organiser", event).post(
        f"/api/rounds/{round_.pk}/swap/",
        {"pair_a": round_.games.first().pair_yb_id, "pair_b": stranger.pk},
        format="json",
    )
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "pair_not_in_tournament"


def test_schema_and_docs_are_served():
    assert APIClient().get("/api/schema/").status_code == 200
    assert APIClient().get("/api/docs/").status_code == 200
