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
* **invisible characters** (zero-width space, joiners, word joiner, BOM,
  the Mongolian vowel separator, soft hyphen, tag characters: Unicode's
  format characters; line and paragraph separators; the Hangul fillers):
  two names that look the same on a page would be two people, and a
  search or a merge would not find one by the other.

Every name-like field of every model carries ``core.validation.OneLineName``
(tests/core/test_name_fields.py enumerates them).
"""

from __future__ import annotations

import re
import unicodedata

from django.utils.translation import gettext_lazy as _

from core.errors import ApplicationError

_NOT_STORABLE = re.compile("[\x00\ud800-\udfff]")
# Controls, surrogates, format characters (category Cf: zero-width space and
# joiners, word joiner, BOM, U+180E, soft hyphen, tags …), line and paragraph
# separators. The direction marks LRM, RLM and ALM are format characters that
# only nudge neutral characters: a right-to-left name may need one.
_REFUSED_CATEGORIES = frozenset({"Cc", "Cs", "Cf", "Zl", "Zp"})
_DIRECTION_MARKS = frozenset("\u200e\u200f\u061c")
# Letters by their category that show nothing: combining grapheme joiner,
# Hangul fillers, Khmer inherent vowels.
_INVISIBLE_LETTERS = frozenset("\u034f\u115f\u1160\u17b4\u17b5\u3164\uffa0")


def _refused_in_name(text: str) -> str | None:
    """The first character a name may not hold, or None."""
    for char in text:
        if char.isprintable() and char not in _INVISIBLE_LETTERS:
            continue  # the common case, without a table lookup
        if char in _DIRECTION_MARKS:
            continue
        if char in _INVISIBLE_LETTERS or unicodedata.category(char) in _REFUSED_CATEGORIES:
            return char
    return None


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
    """A name as typed, refused if it has control, direction or invisible characters.

    A person's or a club's name is one line of visible characters: a control
    character (tab, newline, NUL …), an invisible direction control or a
    zero-width character in it is a copy-and-paste accident or an attempt to
    disguise what a page says.
    """
    found = _refused_in_name(text)
    if found is None:
        return text
    if not is_storable(text):
        raise text_not_storable(field)
    code = f"U+{ord(found):04X}"
    label = unicodedata.name(found, "CONTROL CHARACTER").lower()
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
