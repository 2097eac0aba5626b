"""tournament.permissions reads a user's roles once per request, through request.user too."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser
from django.utils.functional import SimpleLazyObject

from tests.factories import TournamentFactory, judge_of
from tournament.permissions import is_judge, is_organiser

pytestmark = pytest.mark.django_db


def test_roles_are_read_once_and_kept_on_the_user_behind_the_lazy_wrapper(
    django_assert_num_queries,
):
    tournament = TournamentFactory()
    judge = judge_of(tournament)
    request_user = SimpleLazyObject(lambda: judge)  # what the middleware puts on the request
    with django_assert_num_queries(1):
        assert is_judge(request_user, tournament)
        assert not is_organiser(request_user, tournament)
        assert is_judge(judge, tournament)  # the same user object, unwrapped: no new query


def test_an_anonymous_visitor_or_nobody_has_no_roles(django_assert_num_queries):
    tournament = TournamentFactory()
    with django_assert_num_queries(0):
        assert not is_judge(AnonymousUser(), tournament)
        assert not is_organiser(None, tournament)
