"""A table takes back its own last entry."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from core.errors import Conflict, NotFound
from games.models import Game, MoveEntry, ResultConfirmation
from games.push import game_changed
from games.selectors import TableState, active_entries
from games.services.move_log._common import (
    answer_state,
    check_writable,
    lock_game,
)


def move_take_back(*, game: Game, client_id: str, seq: int) -> TableState:
    """Withdraw the table's own last entry (only the last one, until the next is made).

    Rulings stay (RULES.md J2): a judge entry is never taken back, and so
    never an entry before one; nor an entry the table did not log (an
    imported record). Only a judge undoes a ruling, with an entry of their
    own (``judging.services.ruling_undo``). The row stays for the
    audit trail, marked withdrawn; a repeated request for an entry already
    withdrawn by the same device changes nothing.
    """
    with transaction.atomic():
        game = lock_game(game)
        check_writable(game)
        entry = active_entries(game=game).filter(seq=seq).first()
        if entry is None:
            withdrawn = MoveEntry.objects.filter(
                game=game, seq=seq, withdrawn_by=client_id, withdrawn_at__isnull=False
            ).exists()
            if withdrawn:
                return answer_state(game)
            raise NotFound(
                "entry_not_found",
                _("There is no entry %(seq)s in this game's log."),
                params={"seq": seq},
            )
        later = active_entries(game=game).filter(seq__gt=seq).order_by("seq")
        ruling = later.filter(source=MoveEntry.Source.JUDGE).first()
        if ruling is not None:
            raise _not_the_tables(ruling)
        if later.exists():
            raise Conflict(
                "take_back_too_late",
                _(
                    "Only the table's last entry can be taken back, and only until the next "
                    "entry is made. Call a judge to correct an older entry."
                ),
            )
        if entry.source not in _TABLE_SOURCES:
            raise _not_the_tables(entry)
        entry.withdrawn_at = timezone.now()
        entry.withdrawn_by = client_id
        entry.save(update_fields=["withdrawn_at", "withdrawn_by"])
        game_changed(game=game, kind="move")
        # A confirmation was given for the log as it was.
        ResultConfirmation.objects.filter(game=game).delete()
        return answer_state(game)


# Entries the table logged itself (demo data stands in for a table's play).
_TABLE_SOURCES = (MoveEntry.Source.TABLE, MoveEntry.Source.DEMO)


def _not_the_tables(entry: MoveEntry) -> Conflict:
    if entry.source == MoveEntry.Source.JUDGE:
        return Conflict(
            "J2",
            _(
                "Entry %(seq)s is a judge's ruling: the table cannot take it back, nor "
                "any entry before it. Only a judge of this tournament can undo a ruling."
            ),
            params={"seq": entry.seq},
            extra={"rule": "J2", "seq": entry.seq},
        )
    return Conflict(
        "J2",
        _(
            "Entry %(seq)s was not logged at this table (it was imported), so the "
            "table cannot take it back. Call a judge to correct it."
        ),
        params={"seq": entry.seq},
        extra={"rule": "J2", "seq": entry.seq},
    )
