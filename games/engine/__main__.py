"""``python -m games.engine legal|apply|replay|batch|bench`` (NOTATION.md)."""

from __future__ import annotations

import sys

from .cli import main

sys.exit(main(sys.argv[1:]))
