"""A whole game record: exported, or imported into an empty log."""

from __future__ import annotations

import uuid
from typing import Any

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from core.errors import ApplicationError, Conflict, Text, bilingual, in_language
from core.users import Actor, signed_in
from games.engine import (
    EngineError,
    Ruleset,
    get_ruleset,
    initial_position,
    position_from_json,
    replay,
)
from games.models import Game, MoveEntry
from games.selectors import (
    TableState,
    active_entries,
    game_log,
    game_record,
    game_state,
)
from games.services.move_log._common import (
    NewEntry,
    chained,
    check_writable,
    clock_stop_on_win,
    entry_read,
    illegal,
    lock_game,
)
from tournament.models import AuditEntry
from tournament.permissions import require_judge


def _record_refused(why: Text, params: dict[str, Any] | None = None) -> ApplicationError:
    why_in_both = bilingual(in_language(why, "en", params), in_language(why, "da", params))
    return illegal("N", _("The game record cannot be used: %(why)s"), params={"why": why_in_both})


def game_record_import(*, game: Game, actor: Actor, record: object) -> TableState:
    """Store a game played on paper: the whole record is checked by the engine first.

    Only a judge or organiser of the event may import, only into a game
    without log entries; the first illegal entry is reported and nothing is
    stored.
    """
    tournament = game.round.tournament
    require_judge(actor, tournament)
    if not isinstance(record, dict) or not isinstance(record.get("moves"), list):
        raise _record_refused(
            _("it must be a JSON object with a list 'moves'."),
        )
    if record.get("ruleset", tournament.ruleset) != tournament.ruleset:
        raise _record_refused(
            _("it is for the ruleset %(ruleset)s; this event plays %(event_ruleset)s."),
            {"ruleset": f"{record.get('ruleset')!r}", "event_ruleset": f"{tournament.ruleset!r}"},
        )
    if record.get("first_dealer", game.first_dealer) != game.first_dealer:
        raise _record_refused(
            _("its first dealer is %(first_dealer)s, but this table's is %(table_dealer)s."),
            {
                "first_dealer": f"{record.get('first_dealer')!r}",
                "table_dealer": f"{game.first_dealer!r}",
            },
        )
    moves = record["moves"]
    if len(moves) > 5000 or not all(isinstance(m, str) for m in moves):
        raise _record_refused(_("'moves' must be a list of entry texts."))
    _record_start_check(record.get("start"), get_ruleset(tournament.ruleset))
    with transaction.atomic():
        game = lock_game(game)
        check_writable(game)
        if active_entries(game=game).exists():
            raise Conflict(
                "log_not_empty",
                _(
                    "This game already has logged moves; a record can only be imported into "
                    "an empty log."
                ),
            )
        texts = store_record(game, moves, MoveEntry.Source.IMPORT)
        AuditEntry.objects.create(
            tournament=tournament,
            actor=signed_in(actor),
            action="game_record_import",
            target=str(game),
            data={"entries": len(texts)},
        )
        state = game_state(game=game)
        if state.winner:
            clock_stop_on_win(game)
        return state


def _record_start_check(start: object, ruleset: Ruleset) -> None:
    """A record's ``start`` must be the position a table's log starts from.

    A table's log always replays from every pawn in its start circle; a
    record from another position cannot be stored as it is (a judge sets
    the position with ``! SET`` instead), and an unreadable one is named.
    """
    if start is None:
        return
    try:
        position = position_from_json(start, ruleset)  # type: ignore[arg-type]
    except EngineError as err:
        raise _record_refused(
            _("its start position cannot be read (%(why)s)."),
            {"why": bilingual(err.message_en, err.message_da)},
        ) from None
    if position != initial_position(ruleset):
        raise _record_refused(
            _(
                "it starts from another position than every pawn in its start circle; a "
                "table's log starts there. Import the moves without 'start' and let a "
                "judge set the position (! SET)."
            ),
        )


def store_record(game: Game, moves: list[str], source: str) -> list[str]:
    """Check a list of entries with the engine and store them (the log must be empty)."""
    result = replay(game_record(game=game, moves=moves))
    err = result.first_error  # None exactly when the replay is ok
    if err is not None:
        raise illegal(
            err.rule,
            _("Entry %(number)s (%(move)s): %(why)s"),
            params={
                "number": err.index + 1,
                "move": err.move,
                "why": bilingual(err.message, err.message_da),
            },
            index=err.index,
            move=err.move,
        )
    prev = game_log(game=game).last_hash
    entries: list[NewEntry] = []
    batch = uuid.uuid4().hex[:12]
    for seq, (text, events) in enumerate(zip(moves, result.events, strict=True), start=1):
        if text.startswith("!"):  # a judge entry, already checked by the replay
            seat, canonical = "", " ".join(text.split())
        else:
            seat, _typed, canonical = entry_read(
                text=text, to_move=None, ruleset=result.state.ruleset
            )
        entries.append(
            NewEntry(
                text=canonical,
                client_id=f"{source}-{batch}-{seq}",
                events=[e.to_json() for e in events],
                seat=seat,
                source=source,
            )
        )
    rows = chained(game, prev_hash=prev, first_seq=1, entries=entries)
    MoveEntry.objects.bulk_create(rows, batch_size=500)
    return [entry.text for entry in entries]
