"""The hand-over from the organiser's pages: send, receive, send back, import, refusals."""

from __future__ import annotations

import json

from django.core.files.uploadedfile import SimpleUploadedFile

from competition.models import HandOver, VenueCopy
from tests.factories import PairFactory, TournamentFactory, UserFactory, organiser_of
from tournament.models import Pair, Tournament


def _upload(data: bytes, name: str = "event.json") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, data, content_type="application/json")


def test_send_receive_back_and_return_through_the_pages(db, client):
    website = TournamentFactory(slug="dm-side")
    for n in range(1, 5):
        PairFactory(tournament=website, start_number=n)
    organiser = organiser_of(website)
    client.force_login(organiser)
    client.cookies["django_language"] = "en"
    sent = client.post(f"/organise/{website.slug}/handover/send/")
    assert sent.status_code == 200 and sent["Content-Disposition"].startswith("attachment")
    assert sent["Cache-Control"] == "no-store"
    page = client.get(f"/organise/{website.slug}/").content.decode()
    assert "Handed over to the venue" in page

    venue = UserFactory()
    client.force_login(venue)
    client.cookies["django_language"] = "en"
    received = client.post("/organise/receive/", {"file": _upload(sent.content), "slug": "dm-hall"})
    laptop = Tournament.objects.get(slug="dm-hall")
    assert received.status_code == 302 and received["Location"] == "/organise/dm-hall/"
    assert Pair.objects.filter(tournament=laptop).count() == 4
    page = client.get("/organise/dm-hall/").content.decode()
    assert "Download the file for the website" in page
    back = client.post("/organise/dm-hall/handover/back/")
    assert back.status_code == 200 and VenueCopy.objects.get(tournament=laptop).returned_at

    client.force_login(organiser)
    client.cookies["django_language"] = "en"
    # Another event's page refuses it, naming the event.
    other = TournamentFactory(slug="dm-other")
    organiser_of(other, organiser.username)
    refused = client.post(
        "/organise/dm-other/handover/return/",
        {"file": _upload(back.content)},
        follow=True,
    )
    assert "return of another event (dm-side)" in refused.content.decode()
    done = client.post(
        f"/organise/{website.slug}/handover/return/",
        {"file": _upload(back.content)},
        follow=True,
    )
    assert "The event is back from the venue" in done.content.decode()
    assert HandOver.objects.get(tournament=website).state == HandOver.State.RETURNED
    client.cookies["django_language"] = "da"
    again = client.post(
        f"/organise/{website.slug}/handover/return/",
        {"file": _upload(back.content)},
        follow=True,
    )
    assert "allerede leveret tilbage" in again.content.decode()


def test_a_file_that_is_not_json_is_refused_with_a_message(db, client):
    client.force_login(UserFactory())
    answer = client.post(
        "/organise/receive/", {"file": _upload(b"\x00not json")},
        follow=True,
    )  # fmt: skip
    assert answer.status_code == 200 and not VenueCopy.objects.exists()
    assert answer.redirect_chain[-1][0] == "/organise/"


def test_only_an_organiser_of_the_event_hands_it_over(db, client):
    website = TournamentFactory(slug="dm-guarded")
    client.force_login(UserFactory())
    assert client.post(f"/organise/{website.slug}/handover/send/").status_code == 403
    assert not HandOver.objects.exists()


def test_the_upload_limit_is_larger_for_a_hand_over_file(db, client, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    client.force_login(UserFactory())
    big = json.dumps({"format": "x", "pad": "a" * 5000}).encode()
    answer = client.post("/organise/receive/", {"file": _upload(big)}, follow=True)
    assert answer.status_code == 200  # read and refused as a wrong file, not a 413
