"""Table access tokens: the secret in the score sheet's QR code.

A token is an HMAC of a random per-game nonce (128 bits) under the site's
secret key, so the server can print it again without storing it; the
database holds only its SHA-256 and the nonce. Rotating the nonce revokes
every copy of the old token. A token is dead once its round is closed or its
game is finished and confirmed.

A presented token is verified by its SHA-256 alone: only the token itself
has that digest (144 random bits behind a 256-bit hash), so the check needs
no key and survives a change of ``DJANGO_SECRET_KEY`` (a key rotation, a
restore onto another instance). The key is only needed to *reproduce* a
token for printing and for a short code. With the old key among
``SECRET_KEY_FALLBACKS`` the same token is reproduced; without it, the game
gets a new token under the current key the first time one is needed, and the
old token's digest is kept as ``carried_token_hash``, so the QR codes
already printed keep working beside the new ones until an organiser makes a
new table link (docs/security.md).
"""

from __future__ import annotations

import base64
import copy
import hashlib
import hmac
import logging
import secrets
import threading
import time

from cachetools import TTLCache
from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from core.errors import ApplicationError, PermissionDenied
from games.models import Game

logger = logging.getLogger(__name__)

# Unambiguous characters for the short code players may type.
_SHORT_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
SHORT_CODE_LENGTH = 6


