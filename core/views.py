"""Language switch by a plain link.

Django's ``set_language`` needs a POST with a CSRF token, which would put a
per-visitor token into every public page and stop those pages from being
shared cache entries. Choosing a language only sets a preference cookie, so
a GET link is safe here; ``next`` is checked like Django does.
"""

from __future__ import annotations

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponseRedirect
from django.utils.http import url_has_allowed_host_and_scheme

from core.request import query_text


def language_switch(request: HttpRequest, code: str) -> HttpResponseRedirect:
    if code not in dict(settings.LANGUAGES):
        raise Http404
    next_url = query_text(request, "next", max_length=2000, default="/")
    if not url_has_allowed_host_and_scheme(
        next_url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        next_url = "/"
    response = HttpResponseRedirect(next_url)
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        code,
        max_age=settings.LANGUAGE_COOKIE_AGE or 365 * 24 * 3600,
        samesite="Lax",
        secure=settings.SESSION_COOKIE_SECURE,
    )
    return response
