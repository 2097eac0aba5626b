"""Sign up, approve, reject, withdraw, and the waitlist moving up.

Every write locks the tournament row first, so two sign-ups arriving at once
can never both take the last place, and the waitlist moves in its order.
A pair with a place becomes the tournament's pair through the tournament's
registration service (no retyping). The values arrive checked by the sign-up
form or serializer, whose names are checked as the organiser's pair form
checks them (``tournament.validators``). Each change queues an email to the
contact address in the same transaction (signup.services.emails).
"""

from __future__ import annotations

import logging
from typing import Any

from django.db import transaction
from django.utils import formats, timezone, translation
from django.utils.translation import gettext_lazy as _

from core.errors import ApplicationError, Conflict, Text
from core.users import Actor
from people.services import persons_for_names
from signup.models import SignUp, SignUpEmail
from signup.selectors import ACTIVE, places_taken, waitlist
from signup.services.consent import signup_consent_release
from signup.services.emails import email_queue
from signup.services.links import new_nonce, signup_from_token
from tournament.models import Tournament
from tournament.permissions import require_organiser
from tournament.person_permissions import link_policy
from tournament.selectors_events import active_pairs
from tournament.services.audit import audit_record
from tournament.services.registration import pair_register_signed_up, pair_withdraw

logger = logging.getLogger(__name__)


def _invalid(
    code: str, message: Text, *, params: dict[str, Any] | None = None, **extra: Any
) -> ApplicationError:
    return ApplicationError(code, message, params=params, extra=extra or None)


def _lock(tournament: Tournament) -> Tournament:
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


def _entrant_players(clean: dict[str, str], *, singles: bool) -> None:
    """A pair's two different players, or in a singles event one (no partner, no pair name)."""
    if singles:
        for key in ("player_2", "pair_name"):
            if clean[key]:
                raise ApplicationError(
                    "singles_one_player",
                    _("This is a singles event: sign up one player (no partner, no pair name)."),
                    extra={"field": key},
                )
        return
    if not clean["player_2"]:
        raise ApplicationError(
            "field_required",
            _("%(field)s must not be empty."),
            params={"field": "player_2"},
            extra={"field": "player_2"},
        )
    if clean["player_1"].casefold() == clean["player_2"].casefold():
        raise _invalid(
            "pair_same_player",
            _("A pair needs two different players."),
        )


def _require_open(tournament: Tournament) -> None:
    closes_at = tournament.signup_closes_at
    if closes_at is None:
        raise Conflict(
            "signup_not_offered",
            _("This tournament has no online sign-up. Contact the organiser."),
        )
    if tournament.rounds.exists():
        raise Conflict(
            "signup_tournament_started",
            _("The tournament has started; sign-up is closed."),
        )
    if timezone.now() >= closes_at:
        when = formats.date_format(timezone.localtime(closes_at), "SHORT_DATETIME_FORMAT")
        raise Conflict(
            "signup_closed",
            _("Sign-up closed on %(when)s. Contact the organiser."),
            params={"when": when},
        )


def _require_new_players(tournament: Tournament, clean: dict[str, str]) -> None:
    """Neither player is in a pair of the event or in another active sign-up."""
    entered = [n for n in (clean["player_1"], clean["player_2"]) if n]
    names = {n.casefold() for n in entered}
    taken = {
        player.name.casefold()
        for pair in active_pairs(tournament=tournament)
        for player in pair.players
    }
    for signup in SignUp.objects.filter(tournament=tournament, status__in=ACTIVE):
        taken |= {n.casefold() for n in (signup.player_1, signup.player_2) if n}
    both = names & taken
    if both:
        who = " & ".join(n for n in entered if n.casefold() in both)
        raise Conflict(
            "signup_duplicate",
            _("%(who)s is already signed up for this tournament."),
            params={"who": who},
        )


def _has_place(tournament: Tournament) -> bool:
    capacity = tournament.signup_capacity
    return capacity is None or places_taken(tournament=tournament) < capacity


def _take_place(signup: SignUp, *, actor: Actor | None) -> None:
    """Give ``signup`` its place: pending approval, or a pair of the event at once."""
    tournament = signup.tournament
    if tournament.signup_approval and actor is None:
        signup.status = SignUp.Status.PENDING
        signup.save(update_fields=["status"])
        return
    persons = (signup.person_1,) if tournament.is_singles else (signup.person_1, signup.person_2)
    signup.pair = pair_register_signed_up(
        tournament=tournament,
        actor=actor,
        player_1=signup.player_1,
        player_2=signup.player_2,
        club=signup.club,
        name=signup.pair_name,
        persons=persons,  # type: ignore[arg-type]
    )
    signup.status = SignUp.Status.CONFIRMED
    signup.decided_at = timezone.now()
    signup.save(update_fields=["pair", "status", "decided_at"])


