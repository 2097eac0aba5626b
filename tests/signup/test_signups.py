"""Sign-up, places and the waitlist, approval, withdrawal through the private link."""

from __future__ import annotations

import datetime

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from core.errors import ApplicationError, Conflict, NotFound, PermissionDenied
from signup.forms import SignUpForm
from signup.models import SignUp, SignUpEmail
from signup.selectors import signup_state, waitlist_position
from signup.services.links import signup_from_token, signup_token
from signup.services.signups import (
    signup_approve,
    signup_link_renew,
    signup_reject,
    signup_waitlist_advance,
    signup_withdraw,
    signup_withdraw_by_link,
)
from tests.factories import PairFactory, RoundFactory, UserFactory, organiser_of
from tests.signup.conftest import sign_up
from tournament.models import Pair
from tournament.services.registration import pair_drop, tournament_update

pytestmark = pytest.mark.django_db


def emails_of(signup):
    return list(signup.emails.order_by("pk").values_list("kind", flat=True))


def test_within_the_places_a_sign_up_becomes_a_pair_with_no_retyping(open_event):
    signup = sign_up(
        open_event,
        player_1="Mette Hansen",
        player_2="Jens Nielsen",
        club="Odense",
        pair_name="Fynske Fløjter",
    )
    assert signup.status == SignUp.Status.CONFIRMED
    pair = signup.pair
    assert (pair.player_1.name, pair.player_2.name, pair.club, pair.name) == (
        "Mette Hansen",
        "Jens Nielsen",
        "Odense",
        "Fynske Fløjter",
    )
    # The form's box starts the email confirmation; nothing is public before it.
    assert pair.player_1.person == signup.person_1 and not signup.person_1.publish_consent
    assert emails_of(signup) == [SignUpEmail.Kind.CONFIRMED]


def test_beyond_the_places_a_sign_up_waits_and_moves_up_when_a_pair_withdraws(open_event):
    first, second = sign_up(open_event), sign_up(open_event)
    third, fourth = sign_up(open_event), sign_up(open_event)
    assert [s.status for s in (third, fourth)] == [SignUp.Status.WAITLISTED] * 2
    assert (waitlist_position(signup=third), waitlist_position(signup=fourth)) == (1, 2)
    assert emails_of(third) == [SignUpEmail.Kind.WAITLISTED]

    signup_withdraw_by_link(token=signup_token(signup=first))
    first.refresh_from_db()
    third.refresh_from_db()
    fourth.refresh_from_db()
    assert first.status == SignUp.Status.WITHDRAWN and first.pair is None
    assert not Pair.objects.filter(tournament=open_event, player_1__name=first.player_1).exists()
    assert third.status == SignUp.Status.CONFIRMED and third.pair is not None
    assert emails_of(third) == [SignUpEmail.Kind.WAITLISTED, SignUpEmail.Kind.CONFIRMED]
    assert fourth.status == SignUp.Status.WAITLISTED
    assert waitlist_position(signup=fourth) == 1
    assert signup_state(tournament=open_event).taken == 2
    assert second.status == SignUp.Status.CONFIRMED


def test_approval_holds_the_place_until_the_organiser_decides(open_event):
    open_event.signup_approval = True
    open_event.save()
    organiser = open_event.organiser
    first, second, third = sign_up(open_event), sign_up(open_event), sign_up(open_event)
    assert [s.status for s in (first, second, third)] == [
        SignUp.Status.PENDING,
        SignUp.Status.PENDING,
        SignUp.Status.WAITLISTED,
    ]
    assert first.pair is None and emails_of(first) == [SignUpEmail.Kind.RECEIVED]
    assert not Pair.objects.filter(tournament=open_event).exists()

    signup_approve(signup=first, actor=organiser)
    first.refresh_from_db()
    assert first.status == SignUp.Status.CONFIRMED and first.pair.player_1.name == first.player_1
    assert first.decided_at is not None
    # Turning one down frees its place: the waitlist moves up, still awaiting approval.
    signup_reject(signup=second, actor=organiser, note="Full club quota")
    second.refresh_from_db()
    third.refresh_from_db()
    assert second.status == SignUp.Status.REJECTED and second.note == "Full club quota"
    assert third.status == SignUp.Status.PENDING
    assert emails_of(third) == [SignUpEmail.Kind.WAITLISTED, SignUpEmail.Kind.MOVED_UP]
    with pytest.raises(Conflict) as refused:
        signup_approve(signup=second, actor=organiser)
    assert refused.value.code == "signup_not_pending"


