"""Regenerate ``judging/rules_text.py``: every rule id's text per ruleset, as HTML.

dm2023: English from ``shared/rules/RULES.md`` (plus ``judging/rules/extra.en.md``
for ids the product cites beyond it), Danish from ``judging/rules/RULES.da.md``.
rulebook, fr, duo: their readings in ``docs/rulesets/`` (the engine's authority,
docs/engine.md), in English only; rulebook and fr are written as differences
from RULES.md, so an id their summary table calls unchanged keeps RULES.md's
texts in both languages, and an id that does not apply has none.
The markdown is rendered here, once, with markdown-it-py (raw HTML off), and
the result is committed: the application never reads ``../shared`` nor needs
a markdown library at run time.
"""

from __future__ import annotations

import datetime
import hashlib
import re
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from games.engine import DM2023, ruleset_names

# "- **C3** text", "- **T4 Start-field block.** text" (the title goes in bold) or, in
# a ruleset's reading, "- **B2 (replaces) Every space counts.**", "- **P1, P2 (replaced)**".
_RULE_START = re.compile(r"^- \*\*([A-Z]\d*(?:, [A-Z]\d+)*)(?: ([^*]+))?\*\*\s*(.*)$")
# A reading's status mark, which the summary table already says.
_STATUS_MARK = re.compile(r"^\((?:replaces|replaced|new)\)\s*")
# A row of a reading's summary table: "| replaced (same id, text below) | S3, B1, … |".
_SUMMARY_ROW = re.compile(
    r"^\| (unchanged|replaced[^|]*|does not apply[^|]*|new) \| ([^|]+) \|\s*$", re.M
)
RULES_DIR = Path(__file__).resolve().parents[2] / "rules"
RULESETS_DIR = Path(__file__).resolve().parents[3] / "docs" / "rulesets"


def _kind(line: str) -> str:
    if line.startswith("|"):
        return "table"
    if line.startswith("- ") or line.startswith("  "):
        return "list"
    return "text"


def _markdown(first: str, rest: list[str]) -> str:
    """The rule's own markdown: blank lines between its paragraphs, lists and tables,
    which RULES.md writes without them as continuation lines of one list item."""
    lines = [first]
    kind = "text"
    for line in rest:
        new = _kind(line)
        if new != kind:
            lines.append("")
        lines.append(line)
        kind = new
    return "\n".join(lines).strip()


def rules_parse(text: str) -> dict[str, str]:
    """Rule id → its markdown, from list items ``- **ID** …`` and their indented lines."""
    rules: dict[str, str] = {}
    current: str | None = None
    first = ""
    rest: list[str] = []

    def flush() -> None:
        if current is not None:
            for rule in current.split(", "):
                rules[rule] = _markdown(first, rest)

    for line in text.splitlines():
        match = _RULE_START.match(line)
        if match:
            flush()
            current, rest = match[1], []
            title = _STATUS_MARK.sub("", (match[2] or "").strip())
            first = f"**{title}** {match[3]}" if title else match[3]
        elif current is not None and line.startswith("  "):
            rest.append(line[2:])
        elif current is not None and not line.strip():
            continue
        else:
            flush()
            current = None
    flush()
    return rules


def rules_render(rules: dict[str, str]) -> dict[str, str]:
    from markdown_it import MarkdownIt

    renderer = MarkdownIt("commonmark", {"html": False}).enable("table")
    return {rule: renderer.render(text).strip() for rule, text in rules.items()}


def shared_rules_md() -> Path | None:
    """RULES.md in the ``shared`` folder next to the checkout (or next to its parent)."""
    base = Path(settings.BASE_DIR).resolve()
    for folder in (base.parent, base.parent.parent):
        candidate = folder / "shared" / "rules" / "RULES.md"
        if candidate.exists():
            return candidate
    return None


def rules_sources(rules_md: Path) -> dict[str, dict[str, Path]]:
    """Per language, the dm2023 source files (label → path) in the order they are read."""
    return {
        "en": {
            "shared/rules/RULES.md": rules_md,
            "judging/rules/extra.en.md": RULES_DIR / "extra.en.md",
        },
        "da": {"judging/rules/RULES.da.md": RULES_DIR / "RULES.da.md"},
    }


def reading_sources() -> dict[str, Path]:
    """Each other ruleset's reading (ruleset → path), the files docs/engine.md names as
    the engine's authority; their texts exist in English only. Every ruleset of the
    engine's registry but dm2023 (whose text is RULES.md) has one, named after it."""
    return {name: RULESETS_DIR / f"{name}.md" for name in ruleset_names() if name != DM2023.name}


