"""A judge undoes a ruling (RULES.md J2): with a reason, as an entry in the log.

Rulings stay: a table's take-back never withdraws a judge entry. Only a judge
or organiser of the tournament undoes one, and the undo is itself a ruling
with its own judge entry (``! UNDO 14 15``: the judge entries the ruling
wrote no longer count; the engine replays the game without them). The undone
ruling keeps its row and is marked with the undo that took it back.
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from core.errors import Conflict, NotFound
from games.models import Game
from games.services.judges import JudgeAtEvent
from judging.models import Ruling
from judging.services.rulings import checked_entry, rule_of

# A result goes to the standings: it is changed by a new result ruling, not undone.
_NOT_UNDONE = (Ruling.Kind.UNDO, Ruling.Kind.RESULT, Ruling.Kind.ADJUDICATION)


def ruling_undo(*, ruling_id: int, judge: JudgeAtEvent, reason: str) -> Ruling:
    """Undo ruling ``ruling_id``: append ``! UNDO`` for its judge entries; the new ruling.

    Refused (nothing stored) for a ruling of another tournament (403), an
    undo or a result ruling, a ruling already undone, a finished game, and
    when the engine refuses the undo (a later entry that would no longer be
    legal must be voided first; 422 with that entry's rule). ``reason`` comes
    checked (``judging.serializers.RulingUndoInputSerializer``); ``judge`` was
    checked where the request entered (a ruling of another event is refused as
    that check refuses, 403, unless they judge that event too).
    """
    ruling = ruling_find(ruling_id)
    game = ruling.game
    actor = judge.at_event(game.round.tournament).actor
    _check_undoable(ruling, game)
    seqs = [int(e["seq"]) for e in ruling.log_entries]
    with transaction.atomic():
        undo = rule_of(
            game=game, actor=actor, kind=Ruling.Kind.UNDO, reason=reason, rule="J2",
            texts=[checked_entry("! UNDO " + " ".join(map(str, seqs)), game)], entry_seq=seqs[0],
            data={"undoes": ruling.pk, "entries": seqs},
        )  # fmt: skip
        # The claim: two judges undoing at once store one undo (the engine also
        # refuses a second UNDO of the same entries, J2).
        claimed = Ruling.objects.filter(pk=ruling.pk, undone_by__isnull=True).update(undone_by=undo)
        if not claimed:
            raise _already_undone(ruling)
    return undo


def ruling_find(ruling_id: int) -> Ruling:
    """The ruling with its game and event, or a 404 (``ruling_not_found``)."""
    found = (
        Ruling.objects.select_related("game__round__tournament", "undone_by")
        .filter(pk=ruling_id)
        .first()
    )
    if found is None:
        raise NotFound("ruling_not_found", _("No such ruling."))
    return found


def _already_undone(ruling: Ruling) -> Conflict:
    return Conflict(
        "J2",
        _("This ruling has already been undone."),
        extra={"rule": "J2", "ruling": ruling.pk},
    )


def _check_undoable(ruling: Ruling, game: Game) -> None:
    if ruling.undone_by_id is not None:
        raise _already_undone(ruling)
    if ruling.kind == Ruling.Kind.UNDO:
        raise Conflict(
            "J2",
            _("An undo cannot itself be undone: make the ruling again."),
            extra={"rule": "J2"},
        )
    if ruling.kind in _NOT_UNDONE:
        raise Conflict(
            "ruling_result_undo",
            _("A result is not undone: award or adjust the result with a new ruling."),
        )
    if game.status == Game.Status.FINISHED:
        raise Conflict(
            "game_finished",
            _("This game is finished: its log can no longer change."),
        )
    if not ruling.log_entries:
        raise Conflict(
            "ruling_without_entries",
            _("This ruling wrote nothing into the game's log, so there is nothing to undo."),
        )
