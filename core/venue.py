"""Which address phones on the venue network use to reach this machine.

Score sheets carry ``SITE_URL`` in their QR codes; on the embedded default
that must be the laptop's address on the venue Wi-Fi, never 127.0.0.1.
``manage.py runall --venue`` (``make venue``) finds it here.
"""

from __future__ import annotations

import ipaddress
import socket
from urllib.parse import urlsplit

# TEST-NET-1 (RFC 5737): asking the kernel for a route to it names the
# interface of the default route. A UDP ``connect`` sends no packet.
_ROUTE_PROBE = ("192.0.2.1", 9)


def _usable(address: str) -> bool:
    ip = ipaddress.ip_address(address)
    return not (ip.is_loopback or ip.is_link_local or ip.is_unspecified)


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses on its networks, the default route's first."""
    found: list[str] = []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(_ROUTE_PROBE)
            found.append(probe.getsockname()[0])
        except OSError:
            pass  # no default route: an island network; the host name may still tell
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        infos = []
    found += [str(info[4][0]) for info in infos]
    return list(dict.fromkeys(a for a in found if _usable(a)))


def is_loopback_url(url: str) -> bool:
    """True if ``url`` names this machine only (127.0.0.1, localhost, ::1)."""
    host = (urlsplit(url).hostname or "").lower()
    if host in ("", "localhost") or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def url_host(url: str) -> str:
    """The host part of ``url`` as ALLOWED_HOSTS spells it ("[::1]" for IPv6)."""
    host = urlsplit(url).hostname or ""
    return f"[{host}]" if ":" in host else host
