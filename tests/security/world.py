"""The data the permission matrix runs against: two tournaments and every role.

``main`` is published and has a closed round 1 and round 2 in progress
(two tables, a running clock, an open judge call, an alert, a finished print
job). ``other`` has its own organiser, judge and table. Tokens: the open
game's, the closed game's, and a forged one that opens nothing.
"""

from __future__ import annotations

import datetime
import secrets
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.tokens import default_token_generator
from django.core.files.base import ContentFile
from django.test import Client
from django.utils import timezone
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from accounts.services import invitation_create
from games.engine import selfplay_game
from games.models import Game, GameClock
from games.services import move_log
from games.services.tokens import game_token
from judging.models import Alert, JudgeCall
from judging.services.rulings import ruling_warning
from people.models import Person, PersonAudit, PersonMatch
from people.services import persons_for_names
from printing.models import PrintJob
from season.models import Series, SeriesEvent, SeriesRole
from signup.models import SignUp, SignUpEmail
from signup.services.consent_links import consent_token
from signup.services.links import new_nonce, signup_token
from tests.factories import (
    GameFactory,
    PairFactory,
    RoundFactory,
    TournamentFactory,
    UserFactory,
    judge_of,
    organiser_of,
)
from tournament.models import Round, Tournament, TournamentRole

CSRF = "s" * 32

# Who asks. Table-token roles are anonymous browsers holding a table link.
ROLES = (
    "anon",
    "token",
    "token_closed",
    "judge",
    "judge_other",
    "organiser",
    "organiser_other",
    "staff",
)
TOKEN_ROLES = {"anon", "token", "token_closed"}


@dataclass
class World:
    objects: dict[str, Any] = field(default_factory=dict)
    users: dict[str, Any] = field(default_factory=dict)
    tokens: dict[str, str] = field(default_factory=dict)

    def __getattr__(self, name: str) -> Any:
        try:
            return self.objects[name]
        except KeyError as error:
            raise AttributeError(name) from error

    def client(self, role: str, *, csrf: bool = True) -> Client:
        client = Client(enforce_csrf_checks=True)
        if role in self.users:
            client.force_login(self.users[role])
        if csrf:
            client.cookies["csrftoken"] = CSRF
        return client

    def token_for(self, role: str) -> str:
        """The token a role puts in a table URL: its own, or a forged one."""
        return self.tokens.get(role, self.tokens["forged"])


def build_world(media_root: Any) -> World:
    world = World()
    main = TournamentFactory(slug="sec-main", published=True)
    other = TournamentFactory(slug="sec-other", published=True)
    users = {
        "organiser": organiser_of(main, "sec-org"),
        "judge": judge_of(main, "sec-judge"),
        "organiser_other": organiser_of(other, "sec-org2"),
        "judge_other": judge_of(other, "sec-judge2"),
        "staff": UserFactory(username="sec-staff", is_staff=True),
    }
    pairs = [PairFactory(tournament=main, start_number=n) for n in range(1, 6)]
    pairs[4].status = "registered"
    pairs[4].save(update_fields=["status"])
    closed = RoundFactory(tournament=main, number=1, status=Round.Status.CLOSED)
    running = RoundFactory(tournament=main, number=2, status=Round.Status.IN_PROGRESS)
    game_closed = GameFactory(
        round=closed,
        table_number=1,
        pair_yb=pairs[0],
        pair_rg=pairs[1],
        winner="YB",
        result_source="typed",
        status=Game.Status.FINISHED,
    )
    game = GameFactory(
        round=running,
        table_number=1,
        pair_yb=pairs[0],
        pair_rg=pairs[2],
        status=Game.Status.IN_PROGRESS,
    )
    game_b = GameFactory(round=running, table_number=2, pair_yb=pairs[1], pair_rg=pairs[3])
    now = timezone.now()
    GameClock.objects.create(game=game, started_at=now - datetime.timedelta(minutes=5))
    other_round = RoundFactory(tournament=other, number=1, status=Round.Status.IN_PROGRESS)
    game_other = GameFactory(round=other_round, table_number=1)
    alert = Alert.objects.create(
        tournament=main,
        game=game,
        kind=Alert.Kind.ALERT_MARK,
        due_at=now,
        raised_at=now,
        mark_minute=50,
    )
    call = JudgeCall.objects.create(tournament=main, game=game, client_id="sec-call")
    job = PrintJob.objects.create(
        tournament=main,
        round=running,
        kind=PrintJob.Kind.SCORE_SHEETS_A4,
        status=PrintJob.Status.DONE,
        total=2,
        progress=2,
        finished_at=now,
    )
    job.file.save("sec-sheets.pdf", ContentFile(b"%PDF-1.4\n%%EOF\n"), save=True)
    for g in (game_closed, game, game_b, game_other):
        game_token(game=g)
    season_objects = _season_and_signups(main, other, pairs, users["organiser"], now)
    # One logged entry, so take-back, review and void-check have something to act on.
    opening = selfplay_game(3, first_dealer=game.first_dealer)["moves"][0]
    move_log.move_submit(game=game, text=opening, client_id="sec-first", expected_seq=0)
    # A ruling, so a judge's undo has something to act on.
    ruling = ruling_warning(game=game, actor=users["judge"], seat="B", reason="Matrix warning.")
    world.users = users
    world.tokens = {
        "token": game_token(game=game),
        "token_closed": game_token(game=game_closed),
        "forged": secrets.token_urlsafe(18),
    }
    world.objects = {
        "main": main,
        "other": other,
        "pairs": pairs,
        "closed": closed,
        "running": running,
        "game": game,
        "game_b": game_b,
        "game_closed": game_closed,
        "game_other": game_other,
        "alert": alert,
        "call": call,
        "ruling": ruling,
        "job": job,
        "judge_role": TournamentRole.objects.get(tournament=main, user=users["judge"]),
        **season_objects,
    }
    world.tokens["signup"] = signup_token(signup=season_objects["signup"])
    _account_links(world)

    world.tokens["consent"] = consent_token(signup=season_objects["signup"])
    return world


