"""Predicted overrun of a table at the alert mark (docs/clock.md).

For each team, pace = steps covered so far / clock seconds elapsed, where the
steps covered are the team's remaining distance at the start minus now
(``games.engine.remaining_distance``). A team at pace p with r steps to go
needs r / p more seconds; the game ends when the first team finishes, so

    predicted finish = elapsed + min over teams (remaining / pace)
    predicted overrun = predicted finish - limit

A team that has covered nothing has no pace (infinite time); if neither team
has, the table is *stuck* and ranks first. A table with no log (or a log the
engine cannot read) has no prediction; it is ranked as on schedule (overrun 0)
and, among such tables, by elapsed time.
"""

from __future__ import annotations

import logging
import math
from typing import TYPE_CHECKING, TypedDict

if TYPE_CHECKING:
    from games.models import Game

logger = logging.getLogger(__name__)

TEAMS = ("YB", "RG")


class Prediction(TypedDict, total=False):
    """The prediction stored on an alert (JSON); an alert raised without one stores ``{}``."""

    known: bool
    elapsed_s: float
    stuck: bool
    predicted_finish_s: float | None
    overrun_s: float | None
    progress: float | None


def predict_finish(
    *, elapsed_s: float, limit_s: float, start: dict[str, int] | None, now: dict[str, int] | None
) -> Prediction:
    """The prediction as stored on an alert (pure; JSON-safe)."""
    if not start or not now or elapsed_s <= 0:
        return {
            "known": False,
            "elapsed_s": round(elapsed_s, 1),
            "stuck": False,
            "predicted_finish_s": None,
            "overrun_s": None,
            "progress": None,
        }
    times = []
    progress = 0.0
    for team in TEAMS:
        covered = start[team] - now[team]
        if start[team] > 0:
            progress = max(progress, covered / start[team])
        if now[team] <= 0:
            times.append(0.0)
        elif covered > 0:
            times.append(now[team] / (covered / elapsed_s))
        else:
            times.append(math.inf)
    to_go = min(times)
    stuck = math.isinf(to_go)
    finish = None if stuck else round(elapsed_s + to_go, 1)
    return {
        "known": True,
        "elapsed_s": round(elapsed_s, 1),
        "stuck": stuck,
        "predicted_finish_s": finish,
        "overrun_s": None if finish is None else round(finish - limit_s, 1),
        "progress": round(max(0.0, progress), 3),
    }


def urgency_key(prediction: Prediction) -> tuple[float, float]:
    """Sort key, most urgent first: stuck, then largest overrun; unknown as 0."""
    overrun_s = prediction.get("overrun_s")
    if prediction.get("stuck"):
        overrun = math.inf
    elif prediction.get("known") and overrun_s is not None:
        overrun = float(overrun_s)
    else:
        overrun = 0.0
    return (-overrun, -float(prediction.get("elapsed_s") or 0.0))


def game_distances(*, game: Game) -> tuple[dict[str, int], dict[str, int]] | None:
    """(start, now) remaining distance per team from the game's log; None if unknown."""
    if not game.move_entries.filter(withdrawn_at__isnull=True).exists():
        return None
    try:
        from games.engine import initial_position, remaining_distance
        from games.selectors import game_log

        view = game_log(game=game)
        if not view.replay.ok:
            return None
        ruleset = view.replay.state.ruleset
        start = dict(remaining_distance(initial_position(ruleset), ruleset)["teams"])
        return start, dict(view.distance)
    except Exception:  # an unreadable log means "unknown", never a lost alert
        logger.exception("no overrun prediction for game %s", game.pk)
        return None


def game_prediction(*, game: Game, elapsed_s: float, limit_s: float) -> Prediction:
    distances = game_distances(game=game)
    start, now = distances if distances else (None, None)
    return predict_finish(elapsed_s=elapsed_s, limit_s=limit_s, start=start, now=now)