def test_only_an_organiser_of_this_tournament_decides(open_event):
    open_event.signup_approval = True
    open_event.save()
    signup = sign_up(open_event)
    other = organiser_of(PairFactory().tournament, "other-org")
    for service in (signup_approve, signup_withdraw, signup_link_renew):
        with pytest.raises(PermissionDenied):
            service(signup=signup, actor=other)
    with pytest.raises(PermissionDenied):
        signup_reject(signup=signup, actor=UserFactory())
    with pytest.raises(PermissionDenied):
        signup_waitlist_advance(tournament=open_event, actor=other)
    signup.refresh_from_db()
    assert signup.status == SignUp.Status.PENDING


def test_the_same_form_sent_twice_is_one_sign_up(open_event):
    first = sign_up(open_event, client_id="same-form")
    again = sign_up(open_event, client_id="same-form")
    assert again.pk == first.pk
    assert SignUp.objects.filter(tournament=open_event).count() == 1
    assert Pair.objects.filter(tournament=open_event).count() == 1


@pytest.mark.parametrize(
    ("fields", "code"),
    [
        ({"consent": False}, "signup_consent_required"),
        ({"player_1": "Anne", "player_2": "anne"}, "pair_same_player"),
        ({"client_id": ""}, "signup_form_stale"),
    ],
)
def test_bad_sign_ups_are_refused_and_change_nothing(open_event, fields, code):
    with pytest.raises(ApplicationError) as refused:
        sign_up(open_event, **fields)
    assert refused.value.code == code
    assert refused.value.message_da and refused.value.message_en
    assert not SignUp.objects.exists()


def test_a_player_already_in_the_event_or_signed_up_cannot_sign_up_again(open_event):
    sign_up(open_event, player_1="Helle Henriksen", player_2="Jan Lund")
    PairFactory(tournament=open_event, player_1__name="Maria Schmidt")
    for player in ("helle henriksen", "Maria Schmidt"):
        with pytest.raises(Conflict) as refused:
            sign_up(open_event, player_1=player, player_2="Someone New")
        assert refused.value.code == "signup_duplicate"


def test_closed_not_offered_or_started_tournaments_take_no_sign_ups(open_event):
    open_event.signup_closes_at = timezone.now() - datetime.timedelta(minutes=1)
    open_event.save()
    with pytest.raises(Conflict) as refused:
        sign_up(open_event)
    assert refused.value.code == "signup_closed"
    open_event.signup_closes_at = None
    open_event.save()
    with pytest.raises(Conflict) as refused:
        sign_up(open_event)
    assert refused.value.code == "signup_not_offered"
    open_event.signup_closes_at = timezone.now() + datetime.timedelta(days=1)
    open_event.save()
    RoundFactory(tournament=open_event, number=1)
    with pytest.raises(Conflict) as refused:
        sign_up(open_event)
    assert refused.value.code == "signup_tournament_started"
    assert not SignUp.objects.exists()


def test_pairs_the_organiser_registers_take_places_too(open_event):
    PairFactory(tournament=open_event)
    PairFactory(tournament=open_event)
    assert sign_up(open_event).status == SignUp.Status.WAITLISTED
    assert signup_state(tournament=open_event).full


def test_free_places_from_more_capacity_or_a_dropped_pair_fill_from_the_waitlist(open_event):
    organiser = open_event.organiser
    sign_up(open_event)
    second = sign_up(open_event)
    waiting = [sign_up(open_event), sign_up(open_event), sign_up(open_event)]
    tournament_update(tournament=open_event, actor=organiser, signup_capacity=3)
    moved = signup_waitlist_advance(tournament=open_event, actor=organiser)
    assert [s.pk for s in moved] == [waiting[0].pk]
    pair_drop(pair=second.pair, actor=organiser)
    # The worker's sweep (no actor) fills the place the dropped pair left.
    moved = signup_waitlist_advance(tournament=open_event)
    assert [s.pk for s in moved] == [waiting[1].pk]
    assert waitlist_position(signup=SignUp.objects.get(pk=waiting[2].pk)) == 1


