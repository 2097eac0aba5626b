"""One GET (or other method) straight into a WSGI layer, without a server:
the tests of the layers in front of Django (config.public_fastpath, config.live_poll)."""

from __future__ import annotations

import io
from wsgiref.util import setup_testing_defaults


def wsgi_call(wsgi, path, *, method="GET", query="", cookie="", etag="", accept_language=""):
    """``(status line, headers, body bytes)`` of ``wsgi``'s answer to one request."""
    environ = {
        "REQUEST_METHOD": method,
        "PATH_INFO": path,
        "QUERY_STRING": query,
        "HTTP_HOST": "127.0.0.1",
        "SERVER_NAME": "127.0.0.1",
        "wsgi.input": io.BytesIO(b""),
    }
    if etag:
        environ["HTTP_IF_NONE_MATCH"] = etag
    if cookie:
        environ["HTTP_COOKIE"] = cookie
    if accept_language:
        environ["HTTP_ACCEPT_LANGUAGE"] = accept_language
    setup_testing_defaults(environ)
    seen = {}

    def start_response(status, headers, exc_info=None):
        seen["status"], seen["headers"] = status, dict(headers)

    body = b"".join(wsgi(environ, start_response))
    return seen["status"], seen["headers"], body
