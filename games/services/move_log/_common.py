"""What every write of the move log shares: reading an entry, the lock, extending the hash chain."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any, TypedDict, Unpack

from django.utils import translation
from django.utils.translation import gettext_lazy as _

from core.errors import ApplicationError, Conflict, Text
from games.conditional import state_etag
from games.engine import (
    DM2023,
    EngineError,
    ReplayResult,
    Ruleset,
    canonical_move,
    replay,
)
from games.models import Game, MoveEntry
from games.push import game_changed
from games.selectors import (
    LogEntry,
    LogView,
    TableState,
    entry_hash,
    game_log,
    game_record,
    game_state,
)
from games.services.clock import clock_stop

MAX_TEXT_LENGTH = 100
# Answers to writes carry the last entries only; the state read has them all.
ANSWER_ENTRIES = 20
_SEAT_PREFIX_RE = re.compile(r"^([YRBG])\s+(.*)$")


@dataclass(frozen=True)
class SubmitResult:
    """``created`` is False when the same ``client_id`` was already stored.

    ``state`` is the table's state after the write with its last
    ``ANSWER_ENTRIES`` entries and the legal moves, and ``state_etag`` the
    ETag a read of that state (``?tail=ANSWER_ENTRIES``) has: the device
    needs no read after its own write, and its next poll is a 304.
    """

    created: bool
    entry: LogEntry
    state: TableState
    state_etag: str = ""
    # A retry of an entry taken back since: the answer's entry says so.
    withdrawn: bool = False

    def to_json(self) -> dict[str, Any]:
        entry = self.entry.to_json()
        if self.withdrawn:
            entry["withdrawn"] = True
        return {
            "created": self.created,
            "entry": entry,
            "state": self.state.to_json(),
            "state_etag": self.state_etag,
        }


def answer_state(game: Game, view: LogView | None = None) -> TableState:
    """The state sent back after a write, with the last entries only. Without the
    legal moves (``legal_entries`` is null; the table reads the state for them),
    except in a submission's answer (``with_legal_moves``, after the lock is released)."""
    return game_state(game=game, with_legal=False, entries_tail=ANSWER_ENTRIES, view=view)


def with_legal_moves(game: Game, result: SubmitResult) -> SubmitResult:
    """``result`` with the legal moves of its state and that state's ETag.

    Computed after the commit, outside the game's lock: the view of that log
    head was just built (the process keeps it), and a 7's hundreds of splits
    should not hold up the next submission to the same game.
    """
    view = game_log(game=game, head=(result.state.seq, result.state.last_hash))
    if view.key[2:] != (result.state.seq, result.state.last_hash):
        # Rebuilt from a log that has moved on since (a rare cache miss while
        # another device wrote): leave the legal moves to the device's read.
        return result
    state = replace(
        result.state, legal_entries=view.legal_entries, legal_effects=view.legal_effects
    )
    tag = state_etag(state, legal=True, tail=ANSWER_ENTRIES)
    return SubmitResult(result.created, result.entry, state, tag, result.withdrawn)


# --- errors ---------------------------------------------------------------


class RefusedEntry(TypedDict, total=False):
    """Which entry a refusal is about, for the answer: its text and its place in the list."""

    move: str
    index: int


def illegal(
    rule: str,
    message: Text,
    message_da: str | None = None,  # the engine's refusals carry their own Danish
    *,
    params: dict[str, Any] | None = None,
    **extra: Unpack[RefusedEntry],
) -> ApplicationError:
    return ApplicationError(
        rule, message, message_da, params=params, status=422, extra={"rule": rule, **extra}
    )


def check_writable(game: Game) -> None:
    if game.status == Game.Status.FINISHED:
        raise Conflict(
            "game_finished",
            _("This game is finished; its log can no longer change. Ask a judge."),
        )
    if game.status == Game.Status.TIME_UP:
        raise Conflict(
            "game_time_up",
            _("Time is up for this game; a judge decides the result. No more moves can be logged."),
        )


# --- reading an entry -----------------------------------------------------


def _tidy(text: str) -> str:
    text = " ".join(text.split())
    text = re.sub(r"\s*:\s*", ": ", text, count=1)
    text = re.sub(r"\s*<>\s*", "<>", text)
    return text.upper().replace(": IN", ": in")


def _canonical_discard(rest: str, ruleset: Ruleset) -> str:
    deck = ruleset.deck_cards()
    cards = rest[2:].split()
    if not cards or any(card not in deck for card in cards):
        raise illegal(
            "N",
            _(
                "Cannot read the discard %(rest)s: write 'X:' and the cards shown, e.g. "
                "X: 2 3 9 12."
            ),
            params={"rest": f"{rest!r}"},
        )
    return "X: " + " ".join(sorted(cards, key=deck.index))


