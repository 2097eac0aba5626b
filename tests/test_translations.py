"""Danish throughout: every text the code and the templates translate has a Danish translation.

The msgids are found the way ``makemessages`` finds them, without rewriting
any catalogue: Python files are parsed for gettext calls (``_``,
``gettext_lazy``, ``pgettext``, ``ngettext`` …, with literal arguments) and
templates go through Django's own ``templatize``. That covers the pages,
the PDFs (printing/documents) and the rule texts alike. A msgid counts as
translated when Danish gives another text than English at run time (our
catalogues, Django's and DRF's), or when one of our catalogues has a
finished, non-fuzzy translation (a Danish word may equal the English one:
"Buchholz", "Monrad").
"""

from __future__ import annotations

import ast
import io
import tokenize
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import polib
from django.conf import settings
from django.utils import translation
from django.utils.translation.template import templatize

ROOT = Path(settings.BASE_DIR)
SKIP_PARTS = {"migrations", "engine", "tests", "bench", "static", "__pycache__"}
CATALOGUES = sorted(ROOT.glob("*/locale/da/LC_MESSAGES/django.po"))

# name -> positions of (context, singular, plural) among the call's arguments
GETTEXT = {
    "_": (None, 0, None),
    "gettext": (None, 0, None),
    "gettext_lazy": (None, 0, None),
    "gettext_noop": (None, 0, None),
    "pgettext": (0, 1, None),
    "pgettext_lazy": (0, 1, None),
    "ngettext": (None, 0, 1),
    "ngettext_lazy": (None, 0, 1),
    "npgettext": (0, 1, 2),
    "npgettext_lazy": (0, 1, 2),
}

Msgid = tuple[str, str, str | None]  # context, singular, plural


def _msgid(name: str, args: list[str | None]) -> Msgid | None:
    """The msgid of a call with these literal arguments (None: not a literal)."""
    positions = GETTEXT[name]
    values = [args[i] if i is not None and i < len(args) else None for i in positions]
    if values[1] is None or any(
        i is not None and v is None for i, v in zip(positions, values, strict=True)
    ):
        return None  # a variable or f-string: nothing to look up
    return (values[0] or "", values[1], values[2])


def _python(path: Path) -> Iterator[Msgid]:
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
        if name in GETTEXT:
            literals = [a.value if isinstance(a, ast.Constant) else None for a in node.args]
            msgid = _msgid(name, [v if isinstance(v, str) else None for v in literals])
            if msgid:
                yield msgid


def _template(path: Path) -> Iterator[Msgid]:
    # templatize writes each translatable text as a gettext call amid filler.
    source = "\n".join(
        line.lstrip() for line in templatize(path.read_text(), origin=str(path)).splitlines()
    )
    tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    for i, token in enumerate(tokens[:-1]):
        if token.string not in GETTEXT or tokens[i + 1].string != "(":
            continue
        args: list[str | None] = []
        depth = 0
        for inner in tokens[i + 1 :]:
            if inner.string == "(":
                depth += 1
            elif inner.string == ")":
                depth -= 1
                if depth == 0:
                    break
            elif depth == 1 and inner.type == tokenize.STRING:
                args.append(ast.literal_eval(inner.string))
            elif depth == 1 and inner.type in (tokenize.NAME, tokenize.NUMBER):
                args.append(None)
        msgid = _msgid(token.string, args)
        if msgid:
            yield msgid


def used_msgids() -> dict[Msgid, str]:
    """Every literal msgid in our code and templates, with the first file using it."""
    found: dict[Msgid, str] = {}
    for path in sorted(ROOT.rglob("*")):
        relative = path.relative_to(ROOT)
        if relative.parts[0].startswith(".") or relative.parts[0] == "var":
            continue
        if SKIP_PARTS & set(relative.parts):
            continue
        if path.suffix == ".py":
            msgids = _python(path)
        elif path.suffix == ".html" and "templates" in relative.parts:
            msgids = _template(path)
        else:
            continue
        for msgid in msgids:
            found.setdefault(msgid, str(relative))
    return found


def _catalogue_translated() -> set[Msgid]:
    done = set()
    for path in CATALOGUES:
        for entry in polib.pofile(str(path)):
            if entry.obsolete or "fuzzy" in entry.flags:
                continue
            complete = (
                all(entry.msgstr_plural.values()) if entry.msgid_plural else bool(entry.msgstr)
            )
            if complete:
                done.add((entry.msgctxt or "", entry.msgid, entry.msgid_plural or None))
    return done


def _danish_differs(msgid: Msgid) -> bool:
    context, singular, plural = msgid
    with translation.override("da"):
        if plural is not None:
            texts = [
                translation.npgettext(context, singular, plural, n)
                if context
                else translation.ngettext(singular, plural, n)
                for n in (1, 2)
            ]
            return texts != [singular, plural]
        text = translation.pgettext(context, singular) if context else translation.gettext(singular)
        return text != singular


def test_every_text_in_code_and_templates_has_a_danish_translation():
    used = used_msgids()
    assert len(used) > 500  # the extraction itself works
    done = _catalogue_translated()
    missing = sorted(
        f"{where}: {msgid[1]!r}" + (f" (context {msgid[0]!r})" if msgid[0] else "")
        for msgid, where in used.items()
        if msgid not in done and not _danish_differs(msgid)
    )
    assert not missing, (
        "Texts without a finished Danish translation (add msgid/msgstr by hand at the end of "
        "the app's locale/da/LC_MESSAGES/django.po):\n" + "\n".join(missing)
    )


def test_no_catalogue_translates_a_text_twice():
    """Two entries for one msgid (e.g. after a merge) leave it to chance which one is used."""
    twice = []
    for path in CATALOGUES:
        entries = Counter((e.msgctxt, e.msgid) for e in polib.pofile(str(path)) if not e.obsolete)
        twice += [f"{path.relative_to(ROOT)}: {key[1]!r}" for key, n in entries.items() if n > 1]
    assert not twice, "\n".join(twice)


def test_the_extraction_finds_template_plural_and_context_texts():
    used = used_msgids()
    assert ("games played", "G", None) in used  # {% translate "G" context "games played" %}
    assert (
        "",
        "%(counter)s Swiss round left.",
        "%(counter)s Swiss rounds left.",
    ) in used  # {% blocktranslate count %}
    assert ("", "The tournament was created.", None) in used  # _("…") in a view
