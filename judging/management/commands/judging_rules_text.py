"""Regenerate ``judging/rules_text.py``: every rule id's text in English and Danish, as HTML.

English comes from ``shared/rules/RULES.md`` (plus ``judging/rules/extra.en.md``
for ids the product cites beyond it), Danish from ``judging/rules/RULES.da.md``.
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

# "- **C3** text" or "- **T4 Start-field block.** text" (the title goes in bold).
_RULE_START = re.compile(r"^- \*\*([A-Z]\d*)(?: ([^*]+))?\*\*\s*(.*)$")
RULES_DIR = Path(__file__).resolve().parents[2] / "rules"


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
            rules[current] = _markdown(first, rest)

    for line in text.splitlines():
        match = _RULE_START.match(line)
        if match:
            flush()
            current, rest = match[1], []
            title = match[2]
            first = f"**{title.strip()}** {match[3]}" if title else match[3]
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
    """Per language, the source files (label → path) in the order they are read."""
    return {
        "en": {
            "shared/rules/RULES.md": rules_md,
            "judging/rules/extra.en.md": RULES_DIR / "extra.en.md",
        },
        "da": {"judging/rules/RULES.da.md": RULES_DIR / "RULES.da.md"},
    }


def rules_build(rules_md: Path) -> tuple[dict[str, str], dict[str, dict[str, str]]]:
    """(source label → SHA-256, rule id → {language → HTML}); refuses ids missing in a language."""
    digests: dict[str, str] = {}
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
    rules = {
        rule: {language: texts[rule] for language, texts in by_language.items()}
        for rule in by_language["en"]
    }
    return digests, rules


class Command(BaseCommand):
    help = "Regenerate judging/rules_text.py from RULES.md and the Danish rule texts."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--source", default="", help="RULES.md (default: ../shared/rules/)")

    def handle(self, *args: Any, **options: Any) -> None:
        rules_md = Path(options["source"]) if options["source"] else shared_rules_md()
        if rules_md is None or not rules_md.exists():
            raise CommandError("RULES.md not found; give it with --source.")
        digests, rules = rules_build(rules_md)
        out = Path(settings.BASE_DIR) / "judging" / "rules_text.py"
        sources = "".join(f"    {label!r}: {digest!r},\n" for label, digest in digests.items())
        body = "".join(f"    {rule!r}: {texts!r},\n" for rule, texts in rules.items())
        out.write_text(
            "# ruff: noqa: E501\n"
            '"""Rule texts of ruleset dm2023 in English and Danish, as HTML.\n\n'
            "Generated — do not edit. "
            "Regenerate with ``manage.py judging_rules_text`` when RULES.md or a file in\n"
            "``judging/rules/`` changes (``SOURCES`` holds the SHA-256 of each source).\n"
            '"""\n\n'
            f"SOURCES: dict[str, str] = {{\n{sources}}}\n"
            f'GENERATED_ON = "{datetime.date.today().isoformat()}"\n\n'
            "# fmt: off\n"
            f"RULES_HTML: dict[str, dict[str, str]] = {{\n{body}}}\n"
            "# fmt: on\n"
        )
        self.stdout.write(f"{len(rules)} rules in English and Danish written to {out}")
