"""How names are compared: plain functions on text, no database.

Two keys per name. The *match key* decides that a new player is a person we
already know (registration links them without asking), so it is strict:
case, Unicode forms and spacing are ignored, nothing else. The *loose key*
only feeds suggestions an organiser confirms: it also ignores accents,
hyphens and the Danish letters' spelling-outs (ø/oe, æ/ae, å/aa), so "Søren
Hansen" and "Soeren Hansen" are put in front of the organiser as a likely
duplicate.
"""

from __future__ import annotations

import difflib
import unicodedata

_SPELLED_OUT = {"æ": "ae", "ø": "oe", "å": "aa", "ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss"}
_SEPARATORS = str.maketrans({"-": " ", ".": " ", ",": " ", "'": "", "’": ""})


def match_key(text: str) -> str:
    """Case, Unicode form and spacing ignored: "  mette  HANSEN" == "Mette Hansen"."""
    return " ".join(unicodedata.normalize("NFKC", text or "").casefold().split())


def loose_key(text: str) -> str:
    """Also accents, punctuation and ø/oe-style spellings ignored."""
    folded = match_key(text).translate(_SEPARATORS)
    spelled = "".join(_SPELLED_OUT.get(ch, ch) for ch in folded)
    decomposed = unicodedata.normalize("NFKD", spelled)
    plain = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    # "aa" and "a" are both spellings of "å" in names (Aase/Åse): one form.
    return " ".join(plain.replace("aa", "a").replace("oe", "o").replace("ae", "a").split())


def name_similarity(a: str, b: str) -> float:
    """0..1, how alike two names are once their loose keys are compared."""
    return difflib.SequenceMatcher(None, loose_key(a), loose_key(b)).ratio()
