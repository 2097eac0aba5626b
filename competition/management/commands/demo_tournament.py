"""Create the demo: two logins and a DM tournament in the middle of round 4.

``make run`` and ``make venue`` call this with ``--if-empty``: the demo is
made only in an empty database (no tournament and no account), and an
account that exists is never touched, so a password changed after the first
start survives every restart. ``--ruleset rulebook`` (or
``fr``, or ``duo``: a singles event of the same players) makes a demo of the
same event on that ruleset, beside the dm2023 one. Everything goes through
the services, exactly as the organiser's pages would; results of the played
rounds come from the rules engine's self-play, so winners, locked pawns and
remaining distances are those of real (random but legal) games. About one
game in five is stopped at the time limit and adjudicated by the engine.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandParser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import get_language

from accounts.demo import DEMO_PASSWORDS
from competition import selectors
from competition.services.pairing import round_close, round_pair, round_publish, round_start
from games.engine import (
    DM2023,
    VARIANTS,
    adjudicate,
    find_variant,
    get_ruleset,
    replay,
    selfplay_game,
)
from games.models import Game
from games.services.move_log import demo_fill_logs
from games.services.results import game_result_record
from tournament.models import Tournament, TournamentRole
from tournament.services.registration import (
    pair_register,
    tournament_create,
    tournament_role_grant,
)

DEMO_SLUG = "dm-i-partners-2026-demo"
DEMO_NAME = "DM i Partners 2026 (demo)"
LOGINS = DEMO_PASSWORDS
PLAYED_ROUNDS = 3
TIMED_OUT_EVERY = 5

# Plausible Danish players and clubs (invented people).
PAIRS = [
    ("Mette Hansen", "Jens Nielsen", "Partnersklubben Odense", "Fynske Fløjter"),
    ("Anne Larsen", "Søren Poulsen", "Aarhus Partners", ""),
    ("Kirsten Pedersen", "Lars Andersen", "København Brætspil", "Kongens Kort"),
    ("Hanne Jensen", "Peter Christensen", "Aalborg Partnersforening", ""),
    ("Lene Sørensen", "Michael Rasmussen", "Esbjerg Spilleklub", "Vestkysten"),
    ("Susanne Jørgensen", "Henrik Petersen", "Partnersklubben Odense", ""),
    ("Pia Madsen", "Thomas Kristensen", "Vejle Brætspilsforening", "Syv-splitterne"),
    ("Bente Olsen", "Niels Thomsen", "Aarhus Partners", ""),
    ("Camilla Christiansen", "Martin Poulsen", "Roskilde Partners", ""),
    ("Louise Johansen", "Morten Møller", "København Brætspil", "Hjerterfri"),
    ("Tina Mortensen", "Jesper Mortensen", "Herning Hyggespil", ""),
    ("Marianne Knudsen", "Rasmus Jakobsen", "Randers Partnersklub", ""),
    ("Karina Mikkelsen", "Anders Olsen", "Esbjerg Spilleklub", ""),
    ("Dorthe Frederiksen", "Christian Laursen", "Aalborg Partnersforening", "Nordlys"),
    ("Helle Henriksen", "Jan Lund", "Kolding Kortklub", ""),
    ("Maria Schmidt", "Ole Eriksen", "Vejle Brætspilsforening", ""),
    ("Charlotte Holm", "Kim Simonsen", "Roskilde Partners", ""),
    ("Inge Clausen", "Jørgen Svendsen", "Herning Hyggespil", "Femmerne"),
    ("Julie Andreasen", "Mads Iversen", "Horsens Hjemmehold", ""),
    ("Rikke Østergaard", "Frederik Jeppesen", "Randers Partnersklub", ""),
    ("Sofie Vestergaard", "Kasper Mogensen", "Kolding Kortklub", ""),
    ("Ida Nissen", "Emil Lauridsen", "Horsens Hjemmehold", "Knallerterne"),
    ("Birgitte Kjær", "Brian Dam", "Næstved Partners", ""),
    ("Gitte Bak", "Allan Winther", "Næstved Partners", ""),
]
SEEDED = 8
DEMO_RULESET = "dm2023"


def demo_slug(ruleset: str) -> str:
    """The demo event's slug: the dm2023 demo keeps its own, the others add the ruleset."""
    return DEMO_SLUG if ruleset == DEMO_RULESET else f"{DEMO_SLUG}-{ruleset}"


