"""Judge calls: a table asks for a judge; a judge takes the call and closes it.

A call is made with the table's token (no account), a take or close by a
judge of the event. With ``Tournament.pause_clock_on_call`` the table's clock
pauses while the call is open, so the time lost is exact and visible.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, cast

from django.db import IntegrityError, transaction
from django.utils import timezone, translation
from django.utils.translation import gettext_lazy as _

from core.errors import ApplicationError, Conflict, NotFound, Text, in_language
from games.models import Game
from games.selectors import game_log
from games.selectors.clock import clock_state
from games.services import clock as clock_service
from games.services.judges import JudgeAtEvent, JudgeAtGame
from judging.models import JudgeCall, Ruling
from judging.services.freshness import judging_changed


def _entry_text(game: Game, seq: int | None) -> tuple[int | None, str]:
    if not seq:
        return None, ""
    # The log's replayed view holds the entries: no table state, no legal moves.
    for entry in game_log(game=game).entries:
        if entry.seq == seq:
            return seq, entry.text
    raise NotFound(
        "entry_not_found",
        _("There is no entry %(seq)s in this game's log."),
        params={"seq": seq},
    )


def judge_call_create(
    *, game: Game, client_id: str, reason: str = "", seq: int | None = None
) -> JudgeCall:
    """A table calls a judge (optionally about one entry). A repeat returns the same call.

    One call per table is open at a time: calling again while a call is open
    returns that call, so a double tap never makes two. The values come
    checked (``judging.serializers.TableCallInputSerializer``).
    """
    if game.status == Game.Status.FINISHED:
        raise Conflict(
            "game_finished",
            _("This game is finished; ask the judge desk directly."),
        )
    seq, entry_text = _entry_text(game, seq)
    tournament = game.round.tournament
    with transaction.atomic():
        locked = Game.objects.select_for_update(of=("self",)).get(pk=game.pk)
        same = JudgeCall.objects.filter(game=locked, client_id=client_id).first()
        if same is not None:
            return same
        open_call = JudgeCall.objects.filter(
            game=locked, status__in=[JudgeCall.Status.OPEN, JudgeCall.Status.TAKEN]
        ).first()
        if open_call is not None:
            return open_call
        try:
            with transaction.atomic():
                call = JudgeCall.objects.create(
                    tournament=tournament,
                    game=locked,
                    seq=seq,
                    entry_text=entry_text,
                    reason=reason,
                    client_id=client_id,
                )
        except IntegrityError:
            # The unique open call per table that made the insert fail.
            return cast(
                JudgeCall, JudgeCall.objects.filter(game=locked).exclude(status="closed").first()
            )
        judging_changed(tournament_id=tournament.pk)
        if tournament.pause_clock_on_call and _pause(locked, reason):
            call.paused_clock = True
            call.save(update_fields=["paused_clock"])
    return call


def _pause(game: Game, reason: str) -> bool:
    try:
        clock_service.clock_pause_for_call(game=game, reason=reason or "judge call")
    except ApplicationError:
        # Not started, already paused, time up or stopped: nothing to pause.
        return False
    return True


def judge_call_find(call_id: int) -> JudgeCall:
    """The call with its event and table, or a 404 (``call_not_found``)."""
    call = (
        JudgeCall.objects.select_related("tournament", "game__round__tournament")
        .filter(pk=call_id)
        .first()
    )
    if call is None:
        raise NotFound("call_not_found", _("No such judge call."))
    return call


def judge_call_take(*, call: JudgeCall, judge: JudgeAtEvent) -> JudgeCall:
    """A judge takes the call; the table sees who is coming. The first judge wins.

    ``call`` as ``judge_call_find`` found it; ``judge`` was checked where the
    request entered. A call of another event is refused as that check refuses
    (403) unless they judge that event too.
    """
    judge = judge.at_event(call.tournament)
    taken = JudgeCall.objects.filter(pk=call.pk, status=JudgeCall.Status.OPEN).update(
        status=JudgeCall.Status.TAKEN, taken_by=judge.actor, taken_at=timezone.now()
    )
    if taken:
        judging_changed(tournament_id=call.tournament_id)
    call.refresh_from_db()
    if not taken and call.status == JudgeCall.Status.CLOSED:
        raise Conflict("call_closed", _("This call is already closed."))
    return call


@dataclass(frozen=True)
class CallClosing:
    """What closing a call did: whether this closed it, and the table's clock after it.

    ``clock`` is ``"resumed"`` when the call had paused the clock and it runs
    again, else the clock's status as the clock API gives it (``"running"``,
    ``"paused"`` — paused by a judge's hand, which only a judge resumes —
    ``"time_up"``, ``"stopped"``, ``"not_started"``).
    """

    call: JudgeCall
    closed: bool
    clock: str
    paused_reason: str = ""

    def _text(self) -> Text:
        if not self.closed:
            return _("The call was already closed.")
        return {
            "resumed": _("The call is closed and the clock runs again."),
            "running": _("The call is closed; the clock is running."),
            "paused": _(
                "The call is closed, but the clock stays paused: it was paused by hand"
                "%(why)s. Resume it when play goes on."
            ),
            "time_up": _(
                "The call is closed. Time is up at this table: decide the result on time (W3)."
            ),
            "stopped": _("The call is closed; the game is over."),
        }.get(self.clock, _("The call is closed."))

    def _in(self, lang: str) -> str:
        why = f" ({self.paused_reason})" if self.paused_reason else ""
        return in_language(self._text(), lang, {"why": why} if self.clock == "paused" else None)

    @property
    def message_en(self) -> str:
        return self._in("en")

    @property
    def message_da(self) -> str:
        return self._in("da")

    @property
    def message(self) -> str:
        """What happened, in the active language (as ``ApplicationError.message``)."""
        english = (translation.get_language() or "da").startswith("en")
        return self.message_en if english else self.message_da

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.call.pk,
            "status": self.call.status,
            "closed_now": self.closed,
            "clock": self.clock,
            "message_en": self.message_en,
            "message_da": self.message_da,
        }


def judge_call_close(*, call: JudgeCall, judge: JudgeAtEvent) -> CallClosing:
    """Close the call; a clock the call paused runs again. Repeating changes nothing.

    A clock a judge paused by hand stays paused (the pause may be for
    something else); the outcome says so, and why, so the judge can resume it.
    ``call`` and ``judge`` as for a take; resuming the clock the call paused
    takes the judge at the call's table, not checked again.
    """
    return _close(call, JudgeAtGame.of(judge, call.game))


def judge_call_close_by_ruling(*, ruling: Ruling, judge: JudgeAtGame) -> CallClosing | None:
    """Close the call ``ruling`` answered (if any), as ``judge_call_close``: ``judge`` made it.

    The ruling's own permission check covers it: ``judging.services.rulings``
    made it at this call's table (``judge.game``) for the judge it had checked.
    """
    if ruling.call is None:
        return None
    return _close(ruling.call, judge)


def _close(call: JudgeCall, judge: JudgeAtGame) -> CallClosing:
    with transaction.atomic():
        closed = JudgeCall.objects.filter(pk=call.pk).exclude(status=JudgeCall.Status.CLOSED)
        changed = bool(
            closed.update(
                status=JudgeCall.Status.CLOSED, closed_by=judge.actor, closed_at=timezone.now()
            )
        )
        call.refresh_from_db()
        resumed = False
        if changed:
            judging_changed(tournament_id=call.tournament_id)
            if call.paused_clock:
                try:
                    clock_service.clock_resume(judge=judge)
                    resumed = True
                except ApplicationError:
                    pass  # resumed by hand, stopped or time up meanwhile: nothing to resume
        game = Game.objects.select_related("round__tournament").get(pk=call.game_id)
        state = clock_state(game=game)
    return CallClosing(
        call=call,
        closed=changed,
        clock="resumed" if resumed else state.status,
        paused_reason=state.paused_reason if state.status == "paused" else "",
    )
