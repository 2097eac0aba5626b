"""Judge pages: thin views over the judging selectors."""

from __future__ import annotations

import json
from typing import Any

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.csrf import ensure_csrf_cookie

from core.errors import ApplicationError, PermissionDenied
from core.request import field_int, query_int, query_text
from core.validation import InputRefused
from games.engine import get_ruleset
from games.judge_words import judge_entry_words
from games.models import MAX_ENTRY_NUMBER, Game
from games.selectors import game_players, game_state
from games.selectors.clock import clock_state
from games.services.clock import clock_resume
from games.services.judges import JudgeAtEvent, JudgeAtGame
from judging.forms import ReviewPostForm
from judging.selectors_polling import judge_dashboard_answer
from judging.selectors_review import (
    game_review,
    game_rulings,
    incidents_for_pairs,
    rule_html,
    rulings_search,
    table_judge_status,
)
from judging.selectors_timeout import is_timed_out, proposal_text, timeout_proposal
from judging.serializers import (
    MAX_ID,
    RULE_ID_LENGTH,
    SEARCH_LENGTH,
    CallInputSerializer,
    RulingInputSerializer,
    RulingUndoInputSerializer,
    refusal_error,
)
from judging.services.calls import judge_call_close, judge_call_find, judge_call_take
from judging.services.ruling_undo import ruling_undo
from judging.services.rulings import JudgeAtTable, RulingOutcome, ruling_make, void_preview
from tournament.models import Tournament
from tournament.permissions import is_judge


def _texts() -> dict[str, str]:
    """Words the dashboard script writes, in the active language."""
    return {
        "yb": _("Yellow/Blue"),
        "rg": _("Red/Green"),
        "table": _("Table"),
        "elapsed": _("Played"),
        "remaining": _("Left"),
        "moves": _("Moves"),
        "progress": _("Progress"),
        "on_my_way": _("On my way"),
        "on_my_way_to": _("On my way to table %(table)s"),
        "on_my_way_all": _("On my way to all %(count)s"),
        "tables_one": _("%(count)s table"),
        "tables_many": _("%(count)s tables"),
        "tables_label": _("Tables"),
        "show_more": _("Show the other %(count)s tables"),
        "acknowledged": _("Acknowledged alerts (%(count)s)"),
        "acknowledged_by": _("On the way: %(name)s at %(time)s"),
        "review": _("Replay and rule"),
        "clock_controls": _("Clock: pause, extend"),
        "pause": _("Pause"),
        "resume": _("Resume"),
        "extend": _("Extend"),
        "minutes": _("Minutes"),
        "reason": _("Reason"),
        "reason_required": _("Give a reason for the extra time."),
        "no_tables": _("No tables in this round yet."),
        "no_alerts": _("No open alerts."),
        "offline": _("No connection — retrying…"),
        "extended": _("+%(minutes)s min: %(reason)s"),
    }


