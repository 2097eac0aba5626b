"""Compile the .po translation catalogues to .mo without GNU gettext.

``make run`` must work on a machine with only Python, so this uses polib
instead of ``msgfmt``; it only rewrites a .mo file older than its .po.
"""

from pathlib import Path

import polib
from django.conf import settings
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Compile the apps' locale/*.po files whose .mo is missing or older."

    def handle(self, *args: object, **options: object) -> None:
        base = Path(settings.BASE_DIR)
        catalogues = list(base.glob("*/locale/*/LC_MESSAGES/*.po"))
        catalogues += [p for d in settings.LOCALE_PATHS for p in Path(d).glob("*/LC_MESSAGES/*.po")]
        for po_path in sorted(set(catalogues)):
            mo_path = po_path.with_suffix(".mo")
            if mo_path.exists() and mo_path.stat().st_mtime >= po_path.stat().st_mtime:
                continue
            polib.pofile(str(po_path)).save_as_mofile(str(mo_path))
            self.stdout.write(f"compiled {mo_path.relative_to(settings.BASE_DIR)}")
