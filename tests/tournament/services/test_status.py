"""The guarded status change: one compare-and-set, then audit and version bump."""

from __future__ import annotations

import pytest

from core.errors import Conflict
from tests.factories import PairFactory, RoundFactory, organiser_of
from tournament.models import AuditEntry, Pair, Round, Tournament
from tournament.services.status import status_change_guarded

pytestmark = pytest.mark.django_db


def _check_in(pair: Pair, actor: object) -> Pair:
    return status_change_guarded(
        pair,
        actor=actor,  # type: ignore[arg-type]
        allowed_from=(Pair.Status.REGISTERED,),
        to=Pair.Status.CHECKED_IN,
        action="pair_check_in",
        refusal=("pair_already_checked_in", "This pair is already checked in."),
    )


def test_the_change_is_stored_audited_and_bumps_the_version():
    pair = PairFactory(status=Pair.Status.REGISTERED)
    actor = organiser_of(pair.tournament)
    version = pair.tournament.data_version

    changed = _check_in(pair, actor)

    assert changed.status == Pair.Status.CHECKED_IN
    assert Pair.objects.get(pk=pair.pk).status == Pair.Status.CHECKED_IN
    assert AuditEntry.objects.filter(action="pair_check_in", actor=actor).count() == 1
    assert Tournament.objects.get(pk=pair.tournament.pk).data_version == version + 1


def test_a_stale_copy_is_refused_and_changes_nothing():
    pair = PairFactory(status=Pair.Status.REGISTERED)
    actor = organiser_of(pair.tournament)
    stale = Pair.objects.get(pk=pair.pk)
    _check_in(pair, actor)
    version = Tournament.objects.get(pk=pair.tournament.pk).data_version

    with pytest.raises(Conflict) as refused:
        _check_in(stale, actor)

    assert refused.value.code == "pair_already_checked_in"
    assert AuditEntry.objects.filter(action="pair_check_in").count() == 1
    assert Tournament.objects.get(pk=pair.tournament.pk).data_version == version


def test_extra_fields_change_with_the_status_and_params_reach_the_refusal():
    round_ = RoundFactory(status=Round.Status.DRAFT)
    actor = organiser_of(round_.tournament)
    kwargs = {
        "actor": actor,
        "allowed_from": (Round.Status.DRAFT,),
        "to": Round.Status.PUBLISHED,
        "action": "round_publish",
        "refusal": ("round_not_draft", "Round %(number)s is already published."),
        "params": {"number": round_.number},
    }
    at = "2026-01-02T10:00:00Z"
    published = status_change_guarded(round_, also={"published_at": at}, **kwargs)
    assert published.published_at is not None

    with pytest.raises(Conflict) as refused:
        status_change_guarded(round_, **kwargs)
    assert refused.value.message_en == f"Round {round_.number} is already published."