def _derive(nonce: str, game_id: int, key: str) -> str:
    mac = hmac.new(key.encode(), f"table-token:{game_id}:{nonce}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(mac[:18]).decode().rstrip("=")


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _keys() -> list[str]:
    return [settings.SECRET_KEY, *getattr(settings, "SECRET_KEY_FALLBACKS", [])]


def game_token(*, game: Game) -> str:
    """The table token of ``game`` to print or to open by short code.

    Issues one if the game has none. The token the stored digest belongs to
    is reproduced under the current key or a fallback key; a token issued
    under a key this instance no longer has cannot be, so a new one is
    issued beside it (``_token_rekey``).
    """
    if not game.token_nonce:
        return game_token_rotate(game=game)
    for key in _keys():
        token = _derive(game.token_nonce, game.pk, key)
        if hmac.compare_digest(token_hash(token), game.token_hash):
            return token
    return _token_rekey(game)


def _token_rekey(game: Game) -> str:
    """A new token under the current key; the old one stays valid (``carried_token_hash``).

    A conditional update, so two processes that find the same old token make
    one new token: the second re-reads the game and reproduces the first's.
    """
    nonce = secrets.token_hex(16)
    token = _derive(nonce, game.pk, settings.SECRET_KEY)
    digest = token_hash(token)
    changed = Game.objects.filter(
        pk=game.pk, token_nonce=game.token_nonce, token_hash=game.token_hash
    ).update(token_nonce=nonce, token_hash=digest, carried_token_hash=game.token_hash)
    if not changed:
        game.refresh_from_db(fields=["token_nonce", "token_hash", "carried_token_hash"])
        return game_token(game=game)
    logger.info("game %s: table link issued under the current key beside the old one", game.pk)
    game.carried_token_hash, game.token_nonce, game.token_hash = game.token_hash, nonce, digest
    return token


@transaction.atomic
def game_token_rotate(*, game: Game) -> str:
    """Issue a new token and short code; every old link and code stops working at once."""
    for digest in (game.token_hash, game.carried_token_hash):
        if digest:
            _read_memo.forget(digest)
    game.token_nonce = secrets.token_hex(16)
    token = _derive(game.token_nonce, game.pk, settings.SECRET_KEY)
    game.token_hash = token_hash(token)
    game.carried_token_hash = ""
    game.short_code = _new_short_code()
    game.save(update_fields=["token_nonce", "token_hash", "carried_token_hash", "short_code"])
    return token


def _new_short_code() -> str:
    while True:
        code = "".join(secrets.choice(_SHORT_ALPHABET) for _ in range(SHORT_CODE_LENGTH))
        if not Game.objects.filter(short_code=code).exists():
            return code


def normalise_short_code(code: str) -> str:
    return "".join(ch for ch in code.upper() if ch.isalnum()).replace("0", "O").replace("1", "I")


class _ReadMemo:
    """Games recently opened by a token.

    A table device reads its state and its judge box every 5 s; looking the
    token up was most of such a read. A read may use a game looked up at most
    ``READ_MEMO_SECONDS`` ago in this process, so a rotated token or a changed
    game status shows there that much later (a rotation forgets the old token
    at once in the process that made it). A move submission may use one up
    to ``SUBMISSION_MEMO_SECONDS`` old: it re-checks the token and the round
    under the game's lock. Other writes always ask the database.
    """

    def __init__(self, seconds: float, size: int) -> None:
        self.seconds = seconds  # how long an entry is kept at all
        self.size = size
        self._data: TTLCache[str, tuple[float, Game]] = TTLCache(
            maxsize=size, ttl=seconds, timer=_monotonic
        )
        self._lock = threading.Lock()  # cachetools' caches are not thread-safe

    def get(self, digest: str, max_age: float) -> Game | None:
        """The game remembered for ``digest`` if looked up at most ``max_age`` s ago."""
        with self._lock:
            hit = self._data.get(digest)
        if hit is None or _monotonic() - hit[0] >= max_age:
            return None
        # A copy: callers may set attributes on their game.
        return copy.copy(hit[1])

    def put(self, digest: str, game: Game) -> None:
        with self._lock:
            self._data[digest] = (_monotonic(), copy.copy(game))

    def forget(self, digest: str) -> None:
        with self._lock:
            self._data.pop(digest, None)

    def clear(self) -> None:
        with self._lock:
            self._data.clear()


def _monotonic() -> float:
    # Looked up on every call, so a test's stand-in clock reaches the cache too.
    return time.monotonic()


READ_MEMO_SECONDS = 2.0
# Longer than a table's time between moves, so most submissions skip the lookup.
SUBMISSION_MEMO_SECONDS = 60.0
_read_memo = _ReadMemo(SUBMISSION_MEMO_SECONDS, 4096)


def game_from_token(*, token: str, for_write: bool = True) -> Game:
    """The game a presented token opens, or a bilingual error.

    ``for_write`` refuses tokens of closed rounds (such a link may still show
    the game but can no longer change it) and of draft rounds (nothing is
    played before the pairings are published; the link shows the table its
    own game, as its printed score sheet does). Reads (``for_write=False``) may be
    answered from a lookup made up to ``READ_MEMO_SECONDS`` ago.
    """
    digest = _presented_digest(token)
    if not for_write:
        memo = _read_memo.get(digest, READ_MEMO_SECONDS)
        if memo is not None:
            return memo
    # The digest is the proof (see the module doc): an index lookup by it,
    # never a comparison with the token.
    game = (
        Game.objects.select_related("round__tournament", "pair_yb", "pair_rg")
        .filter(Q(token_hash=digest) | Q(carried_token_hash=digest))
        .first()
    )
    if game is None:
        raise _bad_token()
    if for_write:
        _refuse_round_not_open(game)
    _read_memo.put(digest, game)
    return game


def _presented_digest(token: str) -> str:
    if not token or len(token) > 64:
        raise _bad_token()
    return token_hash(token)


def _refuse_round_not_open(game: Game) -> None:
    status = game.round.status
    if status == game.round.Status.CLOSED:
        raise PermissionDenied(
            _("This round is closed; the table link can no longer change the game."),
        )
    if status == game.round.Status.DRAFT:
        # A draft can still be paired again or swapped: nothing is played in it.
        raise PermissionDenied(
            _(
                "This round's pairings are not published yet; the game can be logged "
                "once the organiser publishes the round."
            ),
        )


def game_for_submission(*, token: str) -> tuple[Game, str]:
    """The game a token opens for a move submission, and the token's digest.

    A submission re-reads the game's row under its lock in one statement
    (``games.services.move_log``) and there refuses a digest that is no
    longer the game's (rotated) and a closed round, so the lookup itself may
    come from the memo, up to ``SUBMISSION_MEMO_SECONDS`` old: one query less
    on the busiest write.
    """
    digest = _presented_digest(token)
    game = _read_memo.get(digest, SUBMISSION_MEMO_SECONDS)
    if game is None:
        return game_from_token(token=token, for_write=True), digest
    _refuse_round_not_open(game)  # as remembered; the lock checks it as it is now
    return game, digest


def token_refused() -> ApplicationError:
    """The error for a table link that is not (or no longer) the game's."""
    return _bad_token()


def _bad_token() -> ApplicationError:
    return ApplicationError(
        "table_token_invalid",
        _(
            "This table link is not valid (mistyped, or replaced by a newer one). "
            "Scan the QR code on the current score sheet or ask the organiser."
        ),
        status=403,
    )
