"""A version of what people look like on the public pages: names, clubs, consent, merges.

The rating pages, a season's pages and rating curves name people (public
ones only), so their cache key must change when a person is renamed,
anonymised, merged or changes consent, not only when a result moves.
``Person`` has no change stamp, so its version is the data version
``scope("people")`` of ``core.cache``, bumped after every such change
(``people_version_bump_on_commit``). A lost version (evicted, a cold cache)
starts again above every earlier value, so a page cached under an old
version can never be served again.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Count, Max, Sum

from core.cache import bump_on_commit, data_version, scope
from people.models import Person
from people.selectors_public import public_people_q

PEOPLE = scope("people")


def people_version_bump_on_commit(sender: Any, **kwargs: Any) -> None:
    """Receiver of ``Person`` saves and deletes and of ``people.signals.people_changed``.

    After the commit: a page rendered before it from the old data must not be
    stored under the new version."""
    bump_on_commit(PEOPLE)


def public_people_version() -> str:
    """The people version and who is public now: the key of every page that names people.

    Consent may be given or withdrawn by a bulk update (no save signal), so
    the public people themselves (how many, which, the latest consent) are
    part of it too: a page never outlives a change of who may be named.
    """
    public = Person.objects.filter(public_people_q()).aggregate(
        n=Count("pk"), ids=Sum("pk"), last=Max("consent_at")
    )
    return f"{data_version(PEOPLE)}:{public['n']}:{public['ids']}:{public['last']}"
