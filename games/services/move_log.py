"""The per-table move log: append, take back, confirm the result, import, export.

Every write runs in one transaction holding the game's row lock (PostgreSQL
``SELECT … FOR UPDATE``; SQLite serialises writers with ``BEGIN IMMEDIATE``),
and the partial unique constraint on active ``(game, seq)`` backs it up. The
order of checks matters: a retried ``client_id`` is recognised *before* the
sequence check, so a device whose answer was lost gets its entry back instead
of a stale-sequence refusal.
"""

from __future__ import annotations

import contextlib
import hmac
import random
import re
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, connection, transaction
from django.utils import timezone, translation

from core.errors import ApplicationError, Conflict, NotFound, PermissionDenied
from games.conditional import state_etag
from games.engine import (
    CARDS,
    SEATS,
    EngineError,
    Position,
    ReplayResult,
    format_move,
    parse_move,
    replay,
    selfplay_game,
)
from games.models import Game, MoveEntry, ResultConfirmation
from games.selectors import (
    LogView,
    active_entries,
    build_log_view,
    entry_hash,
    entry_json,
    game_log,
    game_players,
    game_record,
    game_state,
    head_columns_sql,
    log_head,
    short_hash,
)
from games.services.clock import clock_stop
from games.services.tokens import token_refused
from games.signals import move_refused
from tournament.models import AuditEntry, Round
from tournament.permissions import require_judge

__all__ = [
    "SubmitResult",
    "demo_fill_logs",
    "game_record_export",
    "game_record_import",
    "game_result_confirm",
    "game_state",
    "judge_entries_append",
    "move_preview",
    "move_submit",
    "move_take_back",
]


MAX_TEXT_LENGTH = 100
# Answers to writes carry the last entries only; the state read has them all.
ANSWER_ENTRIES = 20
_CLIENT_ID_RE = re.compile(r"^[A-Za-z0-9_.:-]{8,64}$")
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
    entry: dict[str, Any]
    state: dict[str, Any]
    state_etag: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "created": self.created,
            "entry": self.entry,
            "state": self.state,
            "state_etag": self.state_etag,
        }


def _answer_state(game: Game, view: LogView | None = None) -> dict[str, Any]:
    """The state sent back after a write, with the last entries only. Without the
    legal moves (``legal_entries`` is null; the table reads the state for them),
    except in a submission's answer (``_with_legal``, after the lock is released)."""
    return game_state(game=game, with_legal=False, entries_tail=ANSWER_ENTRIES, view=view)


def _with_legal(game: Game, result: SubmitResult) -> SubmitResult:
    """``result`` with the legal moves of its state and that state's ETag.

    Computed after the commit, outside the game's lock: the view of that log
    head was just built (the process keeps it), and a 7's hundreds of splits
    should not hold up the next submission to the same game.
    """
    state = result.state
    view = game_log(game=game, head=(state["seq"], state["last_hash"]))
    if view.key[2:] != (state["seq"], state["last_hash"]):
        # Rebuilt from a log that has moved on since (a rare cache miss while
        # another device wrote): leave the legal moves to the device's read.
        return result
    state["legal_entries"] = view.legal_entries
    state["legal_effects"] = view.legal_effects
    tag = state_etag(state, legal=True, tail=ANSWER_ENTRIES)
    return SubmitResult(result.created, result.entry, state, tag)


# --- errors ---------------------------------------------------------------


def _illegal(rule: str, message_en: str, message_da: str, **extra: Any) -> ApplicationError:
    return ApplicationError(rule, message_en, message_da, status=422, extra={"rule": rule, **extra})


def _bad_request(code: str, message_en: str, message_da: str) -> ApplicationError:
    return ApplicationError(code, message_en, message_da, status=400)


def _check_client_id(client_id: object) -> str:
    if not isinstance(client_id, str) or not _CLIENT_ID_RE.match(client_id):
        raise _bad_request(
            "client_id_invalid",
            "The entry has no valid client id (8–64 letters, digits, '-', '_', '.', ':').",
            "Posten har intet gyldigt klient-id (8–64 bogstaver, cifre, '-', '_', '.', ':').",
        )
    return client_id


