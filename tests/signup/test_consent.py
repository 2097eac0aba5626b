"""Consent to publish comes from the person: never from someone else's form.

The emailed confirmation link (valid, forged, used, expired), withdrawal on
the private page and by the organiser, the organiser's record with a reason
and who may make it, and a withdrawn sign-up taking back what came from it.
Visibility is checked where the public sees it: the player page, its PDF,
the rating list and the API.
"""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from django.core import signing
from django.urls import reverse
from django.utils import timezone

from people.models import ConsentRecord, Person, PersonMatch
from people.services import person_merge
from signup.models import SignUp, SignUpEmail
from signup.services.consent_links import CONSENT_LINK_MAX_AGE, consent_token
from signup.services.emails import email_message
from signup.services.links import signup_token
from signup.services.signups import signup_withdraw_by_link
from tests.factories import TournamentFactory, UserFactory, organiser_of
from tests.signup.conftest import sign_up
from tests.stats.test_pages import event  # noqa: F401  (the played event with ratings)


def _public(client: Any, person: Person) -> dict[str, bool]:
    """Where the public sees ``person``: page, PDF, rating list, API."""
    listing = client.get(reverse("ratings:list")).content.decode()
    return {
        "page": client.get(reverse("stats:player", args=[person.pk])).status_code == 200,
        "pdf": client.get(reverse("stats:player_pdf", args=[person.pk])).status_code == 200,
        "list": person.name in listing,
        "api": client.get(f"/api/players/{person.pk}/").status_code == 200,
    }


EVERYWHERE = {"page": True, "pdf": True, "list": True, "api": True}
NOWHERE = {"page": False, "pdf": False, "list": False, "api": False}


def _not_consenting(*persons: Person) -> None:
    Person.objects.filter(pk__in=[p.pk for p in persons]).update(
        publish_consent=False, consent_at=None
    )


def _entry_of(played: dict[str, Any], email: str) -> SignUp:
    """The public pair of the played event, as if it had signed up online from ``email``."""
    pair = played["game"].pair_yb
    anna, bo = played["public"]
    return SignUp.objects.create(
        tournament=played["tournament"],
        status=SignUp.Status.CONFIRMED,
        pair=pair,
        player_1=anna.name,
        player_2=bo.name,
        email=email,
        consent_at=timezone.now(),
        person_1=anna,
        person_2=bo,
        client_id="entry",
        link_nonce="nonce-private",
        consent_nonce="nonce-consent",
    )


def test_a_strangers_sign_up_naming_a_private_player_publishes_nothing(
    client: Any,
    event: dict[str, Any],  # noqa: F811
    open_event: Any,
) -> None:
    carl = event["private"][0]
    assert _public(client, carl) == NOWHERE
    signup = sign_up(
        open_event,
        player_1=carl.name,
        player_2="Fremmed Person",
        club=carl.club,
        email="stranger@example.dk",
        consent=True,
    )
    carl.refresh_from_db()
    assert not carl.publish_consent and _public(client, carl) == NOWHERE
    # The stranger's sign-up names a new person (a suggested match for the
    # organiser to confirm), never the known one; even if it were linked, the
    # stranger's own confirmation link cannot speak for a player known from an
    # event the organiser entered.
    url = reverse("signup:consent", args=[consent_token(signup=signup)])
    coverage = client.get(url).context["coverage"]
    assert carl not in coverage.covered
    if carl.pk in (signup.person_1_id, signup.person_2_id):
        assert carl in coverage.not_covered
    else:
        assert PersonMatch.objects.filter(known=carl, new_id=signup.person_1_id).exists()
    client.post(url, {"answer": "yes"})
    carl.refresh_from_db()
    assert not carl.publish_consent and _public(client, carl) == NOWHERE
    assert not ConsentRecord.objects.filter(person=carl, given=True).exists()


