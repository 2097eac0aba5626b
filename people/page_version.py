"""A version of what people look like on the public pages: names, clubs, consent, merges.

The rating pages, a season's pages and rating curves name people (public
ones only), so their cache key must change when a person is renamed,
anonymised, merged or changes consent, not only when a result moves.
``Person`` has no change stamp, so a version kept in the shared cache is
replaced after every such change
(``people_version_bump``, on commit). A missing version (evicted, a cold
cache) becomes a new random one, never an earlier value, so a page cached
under an old version can never be served again.
"""

from __future__ import annotations

import uuid
from typing import Any

from django.core.cache import cache
from django.db import transaction
from django.db.models import Count, Max, Sum

from people.models import Person
from people.selectors_public import public_people_q

PEOPLE_VERSION_KEY = "ratings:people-version"


def people_version() -> str:
    version = cache.get(PEOPLE_VERSION_KEY)
    if version is None:
        cache.add(PEOPLE_VERSION_KEY, uuid.uuid4().hex, timeout=None)
        version = cache.get(PEOPLE_VERSION_KEY) or "cold"
    return str(version)


def people_version_bump() -> None:
    cache.set(PEOPLE_VERSION_KEY, uuid.uuid4().hex, timeout=None)


def people_version_bump_on_commit(sender: Any, **kwargs: Any) -> None:
    """Receiver of ``Person`` saves and deletes and of ``people.signals.people_changed``.

    After the commit: a page rendered before it from the old data must not be
    stored under the new version."""
    transaction.on_commit(people_version_bump)


def public_people_version() -> str:
    """``people_version`` and who is public now: the key of every page that names people.

    Consent may be given or withdrawn by a bulk update (no save signal), so
    the public people themselves (how many, which, the latest consent) are
    part of it too: a page never outlives a change of who may be named.
    """
    public = Person.objects.filter(public_people_q()).aggregate(
        n=Count("pk"), ids=Sum("pk"), last=Max("consent_at")
    )
    return f"{people_version()}:{public['n']}:{public['ids']}:{public['last']}"
