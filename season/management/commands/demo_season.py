"""Create the demo season: two qualifiers played, a third open for sign-up.

``make run`` calls this with ``--if-empty`` after ``demo_tournament``: only
beside a demo tournament just made, never in a database in real use. It
touches no account. Like
that demo, everything goes through the services: tournaments, pairs, rounds,
results (typed, a seeded random winner per game), online sign-ups.
"""

from __future__ import annotations

import datetime
import random
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction
from django.utils import timezone

from competition.management.commands.demo_tournament import DEMO_SLUG, PAIRS
from competition.services.knockout import knockout_advance, knockout_create
from competition.services.pairing import round_close, round_pair, round_publish, round_start
from games.services.results import game_result_record
from season.models import Series
from season.services.series import series_create, series_event_add
from signup.models import SignUp
from signup.services.consent import person_consent_record, signup_consent_answer
from signup.services.consent_links import consent_token
from signup.services.signups import signup_submit
from tournament.models import Round, Tournament
from tournament.services.registration import pair_register, tournament_create

SEASON_SLUG = "dm-saesonen-2026"
QUALIFIERS = [
    ("Kvalifikation Nord 2026", "Aalborg", 8, PAIRS[0:8]),
    # "Soeren" is how Søren Poulsen wrote his name this time: a duplicate to merge.
    (
        "Kvalifikation Syd 2026",
        "Kolding",
        8,
        [*PAIRS[4:8], *PAIRS[12:15], ("Anne Larsen", "Soeren Poulsen", "Aarhus Partners", "")],
    ),
]
OPEN_QUALIFIER = ("Kvalifikation Øst 2026", "Roskilde", 12)
SIGN_UPS = [
    *PAIRS[16:24],
    *PAIRS[8:12],
    ("Line Bech", "Ole Bech", "Roskilde Partners", "Bech & Bech"),
]


class Command(BaseCommand):
    help = "Create the demo season: two qualifiers played, a third open for online sign-up."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--if-empty",
            action="store_true",
            help="Do nothing if a season exists or the database holds other tournaments.",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["if_empty"] and (
            Series.objects.exists()
            or Tournament.objects.exclude(slug=DEMO_SLUG).exists()
            or not Tournament.objects.filter(slug=DEMO_SLUG).exists()
        ):
            self.stdout.write(
                "A season or other tournaments exist already, or no demo tournament; "
                "demo season not created."
            )
            return
        if Series.objects.filter(slug=SEASON_SLUG).exists():
            self.stdout.write(f"The demo season exists already ({SEASON_SLUG}).")
            return
        organiser = get_user_model().objects.filter(username="organiser").first()
        if organiser is None:
            raise CommandError("Run demo_tournament first: it creates the organiser login.")
        with transaction.atomic():
            series = self._season(organiser)
        self.stdout.write(
            self.style.SUCCESS(
                f"Demo season “{series.name}”: /seasons/{series.slug}/ "
                f"(organiser page /organise/seasons/{series.slug}/)"
            )
        )

    def _season(self, organiser: Any) -> Series:
        series = series_create(
            actor=organiser,
            name="DM-sæsonen 2026",
            slug=SEASON_SLUG,
            description="To regionale kvalifikationer og en tredje med online tilmelding; "
            "de fire bedste par fra hver går videre til DM-finalen.",
            qualifiers_per_event=4,
        )
        today = timezone.localdate()
        for weeks_ago, (name, venue, size, pairs) in zip((6, 3), QUALIFIERS, strict=True):
            event = self._played(
                organiser, name, venue, today - datetime.timedelta(weeks=weeks_ago), size, pairs
            )
            series_event_add(series=series, actor=organiser, tournament=event)
        series_event_add(series=series, actor=organiser, tournament=self._open(organiser, today))
        return series

    def _played(
        self,
        organiser: Any,
        name: str,
        venue: str,
        date: datetime.date,
        size: int,
        pairs: list[Any],
    ) -> Tournament:
        tournament = tournament_create(
            actor=organiser,
            name=name,
            date=date,
            venue=venue,
            swiss_rounds=3,
            knockout_size=4,
            third_place_game=True,
            published=True,
        )
        for player_1, player_2, club, pair_name in pairs[:size]:
            pair_register(
                tournament=tournament,
                actor=organiser,
                player_1=player_1,
                player_2=player_2,
                club=club,
                name=pair_name,
                check_in=True,
            )
        rng = random.Random(name)
        for number in range(1, tournament.swiss_rounds + 1):
            self._play(
                round_pair(tournament=tournament, actor=organiser, random_seed=number),
                organiser,
                rng,
            )
        round_: Round | None = knockout_create(tournament=tournament, actor=organiser)
        while round_ is not None:
            self._play(round_, organiser, rng)
            round_ = knockout_advance(tournament=tournament, actor=organiser)
        return tournament

    @staticmethod
    def _play(round_: Round, organiser: Any, rng: random.Random) -> None:
        round_publish(round=round_, actor=organiser)
        round_start(round=round_, actor=organiser)
        for game in round_.games.order_by("table_number"):
            game_result_record(
                game=game,
                actor=organiser,
                winner=rng.choice(("YB", "RG")),
                source="typed",
                note="Demo",
            )
        round_close(round=round_, actor=organiser)

    @staticmethod
    def _open(organiser: Any, today: datetime.date) -> Tournament:
        name, venue, capacity = OPEN_QUALIFIER
        tournament = tournament_create(
            actor=organiser,
            name=name,
            date=today + datetime.timedelta(weeks=3),
            venue=venue,
            swiss_rounds=3,
            knockout_size=4,
            third_place_game=True,
            signup_capacity=capacity,
            signup_closes_at=timezone.now() + datetime.timedelta(weeks=2),
            published=True,
        )
        signups = []
        for number, (player_1, player_2, club, pair_name) in enumerate(SIGN_UPS, start=1):
            signup = signup_submit(
                tournament=tournament,
                client_id=f"demo-{number}",
                player_1=player_1,
                player_2=player_2,
                club=club,
                pair_name=pair_name,
                consent=True,
                email=f"par{number}@example.dk",
            )
            signups.append(signup)
        Command._consents(organiser, signups)
        return tournament

    @staticmethod
    def _consents(organiser: Any, signups: list[SignUp]) -> None:
        """Consent as real players give it: the last pair opens its emailed link; the
        organiser records the paper forms of the others' players (known from the demo
        tournament, so their sign-up's address cannot speak for them). The players of
        the played qualifiers who signed up for nothing stay private."""
        *forms, emailed = signups
        signup_consent_answer(token=consent_token(signup=emailed), confirm=True)
        for signup in forms:
            for person in (signup.person_1, signup.person_2):
                if person is None:
                    continue
                person.refresh_from_db()
                if not person.publish_consent:
                    person_consent_record(
                        person=person,
                        actor=organiser,
                        given=True,
                        reason="Demo: consent form signed at the club",
                    )