def test_the_emailed_link_publishes_once_and_the_private_page_withdraws_everywhere(
    client: Any,
    event: dict[str, Any],  # noqa: F811
) -> None:
    anna, bo = event["public"]
    _not_consenting(anna, bo)
    signup = _entry_of(event, "anna@example.dk")
    assert _public(client, anna) == NOWHERE
    token = consent_token(signup=signup)
    # The link sits where the private link's token does: the log masking covers it.
    assert re.fullmatch(r"/signup/[^/]+/consent/", reverse("signup:consent", args=[token]))
    page = client.get(reverse("signup:consent", args=[token]))
    assert page.status_code == 200 and "Anna" in page.content.decode()
    assert client.get(f"/api/signup/{token}/consent/").json()["covered"][0]["name"] == "Anna"
    answer = client.post(reverse("signup:consent", args=[token]), {"answer": "yes"})
    assert answer.status_code == 302 and answer["Location"] == reverse(
        "signup:own", args=[signup_token(signup=signup)]
    )
    assert _public(client, anna) == EVERYWHERE
    record = ConsentRecord.objects.get(person=anna)
    assert (record.given, record.via, record.source) == (True, "email", f"signup:{signup.pk}")
    # Used: the same link again is refused (page and API) and changes nothing.
    assert client.get(reverse("signup:consent", args=[token])).status_code == 404
    assert client.post(f"/api/signup/{token}/consent/", {"confirm": False}).status_code == 404
    assert Person.objects.get(pk=anna.pk).publish_consent
    # Withdrawn on the private page: gone from every public place.
    own = reverse("signup:own", args=[signup_token(signup=signup)])
    client.post(own, {"action": "consent_withdraw"})
    assert _public(client, anna) == NOWHERE and _public(client, bo) == NOWHERE
    signup.refresh_from_db()
    assert signup.status == SignUp.Status.CONFIRMED  # the sign-up itself stays
    # The old link cannot bring it back.
    client.post(reverse("signup:consent", args=[token]), {"answer": "yes"})
    assert _public(client, anna) == NOWHERE


