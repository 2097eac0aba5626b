"""What the games read side's values cost a web process: the figures behind the
choice of how a replayed view keeps its log entries (docs/decisions.md).

Run from the repository root: ``python bench/read_values.py [--views 512] [--entries 120]``.

(a) a full ``gc.collect()`` with ``--views`` replayed views of ``--entries``
    entries each kept in the process (what ``log_cache`` holds in a busy round),
    and with the entries alone, as the view keeps them and as ``LogEntry`` values;
(b) unpickling 100 hall summaries and one view (what a hall rebuild and a
    read from the shared cache do);
(c) building a table's state answer (``game_state(...).to_json()`` rendered
    to JSON) with every entry and with the last 20.

No database and no shared cache are used: the games are unsaved rows.
"""

from __future__ import annotations

import argparse
import datetime
import gc
import os
import pickle
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")


def _best(run: Callable[[], object], repeat: int) -> float:
    """The fastest of ``repeat`` runs, in milliseconds (the least disturbed by other work)."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append((time.perf_counter() - start) * 1000)
    return min(times)


def _collected(kept: object) -> tuple[float, int]:
    """A full collection's time with ``kept`` alive, and how many objects the collector tracks."""
    gc.collect()
    return _best(gc.collect, 9), len(gc.get_objects())


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--views", type=int, default=512)
    parser.add_argument("--entries", type=int, default=120)
    args = parser.parse_args(argv)

    import django

    django.setup()
    from rest_framework.renderers import JSONRenderer

    from games.engine import selfplay_game
    from games.models import Game
    from games.selectors import game_state
    from games.selectors.log import (
        LogEntry,
        build_log_view,
        entry_hash,
        genesis_hash,
        log_cache,
    )
    from tournament.models import Round, Tournament

    tournament = Tournament(pk=1, slug="bench", ruleset="dm2023")
    round_ = Round(pk=1, tournament=tournament, number=1)
    game = Game(pk=1, round=round_, table_number=1, first_dealer="Y", status="in_progress")
    seed = 1
    moves: list[str] = []
    while len(moves) < args.entries:
        moves = selfplay_game(seed, first_dealer="Y")["moves"]
        seed += 1
    moves = moves[: args.entries]
    start = datetime.datetime(2026, 5, 1, 12, tzinfo=datetime.UTC)
    rows = []
    prev = genesis_hash(game.pk)
    for n, text in enumerate(moves, start=1):
        prev = entry_hash(prev_hash=prev, text=text, seq=n)
        rows.append(
            {
                "seq": n,
                "seat": text.split(" ", 1)[0],
                "text": text,
                "hash": prev,
                "events": [],
                "created_at": start + datetime.timedelta(seconds=20 * n),
            }
        )
    entries = [LogEntry.of(row) for row in rows]
    view = build_log_view(game=game, entries=entries, share=False)
    view.legal_entries  # noqa: B018 - computed once, as a table page's read does
    log_cache.clear()
    dumped = pickle.dumps(view)
    summary = pickle.dumps(log_cache._summarise(view))

    _, tracked_before = _collected(None)
    kept = [pickle.loads(dumped) for _ in range(args.views)]  # noqa: S301 - our own bytes
    collect, tracked = _collected(kept)
    # The same views with their entries kept as typed values instead (the design
    # not taken): what the collector would walk on top.
    typed = [view.entries for _ in kept]
    collect_typed, tracked_typed = _collected(typed)
    del kept, typed
    gc.collect()
    # The entries alone, without the replays: as the view keeps them, and as values.
    rows_only = [tuple(entry.row for entry in entries) for _ in range(args.views)]
    collect_rows, _ = _collected(rows_only)
    del rows_only
    values_only = [tuple(LogEntry(*entry.row) for entry in entries) for _ in range(args.views)]
    collect_values, _ = _collected(values_only)
    del values_only
    gc.collect()

    summaries = _best(lambda: [pickle.loads(summary) for _ in range(100)], 25)  # noqa: S301
    one_view = _best(lambda: pickle.loads(dumped), 25)  # noqa: S301

    renderer = JSONRenderer()

    def answer(tail: int) -> bytes:
        state = game_state(game=game, view=view, entries_tail=tail)
        return renderer.render(state.to_json())

    full = _best(lambda: answer(0), 200)
    tail = _best(lambda: answer(20), 200)
    print(
        f"(a) gc.collect() with {args.views} views of {args.entries} entries: {collect:.1f} ms, "
        f"{tracked - tracked_before} objects tracked; with typed entries kept as well: "
        f"{collect_typed:.1f} ms, {tracked_typed - tracked_before}"
    )
    print(
        f"    the entries alone: {collect_rows:.1f} ms as rows, "
        f"{collect_values:.1f} ms as LogEntry values"
    )
    print(f"(b) unpickling 100 summaries: {summaries:.2f} ms; one view: {one_view:.2f} ms")
    print(f"(c) state answer, {args.entries} entries: {full:.3f} ms; tail=20: {tail:.3f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
