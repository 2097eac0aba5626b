"""Text typed by a person: what the database can store and what a page can show.

Two kinds of character make trouble:

* **not storable**: NUL (PostgreSQL refuses it in text) and lone UTF-16
  surrogates (U+D800–U+DFFF, which no UTF-8 encoder accepts). JSON can carry
  both (``"\\u0000"``, ``"\\ud800"``); a form cannot (Django decodes form
  bytes with replacement characters and its form fields refuse NUL).
* **invisible direction controls** (U+202A–U+202E embeddings and overrides,
  U+2066–U+2069 isolates): a name that carries one can turn the rest of a
  line around on a page. Names refuse them; a page still shows every name in
  its own bidi isolate (``<bdi>``) for the names stored before.
"""

from __future__ import annotations

import re
import unicodedata

from django.utils.translation import gettext_lazy as _

from core.errors import ApplicationError

_NOT_STORABLE = re.compile("[\x00\ud800-\udfff]")
# Embeddings, overrides and isolates; the marks (LRM, RLM, ALM) only nudge
# neutral characters and are left alone.
BIDI_CONTROLS = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
_NAME_REFUSED = re.compile(f"[\x00-\x1f\x7f-\x9f\ud800-\udfff{BIDI_CONTROLS}]")


def is_storable(text: str) -> bool:
    """Whether every database this system runs on can store ``text``."""
    return _NOT_STORABLE.search(text) is None


def text_not_storable(field: str) -> ApplicationError:
    """The bilingual 400 for a text with a NUL byte or a broken Unicode character."""
    return ApplicationError(
        "text_not_storable",
        _(
            "%(field)s: the text contains a character that cannot be stored (a NUL "
            "byte or a broken Unicode character). Type it again without it."
        ),
        params={"field": field},
        status=400,
        extra={"field": field},
    )


def text_check(text: str, *, field: str) -> str:
    """``text`` unchanged, or the bilingual 400 when the database cannot store it."""
    if not is_storable(text):
        raise text_not_storable(field)
    return text


def name_check(text: str, *, field: str) -> str:
    """A name as typed, refused if it has control characters or direction controls.

    A person's or a club's name is one line of visible characters: a control
    character (tab, newline, NUL …) or an invisible direction control in it
    is a copy-and-paste accident or an attempt to disguise what a page says.
    """
    found = _NAME_REFUSED.search(text)
    if found is None:
        return text
    if not is_storable(text):
        raise text_not_storable(field)
    code = f"U+{ord(found.group()):04X}"
    label = unicodedata.name(found.group(), "CONTROL CHARACTER").lower()
    raise ApplicationError(
        "name_control_character",
        _(
            "%(field)s: the name contains an invisible control character (%(code)s, "
            "%(label)s). Type the name again without it."
        ),
        params={"field": field, "code": code, "label": label},
        status=400,
        extra={"field": field},
    )
