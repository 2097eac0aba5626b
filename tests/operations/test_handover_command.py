"""``manage.py handover``: the same path from the command line, files 0600."""

from __future__ import annotations

import stat

import pytest
from django.core.management import CommandError, call_command

from competition.models import HandOver
from tests.factories import PairFactory, TournamentFactory, UserFactory, organiser_of


def test_send_receive_back_return_and_a_second_return_refused(db, tmp_path):
    website = TournamentFactory(slug="dm-cli")
    for n in range(1, 5):
        PairFactory(tournament=website, start_number=n)
    organiser = organiser_of(website)
    outgoing, returned = tmp_path / "out.json", tmp_path / "back.json"
    call_command("handover", "send", "dm-cli", "--user", organiser.username, "-o", str(outgoing))
    assert stat.S_IMODE(outgoing.stat().st_mode) == 0o600
    venue = UserFactory(username="hall")
    call_command("handover", "receive", str(outgoing), "--user", "hall", "--slug", "dm-hall")
    call_command("handover", "back", "dm-hall", "--user", venue.username, "-o", str(returned))
    assert stat.S_IMODE(returned.stat().st_mode) == 0o600
    call_command("handover", "return", str(returned), "--user", organiser.username)
    assert HandOver.objects.get(tournament=website).state == HandOver.State.RETURNED
    with pytest.raises(CommandError) as refused:
        call_command("handover", "return", str(returned), "--user", organiser.username)
    assert "returned already" in str(refused.value) and "allerede" in str(refused.value)
