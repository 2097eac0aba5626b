"""The site's GET addresses, read from the URL configuration and its policy.

One list for every walk over the site's pages (who may read them, what they
show, how they fit a phone), so a page added to the site is walked the day
it is added: the walk fills in each address's values from its own data, and
a value it cannot fill in fails it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from django.urls import reverse

from tests.security.policy import POLICY
from tests.security.test_permission_matrix import URLS

# The values of one address's parameters, as many sets as the walk wants addresses.
Fill = Callable[[str, set[str]], Iterable[dict[str, Any]]]


def get_urls(
    fill: Fill, *, access: set[str] | None = None
) -> list[tuple[str, str, dict[str, Any]]]:
    """(URL name, address, its values) of every GET URL, in name order; ``access``
    keeps only the URLs whose GET the policy gives one of these levels."""
    urls = []
    for name in sorted(n for n in URLS if n and "GET" in POLICY.get(n, {})):
        if access is not None and POLICY[name]["GET"] not in access:
            continue
        _route, pattern = URLS[name]
        for kwargs in fill(name, set(pattern.pattern.regex.groupindex)):
            urls.append((name, reverse(name, kwargs=kwargs), kwargs))
    return urls