def test_the_waitlist_stands_still_once_the_tournament_started(open_event):
    sign_up(open_event)
    first = sign_up(open_event)
    waiting = sign_up(open_event)
    RoundFactory(tournament=open_event, number=1)
    with pytest.raises(Conflict) as refused:
        signup_withdraw_by_link(token=signup_token(signup=first))
    assert refused.value.code == "tournament_started"
    open_event.signup_capacity = 5
    open_event.save()
    assert signup_waitlist_advance(tournament=open_event) == []
    waiting.refresh_from_db()
    assert waiting.status == SignUp.Status.WAITLISTED


def test_private_links_work_once_per_nonce_and_forged_ones_open_nothing(open_event):
    signup = sign_up(open_event)
    token = signup_token(signup=signup)
    assert signup_from_token(token=token) == signup
    forged = [token[:-2] + "xx", "1-abc.def", "", "garbage" * 40, token.replace(".", "-")]
    for bad in forged:
        with pytest.raises(NotFound) as refused:
            signup_from_token(token=bad)
        assert refused.value.code == "signup_link_invalid"
    signup_link_renew(signup=signup, actor=open_event.organiser)
    signup.refresh_from_db()
    with pytest.raises(NotFound):
        signup_from_token(token=token)
    assert signup_from_token(token=signup_token(signup=signup)) == signup
    assert emails_of(signup)[-1] == SignUpEmail.Kind.LINK


def test_withdrawing_twice_is_refused_clearly(open_event):
    signup = sign_up(open_event)
    signup_withdraw_by_link(token=signup_token(signup=signup))
    with pytest.raises(Conflict) as refused:
        signup_withdraw_by_link(token=signup_token(signup=signup))
    assert refused.value.code == "signup_already_withdrawn"
    assert emails_of(signup) == [SignUpEmail.Kind.CONFIRMED, SignUpEmail.Kind.WITHDRAWN]


def test_the_organiser_can_withdraw_for_the_pair(open_event):
    signup = sign_up(open_event)
    waiting = [sign_up(open_event), sign_up(open_event)][1]
    signup_withdraw(signup=signup, actor=open_event.organiser)
    waiting.refresh_from_db()
    assert waiting.status == SignUp.Status.CONFIRMED


def test_a_newcomer_never_jumps_the_waitlist(open_event):
    sign_up(open_event)
    sign_up(open_event)
    waiting = sign_up(open_event)
    # More places, and the sweep has not run yet: the waitlist is served first.
    tournament_update(tournament=open_event, actor=open_event.organiser, signup_capacity=3)
    newcomer = sign_up(open_event)
    waiting.refresh_from_db()
    assert waiting.status == SignUp.Status.CONFIRMED
    assert newcomer.status == SignUp.Status.WAITLISTED
    assert waitlist_position(signup=newcomer) == 1


@pytest.mark.parametrize(
    ("fields", "code"),
    [
        ({"email": "not-an-address"}, "invalid"),
        ({"player_2": "  "}, "field_required"),
        ({"player_1": "x" * 121}, "invalid"),
        ({"player_1": "Anne\u202eHansen"}, "name_control_character"),
        ({"club": "Odense\tBK"}, "name_control_character"),
    ],
)
def test_the_api_refuses_bad_fields_before_the_sign_up(open_event, fields, code):
    body = {
        "player_1": "Anne Holm",
        "player_2": "Bo Holm",
        "email": "par@example.dk",
        "consent": True,
        "client_id": "form-api-1",
        **fields,
    }
    refused = APIClient().post(f"/api/tournaments/{open_event.slug}/signup/", body, format="json")
    assert refused.status_code == 400
    error = refused.json()["error"]
    assert error["code"] == code and error["message_en"] != error["message_da"]
    assert not SignUp.objects.exists()


def test_the_sign_up_form_checks_names_as_the_pair_form_does():
    form = SignUpForm(
        {
            "player_1": "Anne\u2067Holm",
            "player_2": "Bo  Holm",
            "email": "par@example.dk",
            "consent": "on",
            "client_id": "form-page-1",
        }
    )
    assert not form.is_valid()
    assert form.has_error("player_1", "name_control_character")