def _check_writable(game: Game) -> None:
    if game.status == Game.Status.FINISHED:
        raise Conflict(
            "game_finished",
            "This game is finished; its log can no longer change. Ask a judge.",
            "Dette spil er afsluttet; loggen kan ikke længere ændres. Spørg en dommer.",
        )
    if game.status == Game.Status.TIME_UP:
        raise Conflict(
            "game_time_up",
            "Time is up for this game; a judge decides the result. No more moves can be logged.",
            "Tiden er gået for dette spil; en dommer afgør resultatet. Der kan ikke logges "
            "flere træk.",
        )


# --- reading an entry -----------------------------------------------------


def _tidy(text: str) -> str:
    text = " ".join(text.split())
    text = re.sub(r"\s*:\s*", ": ", text, count=1)
    text = re.sub(r"\s*<>\s*", "<>", text)
    return text.upper().replace(": IN", ": in")


def _canonical_discard(rest: str) -> str:
    cards = rest[2:].split()
    if not cards or any(card not in CARDS for card in cards):
        raise _illegal(
            "N",
            f"Cannot read the discard {rest!r}: write 'X:' and the cards shown, e.g. X: 2 3 9 12.",
            f"Kan ikke læse afkastet {rest!r}: skriv 'X:' og de viste kort, f.eks. X: 2 3 9 12.",
        )
    return "X: " + " ".join(sorted(cards, key=CARDS.index))


def entry_read(*, text: object, to_move: str | None) -> tuple[str, str, str]:
    """Read a typed entry into ``(seat, as typed for the engine, canonical entry)``.

    ``"5: Y3+5"`` is played by the seat to move; ``"Y 5: Y3+5"`` names the seat
    (the engine refuses it if that seat is not to move: rule D2).
    """
    if not isinstance(text, str) or not text.strip() or len(text) > MAX_TEXT_LENGTH:
        raise _illegal(
            "N",
            "Enter a move such as '5: Y3+5', '11: in', 'J: Y3<>R10' or a discard 'X: 2 3 9 12'.",
            "Skriv et træk som '5: Y3+5', '11: in', 'J: Y3<>R10' eller et afkast 'X: 2 3 9 12'.",
        )
    tidy = _tidy(text)
    named = _SEAT_PREFIX_RE.match(tidy)
    if named:
        seat, rest = named[1], named[2]
    elif to_move is None:
        raise _illegal(
            "W1",
            "The game is over: nothing more can be played.",
            "Spillet er slut: der kan ikke spilles mere.",
        )
    else:
        seat, rest = to_move, tidy
    if rest.startswith("X:"):
        canonical = _canonical_discard(rest)
    else:
        try:
            canonical = format_move(parse_move(rest))
        except EngineError as err:
            raise _illegal(err.rule, err.message_en, err.message_da) from None
    return seat, f"{seat} {rest}", f"{seat} {canonical}"


# --- appending ------------------------------------------------------------


@contextlib.contextmanager
def _language(lang: str | None) -> Iterator[None]:
    if lang and lang[:2] in ("da", "en"):
        with translation.override(lang[:2]):
            yield
    else:
        yield


def _lock(game: Game) -> Game:
    # Lock only the game's row: ``of`` keeps the joined tournament row (shared
    # by every table) unlocked, so tables never wait for each other; ``no_key``
    # as in _head_sql.
    return (
        Game.objects.select_for_update(of=("self",), no_key=True)
        .select_related("round__tournament")
        .get(pk=game.pk)
    )


@dataclass(frozen=True)
class _NewEntry:
    """An entry about to be appended: what the chain hashes, and what the row keeps."""

    text: str
    client_id: str
    events: list[Any]
    seat: str = ""
    source: str = MoveEntry.Source.TABLE


