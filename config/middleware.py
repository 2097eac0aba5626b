"""Middleware of the whole site: security headers, and the language of each answer."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import translation
from django.utils.cache import patch_vary_headers


class ContentSecurityPolicyMiddleware:
    """Adds the site's Content-Security-Policy to every response that has none."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.policy = settings.CSP_POLICY

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if self.policy and "Content-Security-Policy" not in response:
            response["Content-Security-Policy"] = self.policy
        return response


EVENT_PATH = re.compile(r"^/(?:api/)?(?:tournaments|organise)/(?P<slug>[-\w]+)/")


def visitor_language(*, cookie: str | None, path: str) -> str:
    """The language of an answer: the visitor's own choice, else the event's, else the site's.

    The browser's Accept-Language is not asked on purpose: a Danish
    championship is Danish for everyone (an English-language phone too)
    until the visitor picks English with the language switch, which sets
    the cookie. Event pages, their fragments and their API answers follow
    the event's language, so a page and the labels its scripts fetch agree.
    """
    if cookie and cookie in _languages():
        return cookie
    match = EVENT_PATH.match(path)
    if match is not None:
        from tournament.page_version import tournament_stamp

        stamp = tournament_stamp(match["slug"])
        if stamp is not None:
            return stamp.language
    return str(settings.LANGUAGE_CODE)


@functools.cache
def _languages() -> frozenset[str]:
    # Asked on every request, table moves included: read the setting once.
    return frozenset(code for code, _name in settings.LANGUAGES)


class VisitorLanguageMiddleware:
    """Activates ``visitor_language`` for the request (in place of Django's LocaleMiddleware)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        language = visitor_language(
            cookie=request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME), path=request.path_info
        )
        translation.activate(language)
        request.LANGUAGE_CODE = translation.get_language()
        response = self.get_response(request)
        response.headers.setdefault("Content-Language", language)
        # The language comes from the cookie: a shared cache must keep one copy per choice.
        patch_vary_headers(response, ("Cookie",))
        return response
