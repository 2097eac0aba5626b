"""Helpers of the table device's browser tests: tap the board, type a move, read the log."""

from __future__ import annotations

from games.models import MoveEntry


def centre(page, loc, pawn=False):  # type: ignore[no-untyped-def]
    """The screen point where ``loc`` is drawn: its place, or with ``pawn`` its (first) pawn."""
    if pawn:
        selector = f'#board .pawn[data-loc="{loc}"]'
    else:
        selector = f'#board .place[data-loc="{loc}"] circle'
    for _ in range(20):
        # The board is drawn again when the server answers: ask again if it was.
        box = page.locator(selector).first.bounding_box()
        if box is not None:
            return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        page.wait_for_timeout(50)
    raise AssertionError(f"{loc} is not on the board")


def tap(page, loc, dx=0.0, dy=0.0, pawn=False):  # type: ignore[no-untyped-def]
    """Tap the board ``dx``/``dy`` CSS px off where ``loc`` is drawn."""
    x, y = centre(page, loc, pawn)
    page.mouse.click(x + dx, y + dy)


def type_move(page, text):  # type: ignore[no-untyped-def]
    """Type an entry in the sheet and check it (the sheet closes when it is legal)."""
    page.click('button[data-sheet="type"]')
    page.fill("#typed", text)
    page.click("#typed-form button[type=submit]")


def stored(game):  # type: ignore[no-untyped-def]
    """The game's active log entries, in order."""
    return list(
        MoveEntry.objects.filter(game=game, withdrawn_at__isnull=True)
        .order_by("seq")
        .values_list("text", flat=True)
    )
