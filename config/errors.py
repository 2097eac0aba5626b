"""Error answers of the whole site: 400, 403, 404, 500 and a failed CSRF check.

Pages come in the site's style with the message in Danish and English
(templates/errors/); an address under ``/api/`` gets the API's bilingual
JSON error instead of a page. The 500 page is rendered without the
database, the session or the request's context: whatever broke may be
one of them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.template import loader
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from config.middleware import EVENT_PATH
from core.errors import Text, in_language


@dataclass(frozen=True)
class ErrorText:
    """A page's title and message (``gettext_lazy`` texts), shown in both languages."""

    code: str
    title: Text
    message: Text
    # For a program calling the API, when the page's words do not fit.
    api: Text = ""

    @property
    def title_en(self) -> str:
        return in_language(self.title, "en")

    @property
    def title_da(self) -> str:
        return in_language(self.title, "da")

    @property
    def message_en(self) -> str:
        return in_language(self.message, "en")

    @property
    def message_da(self) -> str:
        return in_language(self.message, "da")


TEXTS = {
    "bad_request": ErrorText(
        "bad_request",
        _("Bad request"),
        _("The request could not be understood. Go back and try again."),
    ),
    "permission_denied": ErrorText(
        "permission_denied",
        _("Not allowed"),
        _("You may not open this page. Signed in with the wrong user? Log out and in again."),
    ),
    "not_found": ErrorText(
        "not_found",
        _("Page not found"),
        _("Nothing exists at this address. Check it, or start from the front page."),
        # The same words as the API's own 404 (core/api_errors.py).
        _("Not found: nothing exists at this address."),
    ),
    "csrf_failed": ErrorText(
        "csrf_failed",
        _("The form was out of date"),
        _(
            "The page was open a long time, or cookies are blocked. Nothing was changed. "
            "Go back, reload the page and try again."
        ),
    ),
    "server_error": ErrorText(
        "server_error",
        _("Something went wrong"),
        _(
            "Something went wrong on the server. What was saved is saved. Try again in a "
            "moment; if it happens again, tell the organisers' desk."
        ),
    ),
}


def _api(request: HttpRequest) -> bool:
    return request.path_info.startswith("/api/")


def _json(text: ErrorText, lang: str, status: int) -> JsonResponse:
    message = text.api or text.message
    message_en, message_da = in_language(message, "en"), in_language(message, "da")
    error = {
        "code": text.code,
        "message": message_en if lang == "en" else message_da,
        "message_en": message_en,
        "message_da": message_da,
    }
    return JsonResponse({"error": error}, status=status)


def _error(request: HttpRequest, key: str, status: int) -> HttpResponse:
    text = TEXTS[key]
    lang = (translation.get_language() or "da")[:2]
    if _api(request):
        return _json(text, lang, status)
    context = {
        "text": text,
        "status": status,
        "english_first": lang == "en",
        # Lost inside an event: its bar leads back to the event's pages.
        "tournament": _event(request),
    }
    return render(request, "errors/page.html", context, status=status)


def _event(request: HttpRequest) -> Any:
    from tournament.models import Tournament

    match = EVENT_PATH.match(request.path_info)
    if match is None:
        return None
    return Tournament.objects.filter(slug=match["slug"], published=True).first()


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return _error(request, "bad_request", 400)


def permission_denied(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return _error(request, "permission_denied", 403)


def page_not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return _error(request, "not_found", 404)


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    return _error(request, "csrf_failed", 403)


def server_error(request: HttpRequest) -> HttpResponse:
    text = TEXTS["server_error"]
    if _api(request):
        return _json(text, "da", 500)
    html = loader.get_template("errors/500.html").render({"text": text})
    return HttpResponse(html, status=500)
