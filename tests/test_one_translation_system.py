"""One translation system: every user-facing error text goes through gettext.

An error is raised with one English text marked ``_("…")`` and its
``params``; the Danish lives in the app's catalogue
(``<app>/locale/da/LC_MESSAGES/django.po``). These tests keep it so:

* every catalogue is finished: no empty and no fuzzy translation, and each
  entry's Danish is what users see (Django merges the catalogues: a second
  Danish for the same English in another app, or Django's or DRF's own, would
  be chosen by the order of the apps);
* no error (``ApplicationError`` and its family, ``PersonRefused``, the
  apps' error builders) is given a hand-written text: a string literal or
  f-string where a ``_("…")`` text belongs, and no JSON answer is built with
  a literal ``message_da``.

The rules engine (``games/engine``) is plain Python and carries its own
bilingual texts; it is not scanned (docs/decisions.md).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import polib
from django.conf import settings
from django.utils import translation

ROOT = Path(settings.BASE_DIR)
CATALOGUES = sorted(ROOT.glob("*/locale/da/LC_MESSAGES/django.po"))
SKIP_PARTS = {"migrations", "tests", "bench", "static", "__pycache__"}
SKIP_PREFIXES = (("games", "engine"),)

# Files still writing English and Danish by hand, each entry with the reason
# (none: every error text goes through the catalogues).
ALLOWED: set[tuple[str, ...]] = set()

# Error types and builders -> index of the first positional argument that is a
# text (the ones before it are a code or a rule id). Subclasses of the error
# types found in the scanned code are added with their base's index.
TEXT_FROM = {
    "ApplicationError": 1,
    "NotFound": 1,
    "Conflict": 1,
    "RateLimited": 1,
    "PermissionDenied": 0,
    "PersonRefused": 1,
    # the apps' builders of an ApplicationError
    "_invalid": 1,
    "_illegal": 1,
    "_bad_request": 1,
    "_refuse": 1,
    "_bad": 0,
    "_bad_document": 0,
    "_record_refused": 0,
    "_require_not_started": 0,
}
# Texts that two catalogues translated differently before the error texts
# moved to gettext (a word on a page or a PDF, no error). Users see the first
# app's Danish (INSTALLED_APPS order); telling them apart needs a context
# (pgettext) in the pages and PDFs that use them. Do not add to this list.
CLASHES_BEFORE_ONE_SYSTEM = {
    "Check",  # games "Kontrollér", printing "Kontrol"
    "Go",  # judging "Gå", hidden behind Django admin's "Udfør"
    "Head-to-head",  # printing, tournament
    "Judge call",  # judging, printing
    "Kind",  # printing, tournament
    "Locked-pawn difference",  # printing, tournament
    "Paused",  # games, judging
    "Remaining-distance difference",  # printing, tournament
    "Running",  # games, judging, printing
    "clock speed",  # games, tournament
    "paused since",  # games, judging
    "undone",  # judging, season
}
HAND_WRITTEN_KEYWORDS = {"message_en", "message_da", "en", "da"}


def _python_files() -> Iterator[Path]:
    for path in sorted(ROOT.rglob("*.py")):
        parts = path.relative_to(ROOT).parts
        if parts[0].startswith(".") or parts[0] == "var" or SKIP_PARTS & set(parts):
            continue
        if any(parts[: len(prefix)] == prefix for prefix in SKIP_PREFIXES):
            continue
        yield path


def _allowed(path: Path) -> bool:
    parts = path.relative_to(ROOT).parts
    return any(parts[: len(prefix)] == prefix for prefix in ALLOWED)


def _name(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def _hand_written(node: ast.expr) -> bool:
    """A string literal, an f-string, or text glued from them."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str)
    if isinstance(node, ast.JoinedStr):
        return True
    if isinstance(node, ast.BinOp):
        return _hand_written(node.left) or _hand_written(node.right)
    return False


def _text_from(trees: dict[Path, ast.Module]) -> dict[str, int]:
    """TEXT_FROM plus every subclass of those error types in the scanned code."""
    known = dict(TEXT_FROM)
    grown = True
    while grown:
        grown = False
        for tree in trees.values():
            for node in ast.walk(tree):
                if not isinstance(node, ast.ClassDef) or node.name in known:
                    continue
                bases = [known[b] for b in map(_name, node.bases) if b in known]
                if bases:
                    known[node.name] = bases[0]
                    grown = True
    return known


