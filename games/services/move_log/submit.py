"""A table appends an entry (or previews one): the hot path, under the game's lock."""

from __future__ import annotations

import hmac
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, connection, transaction
from django.utils.translation import gettext_lazy as _

from core.errors import ApplicationError, Conflict, NotFound, PermissionDenied
from games.models import Game, MoveEntry
from games.selectors import (
    LogEntry,
    LogView,
    build_log_view,
    game_log,
    game_state,
    head_columns_sql,
    log_head,
)
from games.services.move_log._common import (
    ANSWER_ENTRIES,
    NewEntry,
    SubmitResult,
    answer_language,
    answer_state,
    chained,
    check_writable,
    clock_stop_on_win,
    entry_read,
    extend_log,
    with_legal_moves,
)
from games.services.tokens import token_refused
from games.signals import move_refused
from tournament.models import Round


@dataclass(frozen=True)
class _Head:
    """What a submission needs to know under the game's lock, read in one statement."""

    status: str
    round_status: str
    seq: int
    last_hash: str
    retried_id: int | None
    token_hashes: tuple[str, str]


def _head_sql() -> str:
    # Hand-written because it runs on every submission: one round trip
    # instead of three ORM queries (the ORM's SQL compilation alone cost
    # ~5 ms per submission; bench/move_load.py).
    quote = connection.ops.quote_name
    game_t = quote(Game._meta.db_table)
    entry_t = quote(MoveEntry._meta.db_table)
    round_t = quote(Round._meta.db_table)
    # Names come from the models' meta; every value is a parameter.
    sql = (
        f"SELECT g.status, r.status, {head_columns_sql()}, "  # noqa: S608
        f"(SELECT e.id FROM {entry_t} e WHERE e.game_id = g.id AND e.client_id = %s), "
        f"g.token_hash, g.carried_token_hash FROM {game_t} g JOIN {round_t} r "
        "ON r.id = g.round_id WHERE g.id = %s"
    )
    if connection.features.has_select_for_no_key_update:
        # NO KEY: rows inserted elsewhere that refer to the game (an alert, a
        # clock event) take KEY SHARE locks on it, which FOR UPDATE would wait
        # for; two submissions to one game still exclude each other.
        sql += " FOR NO KEY UPDATE OF g"
    # SQLite has no row locks: its writers are serialised by BEGIN IMMEDIATE
    # (config/settings/base.py), which the surrounding atomic block issues.
    return sql


def _lock_head(game: Game, client_id: str) -> _Head:
    """Lock ``game``'s row and read its status, log head and a retried ``client_id``."""
    with connection.cursor() as cursor:
        cursor.execute(_head_sql(), [client_id, game.pk])
        row = cursor.fetchone()
    if row is None:
        raise NotFound("game_not_found", _("This game no longer exists."))
    status, round_status, seq, last, retried, digest, carried = row
    seq, last = log_head(game.pk, seq, last)
    return _Head(
        status=status,
        round_status=round_status,
        seq=seq,
        last_hash=last,
        retried_id=retried,
        token_hashes=(digest or "", carried or ""),
    )


def _stale(game: Game, expected_seq: int, view: LogView) -> Conflict:
    return Conflict(
        "stale_sequence",
        _(
            "The log has moved on (it is at entry %(seq)s; this entry was made after "
            "entry %(expected_seq)s). Here is the current state: check the entry "
            "again."
        ),
        params={"seq": view.seq, "expected_seq": expected_seq},
        extra={"state": game_state(game=game, entries_tail=ANSWER_ENTRIES).to_json()},
    )


def move_submit(
    *,
    game: Game,
    text: str,
    client_id: str,
    expected_seq: int,
    lang: str | None = None,
    token_digest: str | None = None,
) -> SubmitResult:
    """Check one entry with the engine and append it to the game's log.

    ``expected_seq`` is the sequence number of the last entry the device knew
    (0 for none). A retried ``client_id`` returns the stored entry
    (``created=False``) and changes nothing; a stale ``expected_seq`` raises
    ``Conflict("stale_sequence")`` carrying the current state; an entry the
    engine refuses raises a 422 error whose code is the RULES.md id.
    ``token_digest`` (from ``tokens.game_for_submission``) is checked under
    the lock: a rotated table link changes nothing.
    """
    with answer_language(lang):
        try:
            with transaction.atomic():
                result = _submit_locked(game, text, client_id, expected_seq, token_digest)
            return with_legal_moves(game, result)
        except ApplicationError as err:
            if err.status_code == 422:
                _refusal_record(game, text, err)
            raise
        except IntegrityError:
            # Only reachable if the row lock was bypassed (e.g. a raw write):
            # the constraint kept the log intact; answer as for a race.
            retried = MoveEntry.objects.filter(game=game, client_id=client_id).first()
            if retried is not None:
                return SubmitResult(False, LogEntry.of(retried), answer_state(game))
            raise _stale(game, expected_seq, game_log(game=game)) from None


