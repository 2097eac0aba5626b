"""The version the public rating pages are cached under.

The people part (names, consent, merges) is ``people.page_version``: the
season's pages, below ratings, need it too.
"""

from __future__ import annotations

import hashlib

from django.db.models import Count, Max, Q, Sum

from people.page_version import public_people_version
from ratings.models import PersonRating
from tournament.models import Tournament


def public_ratings_version() -> str:
    """What the rating pages show changes with it: ratings, every event's data version
    and publication (a history shows published events' games only), the people."""
    ratings = PersonRating.objects.aggregate(n=Count("pk"), last=Max("updated_at"))
    # Every service that changes an event's public data bumps its version, and
    # a version never goes down: the sum moves with any of them.
    events = Tournament.objects.aggregate(
        n=Count("pk"), versions=Sum("data_version"), published=Count("pk", filter=Q(published=True))
    )
    # Who may be named (consent, also given or withdrawn in bulk), names, merges.
    text = repr((ratings, events, public_people_version()))
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()