@ensure_csrf_cookie
def judge_dashboard_page(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_object_or_404(Tournament, slug=slug)
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not is_judge(request.user, tournament):
        error = PermissionDenied(
            gettext_lazy(
                "Only a judge or organiser of this tournament may open the judge dashboard."
            ),
        )
        return render(request, "tournament/forbidden.html", {"error": error}, status=403)
    answer = judge_dashboard_answer(tournament=tournament)
    config = {
        "dashboard_url": reverse("api:judge-dashboard", args=[slug]),
        "push_url": reverse("push", args=["judging", slug]),
        "ack_url": reverse("api:alert-acknowledge", args=[0]),
        "ack_all_url": reverse("api:alerts-acknowledge", args=[slug]),
        "review_url": reverse("judging:review", args=[slug, 0]),
        "clock_url": reverse("api:game-clock", args=[0]),
        "texts": _texts(),
        # The first poll gets 304 if nothing changed; clocks count on from server_time to now.
        "etag": answer.etag,
        "server_now": round(timezone.now().timestamp(), 3),
    }
    return render(
        request,
        "judging/dashboard.html",
        {"tournament": tournament, "config": config, "initial": json.loads(answer.body)},
    )


# --- calls, review, rulings -----------------------------------------------------


def _judge_or_forbidden(
    request: HttpRequest, tournament: Tournament
) -> JudgeAtEvent | HttpResponse:
    """The judge, checked once for the whole request: the login or the 403 page if not."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    try:
        return JudgeAtEvent(tournament, request.user)
    except PermissionDenied:
        error = PermissionDenied(
            gettext_lazy("Only a judge or organiser of this tournament may open this page."),
        )
        return render(request, "tournament/forbidden.html", {"error": error}, status=403)


def _game(tournament: Tournament, game_id: int) -> Game:
    return get_object_or_404(
        Game.objects.select_related(
            "round__tournament", "pair_yb__player_1", "pair_yb__player_2",
            "pair_rg__player_1", "pair_rg__player_2",
        ),
        pk=game_id,
        round__tournament=tournament,
    )  # fmt: skip


def _at(request: HttpRequest) -> int | None:
    """The entry the replay viewer shows (``?at=``)."""
    return field_int(request.GET, "at", minimum=0, maximum=MAX_ENTRY_NUMBER)


def _review_context(judge: JudgeAtEvent, game: Game, at: int | None) -> dict[str, Any]:
    tournament = judge.tournament
    review = game_review(game=game, at=at)
    entry = review["entry"]
    void_effects: list[dict[str, Any]] = []
    if entry and not entry["text"].startswith("!") and not entry["mark"]:
        try:
            # A fresh table: a refused ruling may have read the log before.
            table = JudgeAtTable.of(judge, game)
            void_effects = void_preview(table=table, seq=entry["seq"])
        except ApplicationError:
            void_effects = []
    state = game_state(game=game, with_entries=False, with_legal=False)
    call = table_judge_status(game=game)["call"]
    timed_out = is_timed_out(game)
    proposal = timeout_proposal(game=game) if timed_out else None
    return {
        "tournament": tournament,
        "game": game,
        "review": review,
        "entry": entry,
        "void_effects": void_effects,
        # In the position's own keys: Y R B G, or the DUO areas YK RK YO RO.
        "position_text": " ".join(
            f"{key}={','.join(pawns)}" for key, pawns in state.position.items()
        ),
        "players": game_players(game=game),
        "call": call,
        "rulings": game_rulings(game=game),
        "incidents": incidents_for_pairs(tournament=tournament, pairs=[game.pair_yb, game.pair_rg]),
        "timed_out": timed_out,
        "proposal": proposal,
        "proposal_text": proposal_text(game, proposal) if proposal else "",
        "clock_url": reverse("api:game-clock", args=[game.pk]),
        "clock": clock_state(game=game),
        "board_data": {
            "position": review["position"],
            "locked": review["locked"],
            "highlight": entry["highlight"] if entry else [],
        },
    }


@ensure_csrf_cookie
def game_review_page(request: HttpRequest, slug: str, game_id: int) -> HttpResponse:
    """The replay viewer and the ruling forms for one table."""
    tournament = get_object_or_404(Tournament, slug=slug)
    judge = _judge_or_forbidden(request, tournament)
    if isinstance(judge, HttpResponse):
        return judge
    game = _game(tournament, game_id)
    return render(request, "judging/review.html", _review_context(judge, game, _at(request)))


def game_rule(request: HttpRequest, slug: str, game_id: int) -> HttpResponse:
    """POST a ruling from the review page's forms; errors come back on the same page."""
    tournament = get_object_or_404(Tournament, slug=slug)
    judge = _judge_or_forbidden(request, tournament)
    if isinstance(judge, HttpResponse):
        return judge
    game = _game(tournament, game_id)
    if request.method != "POST":
        return redirect("judging:review", slug=slug, game_id=game.pk)
    form = ReviewPostForm(request.POST)
    valid = form.is_valid()
    posted = form.cleaned_data
    at = posted.get("at")
    try:
        if not valid:
            raise form.refusal()
        done = _act(judge, game, posted["action"], form)
    except (ApplicationError, InputRefused) as refused:
        error = refusal_error(refused) if isinstance(refused, InputRefused) else refused
        context = _review_context(judge, game, at)
        context["error"] = error
        context["form"] = posted
        context["action"] = posted.get("action", "")  # its form opens again, the error above
        return render(request, "judging/review.html", context, status=error.status_code)
    messages.success(request, done)
    url = reverse("judging:review", args=[slug, game.pk])
    return redirect(f"{url}?at={at}" if at is not None else url)


def _act(judge: JudgeAtEvent, game: Game, action: str, form: ReviewPostForm) -> str:
    """Do what the review page's button asks, its fields checked first; what was done.

    ``judge`` is the page's one check of who acts: every write takes it as it is.
    """
    data = form.ruling_data()
    if action in ("take", "close"):
        call = CallInputSerializer(data=data)
        call.is_valid(raise_exception=True)
        found = judge_call_find(call.validated_data["call"] or 0)
        if action == "take":
            judge_call_take(call=found, judge=judge)
            return _("You have taken the call: the table sees that you are on the way.")
        return judge_call_close(call=found, judge=judge).message
    if action == "resume":
        clock_resume(judge=JudgeAtGame.of(judge, game))
        return _("The clock runs again.")
    if action == "undo":
        undo = RulingUndoInputSerializer(data=data)
        undo.is_valid(raise_exception=True)
        ruling_id = form.cleaned_data["ruling"] or 0
        ruling_undo(ruling_id=ruling_id, judge=judge, **undo.validated_data)
        return _("The ruling is undone: the log shows it, with your reason.")
    table = JudgeAtTable.of(judge, game)
    # The button names the ruling: the API's kind.
    ruling = RulingInputSerializer(
        data={**data, "kind": action}, context={"ruleset": table.ruleset}
    )
    ruling.is_valid(raise_exception=True)
    return _ruling_done(ruling_make(table=table, request=ruling.ruling))


def _ruling_done(outcome: RulingOutcome) -> str:
    """What the ruling did, in a sentence or two: the log entries and the call."""
    ruling = outcome.ruling
    rules = get_ruleset(ruling.game.round.tournament.ruleset)
    entries = "; ".join(judge_entry_words(str(e["text"]), rules) for e in ruling.log_entries)
    done = (
        _("Ruling recorded in the game's log: %(kind)s (%(entries)s).")
        % {"kind": ruling.get_kind_display(), "entries": entries}
        if entries
        else _("Ruling recorded: %(kind)s.") % {"kind": ruling.get_kind_display()}
    )
    if outcome.call is not None:
        return f"{done} {outcome.call.message}"
    if ruling.call_id is not None:
        return f"{done} {_('The judge call stays open.')}"
    return done


def rulings_page(request: HttpRequest, slug: str) -> HttpResponse:
    """Every ruling of the event, searchable by rule id and by text."""
    tournament = get_object_or_404(Tournament, slug=slug)
    denied = _judge_or_forbidden(request, tournament)
    if isinstance(denied, HttpResponse):
        return denied
    q = query_text(request, "q", max_length=SEARCH_LENGTH)
    rule = query_text(request, "rule", max_length=RULE_ID_LENGTH)
    rulings = rulings_search(tournament=tournament, q=q, rule=rule)
    return render(
        request,
        "judging/rulings.html",
        {"tournament": tournament, "rulings": rulings, "q": q, "rule": rule,
         "rule_html": rule_html(rule, ruleset=tournament.ruleset) if rule else ""},
    )  # fmt: skip


def incidents_page(request: HttpRequest, slug: str) -> HttpResponse:
    """Incident history per pair across the event (calls, refusals, penalties, rulings)."""
    tournament = get_object_or_404(Tournament, slug=slug)
    denied = _judge_or_forbidden(request, tournament)
    if isinstance(denied, HttpResponse):
        return denied
    pairs = list(tournament.pairs.select_related("player_1", "player_2").order_by("start_number"))
    pair_id = query_int(request, "pair", minimum=1, maximum=MAX_ID)
    if pair_id is not None:
        pairs = [p for p in pairs if p.pk == pair_id]
    incidents = incidents_for_pairs(tournament=tournament, pairs=pairs)
    if pair_id is None:
        incidents = [
            i for i in incidents if i["calls"] or i["refusals"] or i["penalties"] or i["rulings"]
        ]
    return render(
        request, "judging/incidents.html", {"tournament": tournament, "incidents": incidents}
    )