class Command(BaseCommand):
    help = "Create the demo logins and a DM tournament with three rounds played."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--if-empty",
            action="store_true",
            help="Do nothing if any tournament or any account exists.",
        )
        parser.add_argument(
            "--reset", action="store_true", help="Delete the demo tournament and make it again."
        )
        parser.add_argument(
            "--ruleset",
            default=DM2023.name,
            choices=list(VARIANTS),
            help="The ruleset of the demo event (its own slug when not dm2023).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        self.ruleset = options["ruleset"]
        slug = demo_slug(self.ruleset)
        if options["reset"]:
            Tournament.objects.filter(slug=slug).delete()
        elif options["if_empty"] and (
            Tournament.objects.exists() or get_user_model().objects.exists()
        ):
            self.stdout.write("Tournaments or accounts exist already; demo not created.")
            return
        elif Tournament.objects.filter(slug=slug).exists():
            self.stdout.write(f"The demo tournament exists already ({slug}); use --reset.")
            return
        with transaction.atomic():
            users = self._users()
            tournament = self._tournament(users["organiser"], users["judge"])
        # Move logs from the engine's self-play: whole games for the played
        # rounds, the first moves for the round in progress.
        logged = demo_fill_logs(tournament=tournament, seed=2026)
        self.stdout.write(f"Move logs stored for {logged} games.")
        self.stdout.write(
            self.style.SUCCESS(
                f"Demo tournament “{tournament.name}”: /tournaments/{tournament.slug}/ "
                f"(organiser page /organise/{tournament.slug}/)"
            )
        )

    def _users(self) -> dict[str, Any]:
        """The demo's two logins: made with the published passwords when missing;
        an existing account is used as it is (its password, its state)."""
        user_model = get_user_model()
        users = {}
        for username, password in LOGINS.items():
            user = user_model.objects.filter(username=username).first()
            if user is None:
                user = user_model.objects.create_user(username=username, password=password)
            users[username] = user
        return users

    def _tournament(self, organiser: Any, judge: Any) -> Tournament:
        label = find_variant(self.ruleset).label(get_language() or settings.LANGUAGE_CODE)
        tournament = tournament_create(
            actor=organiser,
            name=DEMO_NAME if self.ruleset == DEMO_RULESET else f"{DEMO_NAME} – {label}",
            slug=demo_slug(self.ruleset),
            ruleset=self.ruleset,
            date=timezone.localdate(),
            venue="Odense Congress Center",
            swiss_rounds=5,
            knockout_size=8,
            third_place_game=True,
            published=True,
        )
        tournament_role_grant(
            tournament=tournament, actor=organiser, user=judge, role=TournamentRole.Role.JUDGE
        )
        if tournament.is_singles:
            # A singles event (DUO): each of the demo's players is an entrant.
            entrants = [
                (player, "", club, "")
                for player_1, player_2, club, _name in PAIRS
                for player in (player_1, player_2)
            ]
        else:
            entrants = list(PAIRS)
        for number, (player_1, player_2, club, name) in enumerate(entrants, start=1):
            pair_register(
                tournament=tournament,
                actor=organiser,
                player_1=player_1,
                player_2=player_2,
                club=club,
                name=name,
                seed=number if number <= SEEDED else None,
                check_in=True,
            )
        for number in range(1, PLAYED_ROUNDS + 2):
            round_ = round_pair(
                tournament=tournament, actor=organiser, random_seed=2026_00 + number
            )
            round_publish(round=round_, actor=organiser)
            round_start(round=round_, actor=organiser)
            if number > PLAYED_ROUNDS:
                break  # the current round: in progress, no results yet
            for game in selectors.pairings_for_round(round=round_):
                self._play(game, organiser)
            round_close(round=round_, actor=organiser)
        tournament.refresh_from_db()
        return tournament

    def _play(self, game: Game, organiser: Any) -> None:
        """Record the result of a self-played game at this table."""
        seed = game.round.number * 1000 + game.table_number
        ruleset = get_ruleset(self.ruleset)
        record = selfplay_game(seed, ruleset, first_dealer=game.first_dealer)
        timed_out = game.table_number % TIMED_OUT_EVERY == game.round.number % TIMED_OUT_EVERY
        if timed_out:
            # Stopped at the time limit: two thirds of the way through.
            record = {**record, "moves": record["moves"][: len(record["moves"]) * 2 // 3]}
        verdict = adjudicate(replay(record).position, ruleset)
        teams = verdict["teams"]
        # A dead heat on distance (very rare) goes to the pair with more locked pawns.
        winner = verdict["winner"] or (
            "YB" if teams["YB"]["locked"] >= teams["RG"]["locked"] else "RG"
        )
        game_result_record(
            game=game,
            actor=organiser,
            winner=winner,
            locked_yb=teams["YB"]["locked"],
            locked_rg=teams["RG"]["locked"],
            distance_yb=teams["YB"]["distance"],
            distance_rg=teams["RG"]["distance"],
            timed_out=timed_out,
            source="typed",
            note="Demo: engine self-play" + (", adjudicated on time" if timed_out else ""),
            override_reason="" if verdict["winner"] else "Demo: level on distance, more locked",
        )