@transaction.atomic
def signup_submit(
    *,
    tournament: Tournament,
    client_id: str,
    player_1: str,
    email: str,
    player_2: str = "",
    consent: bool,
    club: str = "",
    pair_name: str = "",
) -> SignUp:
    """A pair signs up. Within the places it gets one (awaiting approval if
    the tournament asks for it), else it goes on the waitlist.

    ``client_id`` identifies the submission: sending the same form twice (a
    double tap, a retry after a lost answer) returns the first sign-up.
    """
    tournament = _lock(tournament)
    client_id = str(client_id or "")[:64]
    if not client_id:
        raise _invalid(
            "signup_form_stale",
            _("Reload the page and send the form again."),
        )
    repeat = SignUp.objects.filter(tournament=tournament, client_id=client_id).first()
    if repeat is not None:
        return repeat
    _require_open(tournament)
    if consent is not True and tournament.is_singles:
        raise ApplicationError(
            "signup_consent_required",
            _("The player must agree that their name and results are published."),
            extra={"field": "consent"},
        )
    if consent is not True:
        raise _invalid(
            "signup_consent_required",
            _("Both players must agree that their names and results are published."),
            field="consent",
        )
    clean = {
        "player_1": player_1,
        "player_2": player_2,
        "club": club,
        "pair_name": pair_name,
        "email": email,
    }
    _entrant_players(clean, singles=tournament.is_singles)
    _require_new_players(tournament, clean)
    # Places freed since the last sweep go to the waitlist first, not to this newcomer.
    _advance(tournament)
    now = timezone.now()
    names = [n for n in (clean["player_1"], clean["player_2"]) if n]
    person_1, *others = persons_for_names(
        [(n, clean["club"]) for n in names],
        may_link=link_policy(tournament),
        context=f"tournament:{tournament.pk}",
    )
    person_2 = others[0] if others else None
    signup = SignUp.objects.create(
        tournament=tournament,
        status=SignUp.Status.WAITLISTED,
        language=(translation.get_language() or "da")[:2],
        consent_at=now,
        person_1=person_1,
        person_2=person_2,
        client_id=client_id,
        link_nonce=new_nonce(),
        # The box agreed to the terms; publication waits for the address's
        # owner to open the confirmation link the first email carries.
        consent_nonce=new_nonce(),
        **clean,
    )
    if _has_place(tournament):
        _take_place(signup, actor=None)
    kind = {
        SignUp.Status.PENDING: SignUpEmail.Kind.RECEIVED,
        SignUp.Status.CONFIRMED: SignUpEmail.Kind.CONFIRMED,
        SignUp.Status.WAITLISTED: SignUpEmail.Kind.WAITLISTED,
    }[SignUp.Status(signup.status)]
    email_queue(signup=signup, kind=kind)
    audit_record(
        tournament=tournament,
        actor=None,
        action="signup_submit",
        target=signup,
        data={"signup": signup.pk, "status": signup.status},
    )
    return signup


def _locked_signup(signup: SignUp) -> tuple[Tournament, SignUp]:
    tournament = _lock(signup.tournament)
    signup = SignUp.objects.select_for_update(of=("self",)).select_related("pair").get(pk=signup.pk)
    signup.tournament = tournament
    return tournament, signup


def _set_decided(signup: SignUp, status: str, *, note: str = "") -> None:
    signup.status, signup.note, signup.decided_at = status, note, timezone.now()
    signup.save(update_fields=["status", "note", "decided_at"])


@transaction.atomic
def signup_approve(*, signup: SignUp, actor: Actor) -> SignUp:
    """The organiser gives a pending sign-up its place: it becomes a pair of the event."""
    require_organiser(actor, signup.tournament)
    tournament, signup = _locked_signup(signup)
    if signup.status != SignUp.Status.PENDING:
        raise Conflict(
            "signup_not_pending",
            _("This sign-up is not awaiting approval (%(status)s)."),
            params={"status": SignUp.Status(signup.status).label},
        )
    _take_place(signup, actor=actor)
    email_queue(signup=signup, kind=SignUpEmail.Kind.CONFIRMED)
    audit_record(tournament=tournament, actor=actor, action="signup_approve", target=signup)
    return signup