def hand_written_texts(trees: dict[Path, ast.Module]) -> list[str]:
    """``file:line: what`` for every error text not given through gettext."""
    text_from = _text_from(trees)
    found = []
    for path, tree in trees.items():
        where = path.relative_to(ROOT)
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and _name(node.func) in text_from:
                name = _name(node.func)
                # the text and, in the old form, its Danish
                start = text_from[name]  # type: ignore[index]
                texts = node.args[start : start + 2]
                keywords = [k.value for k in node.keywords if k.arg in HAND_WRITTEN_KEYWORDS]
                if any(_hand_written(arg) for arg in [*texts, *keywords]):
                    found.append(f"{where}:{node.lineno}: {name}(…) with a hand-written text")
            if isinstance(node, ast.Dict):
                for key, value in zip(node.keys, node.values, strict=True):
                    if (
                        isinstance(key, ast.Constant)
                        and key.value in ("message_en", "message_da")
                        and _hand_written(value)
                    ):
                        found.append(f"{where}:{node.lineno}: a literal {key.value!r} in JSON")
    return sorted(found)


def _parsed(paths: Iterator[Path]) -> dict[Path, ast.Module]:
    return {path: ast.parse(path.read_text(), str(path)) for path in paths}


def test_no_error_text_is_written_in_english_and_danish_by_hand():
    trees = _parsed(_python_files())
    found = [line for line in hand_written_texts(trees) if not _allowed(ROOT / line.split(":")[0])]
    assert not found, (
        "Give these errors one text, _('English %(x)s.') with params={'x': …}, and put the "
        "Danish in the app's locale/da/LC_MESSAGES/django.po:\n" + "\n".join(found)
    )


def test_the_scan_finds_each_kind_of_hand_written_text(tmp_path):
    source = tmp_path / "sample.py"
    source.write_text(
        "class Refused(ApplicationError):\n"
        "    pass\n"
        "raise ApplicationError('code', 'English', 'Dansk')\n"
        "raise PermissionDenied('English', f'Dansk {x}')\n"
        "raise Refused('code', 'English ' + name, 'Dansk')\n"
        "raise _invalid('code', en='English', da='Dansk')\n"
        "answer = {'code': 'x', 'message_da': 'Dansk'}\n"
        "raise ApplicationError('code', _('English %(x)s.'), params={'x': x})\n"
        "raise ApplicationError(err.code, err.message_en, err.message_da)\n"
        "raise PermissionDenied()\n"
    )
    found = hand_written_texts({ROOT / "sample.py": ast.parse(source.read_text())})
    assert [line.split(":")[1] for line in found] == ["3", "4", "5", "6", "7"]


def test_the_allow_list_only_names_what_still_needs_it():
    """An entry whose files are all converted must go."""
    trees = _parsed(_python_files())
    for prefix in ALLOWED:
        within = {
            path: tree
            for path, tree in trees.items()
            if path.relative_to(ROOT).parts[: len(prefix)] == prefix
        }
        assert hand_written_texts(within), f"{'/'.join(prefix)} is converted: drop it from ALLOWED"


def test_every_catalogue_is_finished():
    unfinished = []
    for path in CATALOGUES:
        for entry in polib.pofile(str(path)):
            if entry.obsolete:
                continue
            done = all(entry.msgstr_plural.values()) if entry.msgid_plural else entry.msgstr
            if "fuzzy" in entry.flags or not done:
                unfinished.append(f"{path.relative_to(ROOT)}: {entry.msgid!r}")
    assert not unfinished, "Fuzzy or untranslated:\n" + "\n".join(unfinished)


def test_users_see_the_danish_of_each_catalogue():
    """The merged catalogues give each entry's own Danish: no app's translation, nor
    Django's or DRF's, is hidden behind another for the same English."""
    hidden = []
    with translation.override("da"):
        for path in CATALOGUES:
            for entry in polib.pofile(str(path)):
                if not entry.msgid or entry.obsolete or entry.msgid_plural:
                    continue
                shown = (
                    translation.pgettext(entry.msgctxt, entry.msgid)
                    if entry.msgctxt
                    else translation.gettext(entry.msgid)
                )
                if shown != entry.msgstr and entry.msgid not in CLASHES_BEFORE_ONE_SYSTEM:
                    hidden.append(f"{path.relative_to(ROOT)}: {entry.msgid!r} shows {shown!r}")
    assert not hidden, "\n".join(hidden)


def test_a_text_is_rendered_per_language_with_translated_and_engine_values():
    from django.utils.translation import gettext_lazy as _

    from core.errors import ApplicationError, bilingual

    error = ApplicationError(
        "example",
        _("Entry %(number)s (%(move)s): %(why)s"),  # games' catalogue
        params={"number": 3, "move": "Y 5: Y3+5", "why": bilingual("No pawn.", "Ingen brik.")},
    )
    assert error.message_en == "Entry 3 (Y 5: Y3+5): No pawn."
    assert error.message_da == "Post 3 (Y 5: Y3+5): Ingen brik."
    refused = ApplicationError("example", _("%(name)s may be at most %(limit)s characters."),
                               params={"name": _("The note"), "limit": 500})  # fmt: skip
    assert (refused.message_en, refused.message_da) == (
        "The note may be at most 500 characters.",
        "Noten må højst være 500 tegn.",
    )
