"""Does the public page cache's per-process memo pay? A page hit with and without it.

    REDIS_URL=redis://127.0.0.1:6379/13 .venv/bin/python bench/page_memo.py

``core.public_cache.serve_cached`` keeps a page in Django's cache (Redis
with ``REDIS_URL``) and in a small per-process LRU. This times a hit of a
standings-sized page (57 kB) both ways: from the memo, and from Django's
cache alone (the memo emptied before each hit). Prints JSON: the median
microseconds of each. A benchmark, not a test: it asserts nothing.
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")

ROW = "<tr><td class='rank'>1</td><td>Spiller 1 &amp; Spiller 2</td><td>Klub 3</td></tr>"
PAGE = "<html>" + ROW * 700 + "</html>"
HITS = 2000


def median_hit_us(*, memo: bool) -> float:
    from django.http import HttpResponse
    from django.test import RequestFactory

    from core import public_cache

    request = RequestFactory().get("/ratings/")
    times = []
    for _ in range(HITS):
        if not memo:
            public_cache.forget_pages()
        started = time.perf_counter()
        public_cache.serve_cached(request, "bench-memo", lambda: HttpResponse(PAGE))
        times.append((time.perf_counter() - started) * 1e6)
    return round(statistics.median(times), 1)


def main() -> None:
    import django

    django.setup()
    from django.conf import settings

    median_hit_us(memo=False)  # the page is in Django's cache from here on
    runs = [(median_hit_us(memo=True), median_hit_us(memo=False)) for _ in range(3)]
    print(
        json.dumps(
            {
                "cache_backend": settings.CACHES["default"]["BACKEND"],
                "page_bytes": len(PAGE),
                "hit_from_memo_us": [memo for memo, _ in runs],
                "hit_from_django_cache_us": [shared for _, shared in runs],
                "load_average": os.getloadavg(),
            },
            indent=1,
        )
    )


if __name__ == "__main__":
    main()