def _chained(
    game: Game, *, prev_hash: str, first_seq: int, entries: list[_NewEntry]
) -> list[MoveEntry]:
    """Unsaved rows for ``entries`` appended after the entry hashed ``prev_hash``.

    The one place the hash chain is extended (docs/move-log.md): each row
    carries its predecessor's hash and its own over (predecessor, text, seq).
    """
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
        raise NotFound(
            "game_not_found", "This game no longer exists.", "Dette spil findes ikke længere."
        )
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


def _stale(game: Game, expected_seq: object, view: LogView) -> Conflict:
    return Conflict(
        "stale_sequence",
        f"The log has moved on (it is at entry {view.seq}; this entry was made after "
        f"entry {expected_seq}). Here is the current state: check the entry again.",
        f"Loggen er nået videre (den er ved post {view.seq}; dette træk blev lavet efter "
        f"post {expected_seq}). Her er den aktuelle stilling: kontrollér trækket igen.",
        extra={"state": game_state(game=game, entries_tail=ANSWER_ENTRIES)},
    )


def move_submit(
    *,
    game: Game,
    text: object,
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
    client_id = _check_client_id(client_id)
    if isinstance(expected_seq, bool) or not isinstance(expected_seq, int) or expected_seq < 0:
        raise _bad_request(
            "expected_seq_invalid",
            "expected_seq must be the number of the last entry the device knows (0 for none).",
            "expected_seq skal være nummeret på den sidste post, enheden kender (0 for ingen).",
        )
    with _language(lang):
        try:
            with transaction.atomic():
                result = _submit_locked(game, text, client_id, expected_seq, token_digest)
            return _with_legal(game, result)
        except ApplicationError as err:
            if err.status_code == 422:
                _refusal_record(game, text, err)
            raise
        except IntegrityError:
            # Only reachable if the row lock was bypassed (e.g. a raw write):
            # the constraint kept the log intact; answer as for a race.
            retried = MoveEntry.objects.filter(game=game, client_id=client_id).first()
            if retried is not None:
                return SubmitResult(False, entry_json(retried), _answer_state(game))
            raise _stale(game, expected_seq, game_log(game=game)) from None


def _submit_locked(
    game: Game, text: object, client_id: str, expected_seq: int, token_digest: str | None
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
        entry = entry_json(existing)
        if not existing.active:
            entry["withdrawn"] = True
        return SubmitResult(False, entry, _answer_state(game))
    if head.round_status == Round.Status.CLOSED:
        # Closed between the caller's check of the table link and the lock.
        raise PermissionDenied(
            "This round is closed; the table link can no longer change the game.",
            "Denne runde er lukket; bordlinket kan ikke længere ændre spillet.",
        )
    _check_writable(game)
    view = game_log(game=game, head=(head.seq, head.last_hash))
    if expected_seq != view.seq:
        raise _stale(game, expected_seq, view)
    seat, typed, canonical = entry_read(text=text, to_move=view.replay.state.to_move)
    result = _extend(game, view, typed, canonical)
    entry = _NewEntry(
        text=canonical,
        client_id=client_id,
        events=[e.to_json() for e in result.events[-1]],
        seat=seat,
    )
    (row,) = _chained(game, prev_hash=view.last_hash, first_seq=view.seq + 1, entries=[entry])
    row.save(force_insert=True)
    rows = [*view.entries, entry_json(row)]
    # Shared once its legal moves are known (move_submit's _with_legal).
    new_view = build_log_view(game=game, rows=rows, result=result, share=False)
    if result.winner:
        _clock_stop(game)
    return SubmitResult(True, entry_json(row), _answer_state(game, new_view))


def _refusal_record(game: Game, text: object, err: ApplicationError) -> None:
    """Announce a refused entry; judging keeps it for the incident history (games.signals)."""
    move_refused.send(
        sender=Game,
        game=game,
        text=text,
        rule=err.code,
        message_en=err.message_en,
        message_da=err.message_da,
    )


def judge_entries_append(*, game: Game, texts: list[str]) -> list[dict[str, Any]]:
    """Append judge entries (``! …``, docs/judging.md) after the engine accepts the record.

    Who may rule is checked by the caller (judging.services.rulings). The
    whole record with the new entries is replayed first; a refusal (422,
    code = the rule) stores nothing. Confirmations given for the old log are
    dropped; a ruling that decides the game stops the clock.
    """
    with transaction.atomic():
        game = _lock(game)
        view = game_log(game=game)
        moves = [e["text"] for e in view.entries]
        result = replay(game_record(game=game, moves=[*moves, *texts]))
        err = result.first_error
        if err is not None:
            raise _illegal(err.rule, err.message, err.message_da, move=err.move, index=err.index)
        entries = [
            _NewEntry(
                text=text,
                client_id=f"judge-{uuid.uuid4().hex}",
                events=[e.to_json() for e in events],
                source=MoveEntry.Source.JUDGE,
            )
            for text, events in zip(texts, result.events[len(moves) :], strict=True)
        ]
        rows = _chained(game, prev_hash=view.last_hash, first_seq=view.seq + 1, entries=entries)
        for row in rows:
            row.save(force_insert=True)
        ResultConfirmation.objects.filter(game=game).delete()
        new = [entry_json(r) for r in rows]
        build_log_view(game=game, rows=[*view.entries, *new], result=result)
        if result.winner:
            _clock_stop(game)
        return new


def _extend(game: Game, view: LogView, typed: str, canonical: str) -> ReplayResult:
    """The replay of the log plus one entry, or the engine's refusal (422).

    From a clean log the engine checks just the new entry against the cached
    state; a log that does not replay cleanly (it should not happen) is
    replayed in full, so the answer names the real first error.
    """
    if view.replay.ok:
        try:
            state, events = view.replay.state.play(typed)
        except EngineError as err:
            raise _illegal(err.rule, err.message_en, err.message_da, move=canonical) from None
        return ReplayResult(
            ok=True,
            moves_checked=view.replay.moves_checked + 1,
            position=state.position,
            winner=state.winner,
            first_error=None,
            state=state,
            events=[*view.replay.events, events],
        )
    moves = [e["text"] for e in view.entries]
    result = replay(game_record(game=game, moves=[*moves, typed]))
    err = result.first_error
    if err is not None:
        raise _illegal(err.rule, err.message, err.message_da, move=canonical, index=err.index)
    return result


def move_preview(*, game: Game, text: str, lang: str | None = None) -> dict[str, Any]:
    """What an entry would do, without storing it: moved pawns, hits, locks, winner."""
    with _language(lang):
        view = game_log(game=game)
        _seat, typed, canonical = entry_read(text=text, to_move=view.replay.state.to_move)
        result = _extend(game, view, typed, canonical)
    before, after = view.replay.position, result.position
    changes = []
    for colour in SEATS:
        old, new = list(before.pawns(colour)), list(after.pawns(colour))
        for loc in before.pawns(colour):
            if loc in new:
                new.remove(loc)
                old.remove(loc)
        if old or new:
            changes.append({"colour": colour, "from": old, "to": new})
    return {
        "entry": canonical,
        "changes": changes,
        "events": [e.to_json() for e in result.events[-1]],
        "position": after.to_json(),
        "winner": result.winner,
    }


def _clock_stop(game: Game) -> None:
    """Stop the game clock when the engine reports a winner."""
    clock_stop(game=game)


# --- take-back ------------------------------------------------------------


def move_take_back(*, game: Game, client_id: str, seq: int) -> dict[str, Any]:
    """Withdraw the table's own last entry (only the last one, until the next is made).

    Rulings stay (RULES.md J2): a judge entry is never taken back, and so
    never an entry before one; nor an entry the table did not log (an
    imported record). Only a judge undoes a ruling, with an entry of their
    own (``judging.services.ruling_undo``). The row stays for the
    audit trail, marked withdrawn; a repeated request for an entry already
    withdrawn by the same device changes nothing.
    """
    client_id = _check_client_id(client_id)
    with transaction.atomic():
        game = _lock(game)
        _check_writable(game)
        entry = active_entries(game=game).filter(seq=seq).first()
        if entry is None:
            withdrawn = MoveEntry.objects.filter(
                game=game, seq=seq, withdrawn_by=client_id, withdrawn_at__isnull=False
            ).exists()
            if withdrawn:
                return _answer_state(game)
            raise NotFound(
                "entry_not_found",
                f"There is no entry {seq} in this game's log.",
                f"Der er ingen post {seq} i dette spils log.",
            )
        later = active_entries(game=game).filter(seq__gt=seq).order_by("seq")
        ruling = later.filter(source=MoveEntry.Source.JUDGE).first()
        if ruling is not None:
            raise _not_the_tables(ruling)
        if later.exists():
            raise Conflict(
                "take_back_too_late",
                "Only the table's last entry can be taken back, and only until the next entry "
                "is made. Call a judge to correct an older entry.",
                "Kun bordets sidste post kan trækkes tilbage, og kun indtil den næste post er "
                "lavet. Tilkald en dommer for at rette en ældre post.",
            )
        if entry.source not in _TABLE_SOURCES:
            raise _not_the_tables(entry)
        entry.withdrawn_at = timezone.now()
        entry.withdrawn_by = client_id
        entry.save(update_fields=["withdrawn_at", "withdrawn_by"])
        # A confirmation was given for the log as it was.
        ResultConfirmation.objects.filter(game=game).delete()
        return _answer_state(game)


# Entries the table logged itself (demo data stands in for a table's play).
_TABLE_SOURCES = (MoveEntry.Source.TABLE, MoveEntry.Source.DEMO)


def _not_the_tables(entry: MoveEntry) -> Conflict:
    if entry.source == MoveEntry.Source.JUDGE:
        return Conflict(
            "J2",
            f"Entry {entry.seq} is a judge's ruling: the table cannot take it back, nor any "
            "entry before it. Only a judge of this tournament can undo a ruling.",
            f"Post {entry.seq} er en dommerkendelse: bordet kan ikke trække den tilbage og "
            "heller ingen post før den. Kun en dommer i denne turnering kan omgøre en "
            "kendelse.",
            extra={"rule": "J2", "seq": entry.seq},
        )
    return Conflict(
        "J2",
        f"Entry {entry.seq} was not logged at this table (it was imported), so the table "
        "cannot take it back. Call a judge to correct it.",
        f"Post {entry.seq} blev ikke logget ved dette bord (den blev importeret), så bordet "
        "kan ikke trække den tilbage. Tilkald en dommer for at rette den.",
        extra={"rule": "J2", "seq": entry.seq},
    )


# --- result ---------------------------------------------------------------


def game_result_confirm(*, game: Game, pair_side: str, client_id: str) -> dict[str, Any]:
    """One player of a pair confirms the engine's winner; both pairs → the result counts."""
    client_id = _check_client_id(client_id)
    if pair_side not in ("YB", "RG"):
        raise _bad_request(
            "pair_side_invalid",
            "pair_side is YB (Yellow/Blue) or RG (Red/Green).",
            "pair_side er YB (gul/blå) eller RG (rød/grøn).",
        )
    with transaction.atomic():
        game = _lock(game)
        if game.status == Game.Status.FINISHED and game.result_source == Game.ResultSource.LOG:
            return _answer_state(game)
        _check_writable(game)
        view = game_log(game=game)
        if not view.winner:
            raise Conflict(
                "no_winner_yet",
                "The game is not over yet: a result can only be confirmed once a pair has "
                "locked all eight pawns.",
                "Spillet er ikke slut endnu: et resultat kan først bekræftes, når et par har "
                "låst alle otte brikker.",
            )
        ResultConfirmation.objects.get_or_create(
            game=game,
            pair_side=pair_side,
            defaults={"client_id": client_id, "seq": view.seq, "log_hash": view.last_hash},
        )
        if ResultConfirmation.objects.filter(game=game, log_hash=view.last_hash).count() == 2:
            _record_result(game, view)
        return _answer_state(game)


def _record_result(game: Game, view: LogView) -> None:
    from games.services.results import game_result_record

    position = view.replay.position
    locked = {s: len(position.locked(s)) for s in SEATS}
    game_result_record(
        game=game,
        actor=None,
        winner=view.winner,
        source="log",
        locked_yb=locked["Y"] + locked["B"],
        locked_rg=locked["R"] + locked["G"],
        distance_yb=view.distance["YB"],
        distance_rg=view.distance["RG"],
        timed_out=False,
        note=f"move log #{view.seq} {short_hash(view.last_hash)}",
    )
    Game.objects.filter(pk=game.pk).exclude(status=Game.Status.FINISHED).update(
        status=Game.Status.FINISHED, finished_at=timezone.now()
    )
    game.refresh_from_db()


# --- import / export ------------------------------------------------------


def game_record_export(*, game: Game) -> dict[str, Any]:
    """The game's active log as a NOTATION.md game record with the players' names."""
    moves = list(active_entries(game=game).values_list("text", flat=True))
    return game_record(game=game, moves=moves, players=game_players(game=game))


def _record_refused(why_en: str, why_da: str) -> ApplicationError:
    return _illegal(
        "N", f"The game record cannot be used: {why_en}", f"Spilleloggen kan ikke bruges: {why_da}"
    )


def game_record_import(*, game: Game, actor: Any, record: object) -> dict[str, Any]:
    """Store a game played on paper: the whole record is checked by the engine first.

    Only a judge or organiser of the event may import, only into a game
    without log entries; the first illegal entry is reported and nothing is
    stored.
    """
    tournament = game.round.tournament
    require_judge(actor, tournament)
    if not isinstance(record, dict) or not isinstance(record.get("moves"), list):
        raise _record_refused(
            "it must be a JSON object with a list 'moves'.",
            "den skal være et JSON-objekt med en liste 'moves'.",
        )
    if record.get("ruleset", tournament.ruleset) != tournament.ruleset:
        raise _record_refused(
            f"it is for the ruleset {record.get('ruleset')!r}; this event plays "
            f"{tournament.ruleset!r}.",
            f"den er til regelsættet {record.get('ruleset')!r}; denne turnering spiller "
            f"{tournament.ruleset!r}.",
        )
    if record.get("first_dealer", game.first_dealer) != game.first_dealer:
        raise _record_refused(
            f"its first dealer is {record.get('first_dealer')!r}, but this table's is "
            f"{game.first_dealer!r}.",
            f"dens første kortgiver er {record.get('first_dealer')!r}, men dette bords er "
            f"{game.first_dealer!r}.",
        )
    moves = record["moves"]
    if len(moves) > 5000 or not all(isinstance(m, str) for m in moves):
        raise _record_refused(
            "'moves' must be a list of entry texts.", "'moves' skal være en liste af poster."
        )
    _record_start_check(record.get("start"))
    with transaction.atomic():
        game = _lock(game)
        _check_writable(game)
        if active_entries(game=game).exists():
            raise Conflict(
                "log_not_empty",
                "This game already has logged moves; a record can only be imported into an "
                "empty log.",
                "Dette spil har allerede loggede træk; en spillelog kan kun importeres til en "
                "tom log.",
            )
        texts = _store_record(game, moves, MoveEntry.Source.IMPORT)
        AuditEntry.objects.create(
            tournament=tournament,
            actor=actor,
            action="game_record_import",
            target=str(game),
            data={"entries": len(texts)},
        )
        state = game_state(game=game)
        if state["winner"]:
            _clock_stop(game)
        return state


def _record_start_check(start: object) -> None:
    """A record's ``start`` must be the position a table's log starts from.

    A table's log always replays from every pawn in its start circle; a
    record from another position cannot be stored as it is (a judge sets
    the position with ``! SET`` instead), and an unreadable one is named.
    """
    if start is None:
        return
    try:
        position = Position.from_json(start)  # type: ignore[arg-type]
    except EngineError as err:
        raise _record_refused(
            f"its start position cannot be read ({err.message_en}).",
            f"dens startstilling kan ikke læses ({err.message_da}).",
        ) from None
    if position != Position.initial():
        raise _record_refused(
            "it starts from another position than every pawn in its start circle; a table's "
            "log starts there. Import the moves without 'start' and let a judge set the "
            "position (! SET).",
            "den starter fra en anden stilling end alle brikker i startcirklen; et bords log "
            "starter der. Importér trækkene uden 'start', og lad en dommer sætte stillingen "
            "(! SET).",
        )


def _store_record(game: Game, moves: list[str], source: str) -> list[str]:
    """Check a list of entries with the engine and store them (the log must be empty)."""
    result = replay(game_record(game=game, moves=moves))
    if not result.ok:
        err = result.first_error
        raise _illegal(
            err.rule,
            f"Entry {err.index + 1} ({err.move}): {err.message}",
            f"Post {err.index + 1} ({err.move}): {err.message_da}",
            index=err.index,
            move=err.move,
        )
    prev = game_log(game=game).last_hash
    entries: list[_NewEntry] = []
    batch = uuid.uuid4().hex[:12]
    for seq, (text, events) in enumerate(zip(moves, result.events, strict=True), start=1):
        if text.startswith("!"):  # a judge entry, already checked by the replay
            seat, canonical = "", " ".join(text.split())
        else:
            seat, _typed, canonical = entry_read(text=text, to_move=None)
        entries.append(
            _NewEntry(
                text=canonical,
                client_id=f"{source}-{batch}-{seq}",
                events=[e.to_json() for e in events],
                seat=seat,
                source=source,
            )
        )
    rows = _chained(game, prev_hash=prev, first_seq=1, entries=entries)
    MoveEntry.objects.bulk_create(rows, batch_size=500)
    return [entry.text for entry in entries]


# --- demo data ------------------------------------------------------------


def demo_fill_logs(*, tournament: Any, seed: int = 0) -> int:
    """Give the demo tournament's games move logs; returns how many games got one.

    Games with a result but no log get a complete self-play game won by the
    same pair where a few seeds allow it (otherwise the result is taken from
    the self-play game); games of the round in progress get the first moves
    of a self-play game.
    """
    rng = random.Random(seed)
    filled = 0
    games = Game.objects.select_related("round__tournament").filter(round__tournament=tournament)
    for game in games.order_by("round__number", "table_number"):
        if MoveEntry.objects.filter(game=game).exists():
            continue
        result_from_log = False
        if game.winner:
            moves, result_from_log = _demo_complete(game, rng)
        elif game.round.status == game.round.Status.IN_PROGRESS:
            record = selfplay_game(rng.randrange(1 << 30), first_dealer=game.first_dealer)
            moves = record["moves"][: rng.randrange(8, min(80, len(record["moves"]) - 1))]
        else:
            continue
        with transaction.atomic():
            locked_game = _lock(game)
            _store_record(locked_game, moves, MoveEntry.Source.DEMO)
            if result_from_log:
                _record_result(locked_game, game_log(game=locked_game))
        filled += 1
    return filled


def _demo_complete(game: Game, rng: random.Random) -> tuple[list[str], bool]:
    """A self-play game won by the game's winner if one of a few seeds gives one.

    Otherwise the last one tried, and True: the log is the truth, so the
    result must then follow it.
    """
    moves: list[str] = []
    for _attempt in range(8):
        record = selfplay_game(rng.randrange(1 << 30), first_dealer=game.first_dealer)
        moves = list(record["moves"])
        if replay(record).winner == game.winner:
            return moves, False
    return moves, True