@transaction.atomic
def signup_reject(*, signup: SignUp, actor: Actor, note: str = "") -> SignUp:
    """The organiser turns down a pending or waitlisted sign-up; its place goes on."""
    require_organiser(actor, signup.tournament)
    tournament, signup = _locked_signup(signup)
    if signup.status not in (SignUp.Status.PENDING, SignUp.Status.WAITLISTED):
        raise Conflict(
            "signup_not_open",
            _(
                "Only a sign-up awaiting approval or on the waitlist can be turned down "
                "(%(status)s)."
            ),
            params={"status": SignUp.Status(signup.status).label},
        )
    _set_decided(signup, SignUp.Status.REJECTED, note=" ".join(str(note or "").split())[:500])
    email_queue(signup=signup, kind=SignUpEmail.Kind.REJECTED)
    audit_record(tournament=tournament, actor=actor, action="signup_reject", target=signup)
    _advance(tournament)
    return signup


def _withdraw(tournament: Tournament, signup: SignUp, *, actor: Actor | None) -> SignUp:
    if signup.status not in ACTIVE:
        raise Conflict(
            "signup_already_withdrawn",
            _("This sign-up has already been withdrawn or turned down."),
        )
    pair = signup.pair
    # Withdrawn (without its pair) before the pair goes: a confirmed sign-up
    # must always have one (signup_confirmed_has_pair).
    signup.status, signup.pair, signup.withdrawn_at = SignUp.Status.WITHDRAWN, None, timezone.now()
    signup.save(update_fields=["status", "pair", "withdrawn_at"])
    if pair is not None:
        pair_withdraw(pair=pair, actor=actor)
    signup_consent_release(signup=signup)
    email_queue(signup=signup, kind=SignUpEmail.Kind.WITHDRAWN)
    audit_record(tournament=tournament, actor=actor, action="signup_withdraw", target=signup)
    _advance(tournament)
    return signup


@transaction.atomic
def signup_withdraw_by_link(*, token: str) -> SignUp:
    """The pair withdraws through its private link (the link is the credential)."""
    signup = signup_from_token(token=token)
    tournament, signup = _locked_signup(signup)
    return _withdraw(tournament, signup, actor=None)


@transaction.atomic
def signup_withdraw(*, signup: SignUp, actor: Actor) -> SignUp:
    """The organiser withdraws a sign-up for the pair (told at the desk, by phone)."""
    require_organiser(actor, signup.tournament)
    tournament, signup = _locked_signup(signup)
    return _withdraw(tournament, signup, actor=actor)


@transaction.atomic
def signup_link_renew(*, signup: SignUp, actor: Actor) -> SignUp:
    """A new private link, mailed to the contact address; the old one stops working."""
    require_organiser(actor, signup.tournament)
    tournament, signup = _locked_signup(signup)
    if not signup.email:
        raise Conflict(
            "signup_no_email",
            _("This sign-up has no email address any more."),
        )
    signup.link_nonce = new_nonce()
    signup.save(update_fields=["link_nonce"])
    email_queue(signup=signup, kind=SignUpEmail.Kind.LINK)
    audit_record(tournament=tournament, actor=actor, action="signup_link_renew", target=signup)
    return signup


def _advance(tournament: Tournament) -> list[SignUp]:
    """Move waitlisted sign-ups up into free places, first come first (tournament locked)."""
    if tournament.rounds.exists():
        return []
    moved = []
    for signup in waitlist(tournament=tournament).select_for_update(of=("self",)):
        if not _has_place(tournament):
            break
        signup.tournament = tournament
        try:
            with transaction.atomic():
                _take_place(signup, actor=None)
        except ApplicationError as error:
            # E.g. the organiser has meanwhile registered one of the players
            # by hand: the sign-up stays on the list for the organiser to see.
            logger.warning("sign-up %s cannot move up: %s", signup.pk, error.message_en)
            continue
        kind = (
            SignUpEmail.Kind.MOVED_UP
            if signup.status == SignUp.Status.PENDING
            else SignUpEmail.Kind.CONFIRMED
        )
        email_queue(signup=signup, kind=kind)
        audit_record(tournament=tournament, actor=None, action="signup_move_up", target=signup)
        moved.append(signup)
    return moved


@transaction.atomic
def signup_waitlist_advance(*, tournament: Tournament, actor: Actor | None = None) -> list[SignUp]:
    """Fill free places from the waitlist: after the organiser adds places or
    drops a pair (their button, and the worker's sweep with ``actor=None``)."""
    if actor is not None:
        require_organiser(actor, tournament)
    return _advance(_lock(tournament))