def _dm2023_build(rules_md: Path, digests: dict[str, str]) -> dict[str, dict[str, str]]:
    by_language: dict[str, dict[str, str]] = {}
    for language, files in rules_sources(rules_md).items():
        markdown: dict[str, str] = {}
        for label, path in files.items():
            raw = path.read_bytes()
            digests[label] = hashlib.sha256(raw).hexdigest()
            markdown.update(rules_parse(raw.decode()))
        by_language[language] = rules_render(markdown)
    missing = set(by_language["en"]) ^ set(by_language["da"])
    if missing:
        raise CommandError(f"Rule ids without a text in both languages: {sorted(missing)}")
    return {
        rule: {language: texts[rule] for language, texts in by_language.items()}
        for rule in by_language["en"]
    }


def reading_statuses(text: str) -> dict[str, str]:
    """Rule id → its status (``unchanged``, ``replaced``, ``does``, ``new``) from the
    reading's summary table; empty for a reading with ids of its own (DUO)."""
    statuses: dict[str, str] = {}
    for match in _SUMMARY_ROW.finditer(text):
        status = match[1].split()[0]
        for rule in re.findall(r"\b([A-Z]\d+)\b", match[2]):
            statuses[rule] = status
    return statuses


def _reading_build(text: str, dm2023: dict[str, dict[str, str]]) -> dict[str, dict[str, str]]:
    """A reading's texts: an unchanged id is RULES.md's word for word (with its Danish),
    a replaced or new id the reading's own English, an id that does not apply none."""
    own = rules_render(rules_parse(text))
    statuses = reading_statuses(text)
    if not statuses:
        return {rule: {"en": html} for rule, html in own.items()}
    own_ids = {rule for rule, status in statuses.items() if status in ("replaced", "new")}
    missing = sorted(own_ids - set(own))
    if missing:
        raise CommandError(f"Replaced or new rule ids without a text: {missing}")
    rules: dict[str, dict[str, str]] = {}
    for rule, status in statuses.items():
        if status == "unchanged":
            rules[rule] = dm2023[rule]
        elif status in ("replaced", "new"):
            rules[rule] = {"en": own[rule]}
    # The notation is RULES.md's in these readings, so an unreadable entry is N as there.
    rules["N"] = dm2023["N"]
    return rules


def rules_build(rules_md: Path) -> tuple[dict[str, str], dict[str, dict[str, dict[str, str]]]]:
    """(source label → SHA-256, ruleset → rule id → {language → HTML}).

    dm2023 refuses ids missing in a language; another ruleset's own texts have
    only ``en`` (its reading is written in English).
    """
    digests: dict[str, str] = {}
    dm2023 = _dm2023_build(rules_md, digests)
    rulesets = {"dm2023": dm2023}
    for name, path in reading_sources().items():
        raw = path.read_bytes()
        digests[f"docs/rulesets/{name}.md"] = hashlib.sha256(raw).hexdigest()
        rulesets[name] = _reading_build(raw.decode(), dm2023)
    return digests, rulesets


class Command(BaseCommand):
    help = "Regenerate judging/rules_text.py from RULES.md, its Danish and the rulesets' readings."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--source", default="", help="RULES.md (default: ../shared/rules/)")

    def handle(self, *args: Any, **options: Any) -> None:
        rules_md = Path(options["source"]) if options["source"] else shared_rules_md()
        if rules_md is None or not rules_md.exists():
            raise CommandError("RULES.md not found; give it with --source.")
        digests, rulesets = rules_build(rules_md)
        out = Path(settings.BASE_DIR) / "judging" / "rules_text.py"
        # Double quotes, as ruff format writes them: the file comes out lint-clean.
        sources = "".join(f'    "{label}": "{digest}",\n' for label, digest in digests.items())
        body = "".join(
            f"    {name!r}: {{\n"
            + "".join(f"        {rule!r}: {texts!r},\n" for rule, texts in rules.items())
            + "    },\n"
            for name, rules in rulesets.items()
        )
        out.write_text(
            "# ruff: noqa: E501\n"
            '"""Rule texts per ruleset, as HTML: ``RULES_HTML[ruleset][rule id][language]``.\n\n'
            "dm2023 has English and Danish; another ruleset's own texts have English only\n"
            "(its reading, docs/rulesets/<name>.md, is written in English), its unchanged\n"
            "ids RULES.md's texts in both languages.\n\n"
            "Generated — do not edit. Regenerate with ``manage.py judging_rules_text``\n"
            "when RULES.md, a file in ``judging/rules/`` or a reading in ``docs/rulesets/``\n"
            "changes (``SOURCES`` holds the SHA-256 of each source).\n"
            '"""\n\n'
            f"SOURCES: dict[str, str] = {{\n{sources}}}\n"
            f'GENERATED_ON = "{datetime.date.today().isoformat()}"\n\n'
            "# fmt: off\n"
            f"RULES_HTML: dict[str, dict[str, dict[str, str]]] = {{\n{body}}}\n"
            "# fmt: on\n"
        )
        counts = ", ".join(f"{name} {len(rules)}" for name, rules in rulesets.items())
        self.stdout.write(f"Rule texts ({counts}) written to {out}")
