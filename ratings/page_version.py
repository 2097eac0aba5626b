"""A version of what people look like on the public pages: names, clubs, consent, merges.

The rating pages (and a season's rating curves) name people, so their cache
key must change when a person is renamed, anonymised, merged or changes
consent, not only when a rating moves. ``Person`` has no change stamp, so a
version kept in the shared cache is replaced after every such change
(``people_version_bump``, on commit). A missing version (evicted, a cold
cache) becomes a new random one, never an earlier value, so a page cached
under an old version can never be served again.
"""

from __future__ import annotations

import uuid
from typing import Any

from django.core.cache import cache
from django.db import transaction

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
