"""Consent in a real browser: a pair signs up, nothing is public; the emailed link
confirms it, the private page withdraws it."""

from __future__ import annotations

import datetime
import re

from django.utils import timezone

from people.models import Person
from signup.models import SignUp
from signup.services.emails import email_message
from tests.factories import UserFactory
from tournament.services.registration import tournament_create


def test_sign_up_confirm_by_the_emailed_link_and_withdraw(page, live_server, transactional_db):
    organiser = UserFactory(username="e2e-samtykke")
    event = tournament_create(
        actor=organiser,
        name="Samtykkecup",
        date=timezone.localdate(),
        swiss_rounds=1,
        signup_closes_at=timezone.now() + datetime.timedelta(days=2),
        published=True,
    )
    page.on("dialog", lambda dialog: dialog.accept())
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{live_server.url}/tournaments/{event.slug}/signup/")
    page.fill("input[name=player_1]", "Sofie Samtykke")
    page.fill("input[name=player_2]", "Emil Samtykke")
    page.fill("input[name=email]", "sofie@example.dk")
    page.check("input[name=consent]")
    page.click("#signup-form button[type=submit]")
    page.wait_for_url(re.compile(r"/signup/[^/]+/$"))
    status = page.locator("#consent-status").inner_text()
    assert "ikke offentliggjort" in status and "Ikke bekræftet" in status
    assert not Person.objects.filter(publish_consent=True).exists()

    # The link in the first email: what is published, for whom; yes.
    body = email_message(email=SignUp.objects.get().emails.get())[1]
    link = re.search(r"https?://\S+/signup/\S+/consent/", body).group(0)
    page.goto(live_server.url + link[link.index("/signup/") :])
    assert "Sofie Samtykke" in page.locator("#consent-who").inner_text()
    with page.expect_navigation():
        page.click("#consent-yes")
    assert "Bekræftet pr. e-mail" in page.locator("#consent-status").inner_text()
    assert Person.objects.filter(publish_consent=True).count() == 2

    # Withdrawn on the private page, as easily.
    with page.expect_navigation():
        page.click("#consent-withdraw-form button")
    assert "trukket tilbage" in page.locator(".messages").inner_text()
    assert not Person.objects.filter(publish_consent=True).exists()
