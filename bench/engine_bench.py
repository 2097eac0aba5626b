"""Engine benchmark: the same as ``python -m games.engine bench``.

Run from the repository root: ``python bench/engine_bench.py [--games N]``.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.engine.cli import main

if __name__ == "__main__":
    sys.exit(main(["bench", *sys.argv[1:]]))