def test_a_forged_expired_or_replaced_link_gives_nothing(
    client: Any,
    event: dict[str, Any],  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    anna, bo = event["public"]
    _not_consenting(anna, bo)
    signup = _entry_of(event, "anna@example.dk")
    token = consent_token(signup=signup)
    forged = [
        token[:-3] + ("aaa" if not token.endswith("aaa") else "bbb"),
        signing.Signer(salt="signup.private-link", sep=".").sign(f"{signup.pk}-nonce-consent"),
        signup_token(signup=signup),  # the private link's token is no confirmation
        "1-x",
    ]
    with monkeypatch.context() as past:
        then = time.time() - CONSENT_LINK_MAX_AGE.total_seconds() - 60
        past.setattr(signing.time, "time", lambda: then)
        expired = consent_token(signup=signup)
    for bad in [*forged, expired]:
        assert (
            client.post(reverse("signup:consent", args=[bad]), {"answer": "yes"}).status_code == 404
        )
        assert client.post(f"/api/signup/{bad}/consent/", {"confirm": True}).status_code == 404
    # A new confirmation email replaces the link it had sent.
    own = signup_token(signup=signup)
    assert client.post(f"/api/signup/{own}/consent-request/").status_code == 200
    assert client.post(f"/api/signup/{token}/consent/", {"confirm": True}).status_code == 404
    assert Person.objects.filter(pk__in=[anna.pk, bo.pk], publish_consent=True).count() == 0
    assert not ConsentRecord.objects.exists()
    signup.refresh_from_db()
    fresh = consent_token(signup=signup)
    email = signup.emails.get(kind=SignUpEmail.Kind.CONSENT)
    assert fresh in email_message(email=email)[1]
    assert client.post(f"/api/signup/{fresh}/consent/", {"confirm": True}).status_code == 200
    assert Person.objects.filter(pk__in=[anna.pk, bo.pk], publish_consent=True).count() == 2


def test_an_address_that_can_publish_nobody_is_told_so(
    client: Any,
    event: dict[str, Any],  # noqa: F811
    open_event: Any,
) -> None:
    carl, dina = event["private"]
    signup = sign_up(
        open_event, player_1=carl.name, player_2=dina.name, club=carl.club, email="x@example.dk"
    )
    # The names are suggested matches of the known players; the staff confirm
    # them (a merge), so the sign-up now names Carl and Dina themselves.
    for match in PersonMatch.objects.filter(known__in=[carl, dina]):
        person_merge(survivor=match.known, duplicate=match.new, actor=UserFactory(is_staff=True))
    signup.refresh_from_db()
    assert {signup.person_1_id, signup.person_2_id} == {carl.pk, dina.pk}
    token = consent_token(signup=signup)
    answer = client.post(f"/api/signup/{token}/consent/", {"confirm": True})
    assert answer.status_code == 409 and answer.json()["error"]["code"] == "consent_nobody_covered"
    signup.refresh_from_db()
    assert signup.consent_confirmed_at is None and not ConsentRecord.objects.exists()
    assert client.get(f"/api/signup/{token}/consent/").status_code == 200  # still unused


def test_the_first_email_carries_the_confirmation_link_and_nothing_is_public_before(
    open_event: Any,
) -> None:
    signup = sign_up(open_event, player_1="Ny Spiller", player_2="Ny Makker")
    (email,) = signup.emails.all()
    body = email_message(email=email)[1]
    assert consent_token(signup=signup) in body
    assert not Person.objects.filter(publish_consent=True).exists()
    assert signup.consent_confirmed_at is None


def test_the_organiser_records_consent_with_a_reason_and_only_for_their_events(
    client: Any,
    event: dict[str, Any],  # noqa: F811
) -> None:
    carl = event["private"][0]
    url = f"/api/people/{carl.pk}/consent/"
    page = reverse("signup:organiser_person_consent", args=[carl.pk])
    body = {"given": True, "reason": "signed paper form 12 March"}
    # Anonymous: refused, nothing recorded.
    assert client.post(url, body, content_type="application/json").status_code == 403
    assert client.get(page).status_code == 302
    # An organiser of another event: refused.
    stranger = organiser_of(TournamentFactory(), "other-organiser")
    client.force_login(stranger)
    assert client.post(url, body, content_type="application/json").status_code == 403
    assert client.get(url).status_code == 403
    assert client.post(page, {"given": "yes", "reason": "x"}).status_code == 403
    assert not ConsentRecord.objects.exists() and _public(client, carl) == NOWHERE
    # The event's organiser: a reason is required, then it is recorded.
    boss = event["tournament"].roles.get().user
    client.force_login(boss)
    refused = client.post(url, {"given": True, "reason": "  "}, content_type="application/json")
    assert refused.status_code == 400 and not ConsentRecord.objects.exists()
    answer = client.post(url, body, content_type="application/json")
    assert answer.status_code == 200 and answer.json()["publish_consent"] is True
    assert answer.json()["history"][0]["reason"] == "signed paper form 12 March"
    assert _public(client, carl) == EVERYWHERE
    assert "signed paper form 12 March" in client.get(page).content.decode()
    # Withdrawn as easily, from the page.
    response = client.post(page, {"given": "no", "reason": "asked by phone"})
    assert response.status_code == 302
    assert _public(client, carl) == NOWHERE
    record = ConsentRecord.objects.order_by("pk").last()
    assert (record.given, record.via, record.actor, record.reason) == (
        False,
        "organiser",
        boss,
        "asked by phone",
    )
    # Staff may record for anyone.
    client.force_login(UserFactory(username="staff", is_staff=True))
    assert client.post(url, body, content_type="application/json").status_code == 200


def test_withdrawing_a_sign_up_takes_back_only_the_consent_born_of_it(
    client: Any, open_event: Any
) -> None:
    signup = sign_up(open_event, player_1="Eva Ny", player_2="Finn Ny")
    token = consent_token(signup=signup)
    assert client.post(f"/api/signup/{token}/consent/", {"confirm": True}).status_code == 200
    eva, finn = signup.person_1, signup.person_2
    eva.refresh_from_db()
    assert eva.publish_consent
    # Eva also told the organiser herself.
    client.force_login(open_event.organiser)
    client.post(
        f"/api/people/{eva.pk}/consent/",
        {"given": True, "reason": "signed paper form"},
        content_type="application/json",
    )
    signup_withdraw_by_link(token=signup_token(signup=signup))
    eva.refresh_from_db()
    finn.refresh_from_db()
    assert eva.publish_consent and not finn.publish_consent
    ended = ConsentRecord.objects.get(person=finn, given=False)
    assert (ended.via, ended.source) == ("source_ended", f"signup:{signup.pk}")
    # A withdrawn sign-up's link publishes nothing any more.
    signup.refresh_from_db()
    again = consent_token(signup=signup)
    assert client.post(f"/api/signup/{again}/consent/", {"confirm": True}).status_code == 409
    finn.refresh_from_db()
    assert not finn.publish_consent