def entry_read(
    *, text: str, to_move: str | None, ruleset: Ruleset = DM2023
) -> tuple[str, str, str]:
    """Read a typed entry into ``(seat, as typed for the engine, canonical entry)``.

    ``"5: Y3+5"`` is played by the seat to move; ``"Y 5: Y3+5"`` names the seat
    (the engine refuses it if that seat is not to move: rule D2). The move is
    read in ``ruleset``'s notation (the printed rulebook also reads ``Y15``;
    DUO reads ``5: YK3+5``, ``1: in YK``, its players ``Y`` and ``R``).
    """
    if not text.strip() or len(text) > MAX_TEXT_LENGTH:
        raise illegal(
            "N",
            _("Enter a move such as '5: Y3+5', '11: in', 'J: Y3<>R10' or a discard 'X: 2 3 9 12'."),
        )
    tidy = _tidy(text)
    named = _SEAT_PREFIX_RE.match(tidy)
    if named:
        seat, rest = named[1], named[2]
    elif to_move is None:
        raise illegal(
            "W1",
            _("The game is over: nothing more can be played."),
        )
    else:
        seat, rest = to_move, tidy
    if rest.startswith("X:"):
        canonical = _canonical_discard(rest, ruleset)
    else:
        try:
            canonical = canonical_move(rest, ruleset)
        except EngineError as err:
            raise illegal(err.rule, err.message_en, err.message_da) from None
    return seat, f"{seat} {rest}", f"{seat} {canonical}"


# --- appending ------------------------------------------------------------


@contextlib.contextmanager
def answer_language(lang: str | None) -> Iterator[None]:
    if lang and lang[:2] in ("da", "en"):
        with translation.override(lang[:2]):
            yield
    else:
        yield


def lock_game(game: Game) -> Game:
    # Lock only the game's row: ``of`` keeps the joined tournament row (shared
    # by every table) unlocked, so tables never wait for each other; ``no_key``
    # as in _head_sql.
    return (
        Game.objects.select_for_update(of=("self",), no_key=True)
        .select_related("round__tournament")
        .get(pk=game.pk)
    )


@dataclass(frozen=True)
class NewEntry:
    """An entry about to be appended: what the chain hashes, and what the row keeps."""

    text: str
    client_id: str
    events: list[Any]
    seat: str = ""
    source: str = MoveEntry.Source.TABLE


def chained(
    game: Game, *, prev_hash: str, first_seq: int, entries: list[NewEntry]
) -> list[MoveEntry]:
    """Unsaved rows for ``entries`` appended after the entry hashed ``prev_hash``.

    The one place the hash chain is extended (docs/move-log.md): each row
    carries its predecessor's hash and its own over (predecessor, text, seq).
    """
    # Every new entry passes here: the table's viewers hear of it once it commits.
    game_changed(game=game, kind="move")
    rows: list[MoveEntry] = []
    prev = prev_hash
    for seq, entry in enumerate(entries, start=first_seq):
        digest = entry_hash(prev_hash=prev, text=entry.text, seq=seq)
        rows.append(
            MoveEntry(
                game=game,
                seq=seq,
                seat=entry.seat,
                text=entry.text,
                client_id=entry.client_id,
                prev_hash=prev,
                hash=digest,
                events=entry.events,
                source=entry.source,
            )
        )
        prev = digest
    return rows


def extend_log(game: Game, view: LogView, typed: str, canonical: str) -> ReplayResult:
    """The replay of the log plus one entry, or the engine's refusal (422).

    From a clean log the engine checks just the new entry against the cached
    state; a log that does not replay cleanly (it should not happen) is
    replayed in full, so the answer names the real first error.
    """
    if view.replay.ok:
        try:
            state, events = view.replay.state.play(typed)
        except EngineError as err:
            raise illegal(err.rule, err.message_en, err.message_da, move=canonical) from None
        return ReplayResult(
            ok=True,
            moves_checked=view.replay.moves_checked + 1,
            position=state.position,
            winner=state.winner,
            first_error=None,
            state=state,
            events=[*view.replay.events, events],
        )
    moves = view.texts
    result = replay(game_record(game=game, moves=[*moves, typed]))
    refusal = result.first_error
    if refusal is not None:
        raise illegal(
            refusal.rule, refusal.message, refusal.message_da, move=canonical, index=refusal.index
        )
    return result


def clock_stop_on_win(game: Game) -> None:
    """Stop the game clock when the engine reports a winner."""
    clock_stop(game=game)