def _account_links(world: World) -> None:
    """A waiting invitation to the main event and a password reset link, held by every role."""
    sent = invitation_create(
        tournament=world.main, actor=world.users["organiser"], role=TournamentRole.Role.JUDGE
    )
    world.objects["invitation"] = sent.invitation
    world.tokens["invitation"] = sent.link.rstrip("/").rsplit("/", 1)[1]
    reset_user = world.users["judge_other"]
    world.tokens["reset_uid"] = urlsafe_base64_encode(force_bytes(reset_user.pk))
    world.tokens["reset"] = default_token_generator.make_token(reset_user)


# The only email address in the world: no page or export may show it to anyone
# but the organisers of ``main`` (tests/security/test_personal_data.py).
SIGNUP_EMAIL = "hemmelig-kontakt@example.dk"


def _season_and_signups(main, other, pairs, organiser, now) -> dict[str, Any]:
    """A season with ``main`` as qualifier (organised by main's organiser), the
    players of ``main`` linked to people (one merge to undo), and a sign-up
    awaiting approval on ``main``."""
    Tournament.objects.filter(pk=main.pk).update(
        signup_closes_at=now + datetime.timedelta(days=1), signup_approval=True
    )
    players = [player for pair in pairs for player in (pair.player_1, pair.player_2)]
    persons = persons_for_names([(p.name, p.club) for p in players])
    for player, person in zip(players, persons, strict=True):
        player.person = person
        player.save(update_fields=["person"])
    # One player agreed to be published: their page is public (stats:player).
    Person.objects.filter(pk=persons[1].pk).update(publish_consent=True, consent_at=now)
    series = Series.objects.create(name="Sikkerhedssæson", slug="sec-season")
    SeriesRole.objects.create(series=series, user=organiser)
    event = SeriesEvent.objects.create(series=series, tournament=main)
    duplicate = Person.objects.create(name="Dublet", merged_into=persons[0])
    merge = PersonAudit.objects.create(
        person=persons[0],
        other=duplicate,
        action=PersonAudit.Action.MERGE,
        context=f"season:{series.slug}",
        data={"moved": {}},
    )
    # A registration found a known person (in no event: nobody's) with the
    # name and club of main's third player: a suggestion, not a link.
    known = Person.objects.create(name=persons[2].name, club="Andetsteds")
    match = PersonMatch.objects.create(new=persons[2], known=known, context=f"tournament:{main.pk}")
    signup = SignUp.objects.create(
        tournament=main,
        status=SignUp.Status.PENDING,
        player_1="Tilmeldt Et",
        player_2="Tilmeldt To",
        email=SIGNUP_EMAIL,
        consent_at=now,
        client_id="matrix",
        link_nonce=new_nonce(),
        consent_nonce=new_nonce(),
        # A new person of its own (its organiser's list links their consent page).
        person_1=Person.objects.create(name="Tilmeldt Et"),
    )
    SignUpEmail.objects.create(signup=signup, kind=SignUpEmail.Kind.RECEIVED)
    return {
        "series": series,
        "series_event": event,
        "signup": signup,
        "merge": merge,
        "match": match,
        "person": persons[0],
        "public_person": persons[1],
    }


def fingerprint() -> dict[str, int]:
    """A hash of every row the product owns: a refused write must leave it unchanged.

    Each table's rows as the database returns them (one plain query per
    table, no model instances: the walks take a fingerprint after every
    refused write, and through the ORM it cost 40 times as much). A change
    to any stored value changes them, rows a default manager would hide too.
    """
    from django.apps import apps
    from django.db import connection

    quote = connection.ops.quote_name
    prints: dict[str, int] = {}
    with connection.cursor() as cursor:
        for app in (
            "accounts",
            "tournament",
            "games",
            "judging",
            "printing",
            "people",
            "signup",
            "season",
            "ratings",
        ):
            for model in apps.get_app_config(app).get_models():
                meta = model._meta
                cursor.execute(
                    f"SELECT * FROM {quote(meta.db_table)} ORDER BY {quote(meta.pk.column)}"
                )
                prints[meta.label] = hash(repr(cursor.fetchall()))
        user = get_user_model()._meta
        columns = ", ".join(
            quote(user.get_field(name).column)
            for name in ("id", "is_staff", "is_active", "password")
        )
        cursor.execute(
            f"SELECT {columns} FROM {quote(user.db_table)} ORDER BY {quote(user.pk.column)}"
        )
        prints["auth.User"] = hash(repr(cursor.fetchall()))
    return prints
