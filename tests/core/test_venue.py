"""Venue mode: the address phones use, on score sheets, in ALLOWED_HOSTS, and runall's choice."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from core import venue
from core.management.commands.runall import Command
from core.venue import is_loopback_url, lan_addresses, url_host

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("url", "loopback"),
    [
        ("http://127.0.0.1:8000", True),
        ("http://127.5.0.1", True),
        ("http://localhost:8000", True),
        ("http://dm.localhost", True),
        ("http://[::1]:8000", True),
        ("http://192.168.1.23:8000", False),
        ("https://dm.example.dk", False),
    ],
)
def test_which_addresses_only_this_machine_can_open(url, loopback):
    assert is_loopback_url(url) is loopback


def test_the_host_of_an_address_as_allowed_hosts_spells_it():
    assert url_host("http://192.168.1.23:8000") == "192.168.1.23"
    assert url_host("http://[fe80::1]:8000") == "[fe80::1]"


class _Probe:
    """A stand-in for the UDP socket: reports the address the route would use."""

    def __init__(self, address: str | None) -> None:
        self.address = address

    def __call__(self, *args: object) -> _Probe:
        return self

    def __enter__(self) -> _Probe:
        return self

    def __exit__(self, *args: object) -> None:
        return None

    def connect(self, target: tuple[str, int]) -> None:
        assert target[0] == "192.0.2.1"  # documentation range: nothing is ever sent
        if self.address is None:
            raise OSError("Network is unreachable")

    def getsockname(self) -> tuple[str, int]:
        assert self.address is not None
        return (self.address, 40000)


def test_the_default_routes_address_comes_first_and_loopback_is_never_offered(monkeypatch):
    monkeypatch.setattr(venue.socket, "socket", _Probe("192.168.1.23"))
    monkeypatch.setattr(
        venue.socket,
        "getaddrinfo",
        lambda *a: [(2, 2, 17, "", ("127.0.1.1", 0)), (2, 2, 17, "", ("10.0.0.5", 0))],
    )
    assert lan_addresses() == ["192.168.1.23", "10.0.0.5"]


def test_without_a_route_the_host_names_addresses_are_used(monkeypatch):
    monkeypatch.setattr(venue.socket, "socket", _Probe(None))
    monkeypatch.setattr(venue.socket, "getaddrinfo", lambda *a: [(2, 2, 17, "", ("127.0.1.1", 0))])
    assert lan_addresses() == []


def _site_url(monkeypatch, *, venue_mode: bool, address: str = "", site_url: str = ""):  # type: ignore[no-untyped-def]
    if site_url:
        monkeypatch.setenv("SITE_URL", site_url)
    else:
        monkeypatch.delenv("SITE_URL", raising=False)
    command = Command()
    return command._site_url(venue=venue_mode, port="8000", address=address)


def test_runall_prints_this_machines_address_for_the_venue(monkeypatch):
    assert _site_url(monkeypatch, venue_mode=True, address="192.168.1.23") == (
        "http://192.168.1.23:8000",
        [],
    )
    monkeypatch.setattr(
        "core.management.commands.runall.lan_addresses", lambda: ["10.0.0.7", "10.1.0.2"]
    )
    assert _site_url(monkeypatch, venue_mode=True) == ("http://10.0.0.7:8000", ["10.1.0.2"])


def test_a_site_url_that_is_set_wins_and_make_run_stays_on_this_machine(monkeypatch):
    assert _site_url(monkeypatch, venue_mode=True, site_url="http://dm.lan:8000")[0] == (
        "http://dm.lan:8000"
    )
    assert _site_url(monkeypatch, venue_mode=False)[0] == "http://127.0.0.1:8000"


def test_allowed_hosts_follow_site_url():
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_ALLOWED_HOSTS"}
    env.update(SITE_URL="http://192.168.1.23:8000", DJANGO_SETTINGS_MODULE="config.settings.local")
    script = (
        "import json, django; django.setup(); from django.conf import settings; "
        "print(json.dumps(settings.ALLOWED_HOSTS))"
    )
    out = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(out.stdout) == ["localhost", "127.0.0.1", "[::1]", "192.168.1.23"]
