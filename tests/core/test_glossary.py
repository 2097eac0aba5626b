"""One Danish word per concept: no Danish text uses a variant docs/glossary.md calls wrong.

The glossary is the single source: its tables' "Ikke" column lists the wrong
variants (in backticks), and this test looks for each in every Danish text
the system shows: every app's Danish catalogue (msgstr), the literal text of
every template (what is not inside a translate tag is shown in both
languages), and the Danish string literals of the Python code (an error
message's Danish half, a PDF's Danish words, the rules engine's Danish
messages). Notation shown as notation (inside ``<code>…</code>`` or quoted
``'…'``) and placeholders are not Danish words.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import polib
import pytest
from django.conf import settings

ROOT = Path(settings.BASE_DIR)
GLOSSARY = ROOT / "docs" / "glossary.md"
SKIP_PARTS = {"migrations", "tests", "bench", "static", "__pycache__", "node_modules"}
# Notation shown as notation: inside <code>…</code> or quoted '…'; placeholders.
NOTATION = re.compile(r"<code>.*?</code>|'[^'\n]*'|%\(\w+\)[sd]|\{\w*\}", re.S)
MARKUP = re.compile(r"<script.*?</script>|<style.*?</style>|<[^>]*>|{{.*?}}|{%.*?%}|{#.*?#}", re.S)
TRANSLATE_TAGS = re.compile(
    r"{%\s*blocktranslate.*?{%\s*endblocktranslate\s*%}|{%\s*(translate|trans)\s.*?%}", re.S
)
# Words that make a Python string literal Danish when two of them occur in it.
DANISH_WORDS = frozenset(
    {"og", "er", "på", "ikke", "skal", "kan", "har", "af", "det", "den", "ved", "de", "nr"}
    | {"efter", "eller", "som", "fra", "med", "der", "ingen", "runde", "runder", "bord"}
    | {"brik", "brikken", "brikker", "spillet", "parret", "kort", "dommer", "dommeren"}
)
DANISH_LETTERS = re.compile("[æøåÆØÅ]")


@dataclass(frozen=True)
class Variant:
    text: str
    pattern: re.Pattern[str]


def _variant(text: str) -> Variant:
    body = re.escape(text.rstrip("*")).replace(r"\ ", r"\s+")
    if text.endswith("*"):
        body += r"\w*"
    start = r"(?<![\w-])" if text[0].isalnum() else ""
    end = r"(?![\w-])" if text[-1].isalnum() else ""
    flags = 0 if any(c.isupper() for c in text) else re.IGNORECASE
    return Variant(text, re.compile(start + body + end, flags))


def glossary_variants() -> list[Variant]:
    """The backticked variants of the "Ikke" column of every glossary table."""
    variants: list[Variant] = []
    column: int | None = None
    for line in GLOSSARY.read_text().splitlines():
        if not line.startswith("|"):
            column = None
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if column is None:
            column = cells.index("Ikke") if "Ikke" in cells else -1
            continue
        if column < 0 or column >= len(cells) or set(cells[column]) <= set("-: "):
            continue
        variants += [_variant(v) for v in re.findall(r"`([^`]+)`", cells[column])]
    return variants


def _sources(pattern: str) -> Iterator[Path]:
    for path in sorted(ROOT.glob(pattern)):
        relative = path.relative_to(ROOT)
        if relative.parts[0].startswith(".") or relative.parts[0] == "var":
            continue
        if not SKIP_PARTS & set(relative.parts):
            yield path


def catalogue_texts() -> Iterator[tuple[str, str]]:
    for path in _sources("*/locale/da/LC_MESSAGES/django.po"):
        for entry in polib.pofile(str(path)):
            if entry.obsolete:
                continue
            for text in [entry.msgstr, *entry.msgstr_plural.values()]:
                if text:
                    yield f"{path.relative_to(ROOT)}: msgid {entry.msgid[:60]!r}", text


def template_texts() -> Iterator[tuple[str, str]]:
    for suffix in ("html", "txt", "js"):
        for path in _sources(f"**/templates/**/*.{suffix}"):
            text = TRANSLATE_TAGS.sub(" ", path.read_text())
            yield str(path.relative_to(ROOT)), MARKUP.sub(" ", text)


def _is_key(node: ast.AST | None, language: str) -> bool:
    return isinstance(node, ast.Constant) and node.value == language


def _literal(node: ast.AST) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return " ".join(_literal(v) or " " for v in node.values)
    return None


def _looks_danish(text: str) -> bool:
    words = set(re.findall(r"\w+", text.lower()))
    return bool(DANISH_LETTERS.search(text)) or len(words & DANISH_WORDS) >= 2


def python_danish_texts() -> Iterator[tuple[str, str]]:
    for path in _sources("**/*.py"):
        tree = ast.parse(path.read_text(), str(path))
        danish: set[int] = set()
        english: set[int] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Dict):
                for key, value in zip(node.keys, node.values, strict=True):
                    if _is_key(key, "da"):
                        danish.add(id(value))
                    elif _is_key(key, "en"):
                        english.add(id(value))
            elif isinstance(node, ast.Call):
                danish.update(id(k.value) for k in node.keywords if (k.arg or "").endswith("da"))
            elif isinstance(node, ast.JoinedStr):  # read whole, not part by part
                english.update(id(v) for v in node.values)
        for node in ast.walk(tree):
            text = _literal(node)
            if not text or id(node) in english:
                continue
            if id(node) in danish or _looks_danish(text):
                yield f"{path.relative_to(ROOT)}:{getattr(node, 'lineno', 0)}", text


def wrong_variants_in(texts: Iterator[tuple[str, str]]) -> list[str]:
    variants = glossary_variants()
    found = []
    for where, text in texts:
        plain = NOTATION.sub(" ", text)
        found += [
            f"{where}: {v.text!r} in {text[:120]!r}" for v in variants if v.pattern.search(plain)
        ]
    return found


def test_the_glossary_lists_wrong_variants_the_test_can_read():
    texts = {v.text for v in glossary_variants()}
    assert {"scoresedl*", "schweizerrunde*", "KO", "Afmelde", "“", "VOID"} <= texts


@pytest.mark.parametrize(
    ("variant", "text", "hit"),
    [
        ("scoresedl*", "skriv den på Scoresedlen", True),
        ("KO", "KOM nu", False),
        ("KO", "KO 3", True),
        ("Afmelde", "Afmelde Par 7?", True),
        ("Afmelde", "I kan afmelde jer her", False),
        ("meld fra", "Meld  fra her", True),
        ("“", "Gem den som “CSV”", True),
        ("16.-delsfinale*", "16.-delsfinaler", True),
    ],
)
def test_a_variant_matches_whole_words_and_capitals_only_when_written(variant, text, hit):
    assert bool(_variant(variant).pattern.search(text)) is hit


def test_no_danish_translation_uses_a_wrong_variant():
    found = wrong_variants_in(catalogue_texts())
    assert not found, "Wrong variants (docs/glossary.md):\n" + "\n".join(found)


def test_no_template_text_uses_a_wrong_variant():
    found = wrong_variants_in(template_texts())
    assert not found, "Wrong variants (docs/glossary.md):\n" + "\n".join(found)


def test_no_danish_text_in_the_code_uses_a_wrong_variant():
    texts = list(python_danish_texts())
    assert len(texts) > 100  # the Danish halves of messages are found
    found = wrong_variants_in(iter(texts))
    assert not found, "Wrong variants (docs/glossary.md):\n" + "\n".join(found)
