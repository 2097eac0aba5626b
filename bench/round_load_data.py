"""The round load harness's data: the tournament it plays, and what the
database holds afterwards compared with what the clients were told.
"""

from __future__ import annotations

import argparse
import statistics
from collections import defaultdict
from typing import Any

from harness import (
    percentile,
)

SLUG = "bench-round"


# --- data ------------------------------------------------------------------------


def setup_data(args: argparse.Namespace) -> dict[str, Any]:
    """Migrate, create the round, start its clocks. Runs in this process (Django)."""
    import datetime

    import django
    from django.core.management import call_command

    django.setup()
    from django.contrib.auth import (
        BACKEND_SESSION_KEY,
        HASH_SESSION_KEY,
        SESSION_KEY,
        get_user_model,
    )
    from django.contrib.sessions.backends.db import SessionStore

    from games.engine import selfplay_game
    from games.models import Game
    from games.services.clock import clock_start_round
    from games.services.tokens import game_token
    from tournament.models import Pair, Player, Round, Tournament, TournamentRole

    call_command("migrate", verbosity=0)
    # 60 clock minutes pass at 85 % of the run: both marks fall inside it.
    speed = 60.0 / (0.85 * args.minutes)
    tournament = Tournament.objects.create(
        name="Bench round",
        slug=SLUG,
        date=datetime.date.today(),
        clock_speed=speed,
        published=True,
    )
    round_ = Round.objects.create(tournament=tournament, number=1, status=Round.Status.PUBLISHED)
    tables = []
    for n in range(args.tables):
        pairs = []
        for k in range(2):
            a = Player.objects.create(tournament=tournament, name=f"P{n}-{k}a")
            b = Player.objects.create(tournament=tournament, name=f"P{n}-{k}b")
            pairs.append(
                Pair.objects.create(
                    tournament=tournament,
                    start_number=2 * n + k + 1,
                    player_1=a,
                    player_2=b,
                    status="checked_in",
                )
            )
        game = Game.objects.create(
            round=round_,
            table_number=n + 1,
            pair_yb=pairs[0],
            pair_rg=pairs[1],
            first_dealer="YRBG"[n % 4],
        )
        record = selfplay_game(5000 + n, first_dealer=game.first_dealer)
        tables.append({"game": game.pk, "token": game_token(game=game), "moves": record["moves"]})
    users = []
    for j in range(args.judges):
        user = get_user_model().objects.create(username=f"bench-judge-{j}")
        TournamentRole.objects.create(tournament=tournament, user=user, role="judge")
        session = SessionStore()
        session[SESSION_KEY] = str(user.pk)
        session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
        session[HASH_SESSION_KEY] = user.get_session_auth_hash()
        session.create()
        users.append(session.session_key)
    clock_start_round(round=round_)
    from django.db import connection

    connection.close()
    return {"tables": tables, "sessions": users, "speed": speed}


def verify(accepted: dict[int, list[dict[str, Any]]]) -> dict[str, Any]:
    """Compare the clients' accepted entries with the database, and check alerts."""
    from django.db import connection
    from django.utils import timezone

    connection.close()  # the fault may have killed this process's connection
    from games.models import Game, GameClock, MoveEntry
    from games.selectors import move_log_verify
    from games.selectors.clock import clock_elapsed_s, clock_marks_s
    from judging.models import Alert

    lost = duplicated = unacknowledged = chain_errors = 0
    stored: dict[int, list[tuple[str, int]]] = defaultdict(list)
    for row in MoveEntry.objects.filter(
        game__round__tournament__slug=SLUG, withdrawn_at__isnull=True
    ).values_list("game_id", "client_id", "seq"):
        stored[row[0]].append((row[1], row[2]))
    for game in Game.objects.filter(round__tournament__slug=SLUG):
        mine = accepted.get(game.pk, [])
        db_ids = [client_id for client_id, _seq in stored.get(game.pk, [])]
        acked = [a["client_id"] for a in mine]
        lost += len(set(acked) - set(db_ids))
        unacknowledged += len(set(db_ids) - set(acked))
        created = [a["client_id"] for a in mine if a["created"]]
        duplicated += len(created) - len(set(created))
        # The same move under two sequence numbers would show as texts repeating
        # out of the game's order: the chain check and the engine replay catch it.
        duplicated += len(db_ids) - len(set(db_ids))
        if not move_log_verify(game=game).ok:
            chain_errors += 1
    now = timezone.now()
    alerts = defaultdict(int)
    late: list[float] = []
    dues: list[float] = []
    for game_id, kind, due, raised in Alert.objects.filter(tournament__slug=SLUG).values_list(
        "game_id", "kind", "due_at", "raised_at"
    ):
        alerts[(game_id, kind)] += 1
        late.append((raised - due).total_seconds())
        dues.append(due.timestamp())
    expected = missing = extra = 0
    for clock in GameClock.objects.filter(game__round__tournament__slug=SLUG):
        elapsed = clock_elapsed_s(clock, now)
        for kind, mark in zip(("alert", "limit"), clock_marks_s(clock), strict=True):
            # A sweep runs every second: a mark passed 5 s ago must have its row.
            due = elapsed - mark > 5 * clock.speed
            count = alerts.get((clock.game_id, kind), 0)
            if due:
                expected += 1
                missing += count == 0
                extra += max(0, count - 1)
            elif elapsed < mark:
                extra += count
    return {
        "accepted": sum(len(v) for v in accepted.values()),
        "stored_active": sum(len(v) for v in stored.values()),
        "lost": lost,
        "duplicated": duplicated,
        "stored_but_never_acknowledged": unacknowledged,
        "chain_errors": chain_errors,
        "alerts_expected": expected,
        "alerts_raised": sum(alerts.values()),
        "alerts_missing": missing,
        "alerts_extra_or_duplicated": extra,
        # Real seconds from a mark being due to its alert row (the clock runs fast,
        # the alert path does not).
        "alert_latency_s": {
            "p50": round(statistics.median(late), 2) if late else None,
            "p99": round(percentile(late, 0.99), 2),
            "max": round(max(late), 2) if late else None,
        },
        "_alert_due_times": dues,
    }
