"""Regenerate ``judging/rules_text.py`` from ``shared/rules/RULES.md``.

Run once when RULES.md changes; the generated module is committed, so the
application never reads ``../shared`` at run time (CI may not have it).
"""

from __future__ import annotations

import datetime
import hashlib
import re
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand

_RULE_START = re.compile(r"^- \*\*([A-Z]\d+)\*\*\s*(.*)$")


def rules_parse(text: str) -> dict[str, str]:
    """Rule id → its text (markdown list items ``- **ID** …`` with continuation lines)."""
    rules: dict[str, str] = {}
    current: str | None = None
    lines: list[str] = []

    def flush() -> None:
        if current is not None:
            rules[current] = re.sub(r"\s+", " ", " ".join(lines)).strip()

    for line in text.splitlines():
        match = _RULE_START.match(line)
        if match:
            flush()
            current, lines = match[1], [match[2]]
        elif current is not None and (line.startswith("#") or line.startswith("- **")):
            flush()
            current, lines = None, []
        elif current is not None and (line.startswith("  ") or not line.strip()):
            if line.strip():
                lines.append(line.strip())
        elif current is not None:
            flush()
            current, lines = None, []
    flush()
    return rules


class Command(BaseCommand):
    help = "Regenerate judging/rules_text.py from RULES.md."

    def add_arguments(self, parser: Any) -> None:
        default = Path(settings.BASE_DIR).parent / "shared" / "rules" / "RULES.md"
        parser.add_argument("--source", default=str(default))

    def handle(self, *args: Any, **options: Any) -> None:
        source = Path(options["source"])
        raw = source.read_bytes()
        rules = rules_parse(raw.decode())
        out = Path(settings.BASE_DIR) / "judging" / "rules_text.py"
        body = "".join(f"    {k!r}: {v!r},\n" for k, v in rules.items())
        out.write_text(
            "# ruff: noqa: E501\n"
            '"""Rule texts of RULES.md (ruleset dm2023), generated — do not edit.\n\n'
            "Regenerate with ``manage.py judging_rules_text`` when RULES.md changes.\n"
            '"""\n\n'
            'SOURCE = "shared/rules/RULES.md"\n'
            f'SOURCE_SHA256 = "{hashlib.sha256(raw).hexdigest()}"\n'
            f'GENERATED_ON = "{datetime.date.today().isoformat()}"\n\n'
            "# fmt: off\n"
            f"RULES: dict[str, str] = {{\n{body}}}\n"
            "# fmt: on\n"
        )
        self.stdout.write(f"{len(rules)} rules written to {out}")
