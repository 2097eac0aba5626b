"""Counting how often a function is called, for the tests that pin a check or a read
to once (a judge's check, a game's log read)."""

from __future__ import annotations

from typing import Any


def count_calls(
    monkeypatch: Any, counts: dict[str, int], module: Any, name: str, *also: Any
) -> None:
    """Replace ``module.name`` (and the same name in each of ``also``, modules that
    imported it) by a wrapper adding one to ``counts[name]`` per call."""
    real = getattr(module, name)
    counts.setdefault(name, 0)

    def counting(*args: Any, **kwargs: Any) -> Any:
        counts[name] += 1
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, counting)
    for other in also:
        monkeypatch.setattr(other, name, counting, raising=False)