def _submit_locked(
    game: Game, text: str, client_id: str, expected_seq: int, token_digest: str | None
) -> SubmitResult:
    head = _lock_head(game, client_id)
    if token_digest is not None and not any(
        hmac.compare_digest(known, token_digest) for known in head.token_hashes
    ):
        # Rotated since the caller's lookup (up to tokens.SUBMISSION_MEMO_SECONDS old).
        raise token_refused()
    # The game was read before the lock: take what may have changed since.
    game.status = head.status
    if head.retried_id is not None:
        existing = MoveEntry.objects.get(pk=head.retried_id)
        return SubmitResult(
            False, LogEntry.of(existing), answer_state(game), withdrawn=not existing.active
        )
    if head.round_status == Round.Status.CLOSED:
        # Closed between the caller's check of the table link and the lock.
        raise PermissionDenied(
            _("This round is closed; the table link can no longer change the game."),
        )
    check_writable(game)
    view = game_log(game=game, head=(head.seq, head.last_hash))
    if expected_seq != view.seq:
        raise _stale(game, expected_seq, view)
    state = view.replay.state
    seat, typed, canonical = entry_read(text=text, to_move=state.to_move, ruleset=state.ruleset)
    result = extend_log(game, view, typed, canonical)
    new_entry = NewEntry(
        text=canonical,
        client_id=client_id,
        events=[e.to_json() for e in result.events[-1]],
        seat=seat,
    )
    (row,) = chained(game, prev_hash=view.last_hash, first_seq=view.seq + 1, entries=[new_entry])
    row.save(force_insert=True)
    entry = LogEntry.of(row)
    # Shared once its legal moves are known (move_submit's with_legal_moves).
    new_view = build_log_view(game=game, entries=[entry], after=view, result=result, share=False)
    if result.winner:
        clock_stop_on_win(game)
    return SubmitResult(True, entry, answer_state(game, new_view))


def _refusal_record(game: Game, text: str, err: ApplicationError) -> None:
    """Announce a refused entry; judging keeps it for the incident history (games.signals)."""
    move_refused.send(
        sender=Game,
        game=game,
        text=text,
        rule=err.code,
        message_en=err.message_en,
        message_da=err.message_da,
    )


@dataclass(frozen=True)
class PawnChange:
    """Pawns of one colour (DUO: one home area) that an entry moves: where they
    stood (``moved_from``) and where they end (``moved_to``), in the position's notation."""

    colour: str
    moved_from: list[str]
    moved_to: list[str]

    def to_json(self) -> dict[str, Any]:
        return {"colour": self.colour, "from": self.moved_from, "to": self.moved_to}


@dataclass(frozen=True)
class MovePreview:
    """What an entry would do (``move_preview``); ``to_json`` is the preview's answer
    (``games.serializers.PreviewAnswerSerializer``), in its fields' order."""

    entry: str
    changes: tuple[PawnChange, ...]
    # The hits and locks it makes, as the engine gives them.
    events: tuple[dict[str, Any], ...]
    position: dict[str, list[str]]
    winner: str | None

    def to_json(self) -> dict[str, Any]:
        return {
            "entry": self.entry,
            "changes": [change.to_json() for change in self.changes],
            "events": list(self.events),
            "position": self.position,
            "winner": self.winner,
        }


def move_preview(*, game: Game, text: str, lang: str | None = None) -> MovePreview:
    """What an entry would do, without storing it: moved pawns, hits, locks, winner."""
    with answer_language(lang):
        view = game_log(game=game)
        state = view.replay.state
        _seat, typed, canonical = entry_read(
            text=text, to_move=state.to_move, ruleset=state.ruleset
        )
        result = extend_log(game, view, typed, canonical)
    before, after = view.replay.position, result.position
    changes = []
    # Per colour (DUO: per home area), as the position's own notation names them.
    pawns_before, pawns_after = before.to_json(), after.to_json()
    for colour, pawns in pawns_before.items():
        old, new = list(pawns), list(pawns_after[colour])
        for loc in pawns:
            if loc in new:
                new.remove(loc)
                old.remove(loc)
        if old or new:
            changes.append(PawnChange(colour=colour, moved_from=old, moved_to=new))
    return MovePreview(
        entry=canonical,
        changes=tuple(changes),
        events=tuple(e.to_json() for e in result.events[-1]),
        position=after.to_json(),
        winner=result.winner,
    )
