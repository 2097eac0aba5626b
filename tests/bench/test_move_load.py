"""The verify step of bench/move_load.py, without running the load: its expected
entries reach the child process on standard input (any number of tables fits, where
one command-line argument stops at 128 KiB on Linux), and the load's figures are
kept and printed even when the verification fails."""

from __future__ import annotations

import hashlib
import io
import json
import os
import subprocess
import sys

import django
import pytest
from django.test import Client

from bench import harness, move_load
from games.engine import selfplay_game
from games.services.tokens import game_token
from tests.factories import GameFactory

ARG_MAX_STRLEN = 128 * 1024
"""Linux's limit on one argument (MAX_ARG_STRLEN): ``python -c SCRIPT`` is refused above it."""


def tables(n: int, moves: int = 40) -> list[dict]:
    """What setup() returns for ``n`` tables of ``moves`` entries (texts as a record has them)."""
    out = []
    for t in range(n):
        full = [
            f"{'YRBG'[k % 4]} {1 + k % 12}: {'YRBG'[k % 4]}{1 + k % 14}+{1 + k % 12}"
            for k in range(moves)
        ]
        out.append(
            {"game": 1000 + t, "token": f"tok{t}", "moves": [m[2:] for m in full], "full": full}
        )
    return out


def expected_size(n: int) -> int:
    return len(json.dumps({str(t["game"]): t["full"] for t in tables(n)}))


def test_300_tables_expect_more_than_one_argument_may_hold():
    assert expected_size(300) > ARG_MAX_STRLEN


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux's argument limit")
def test_data_of_that_size_inside_the_script_is_refused_by_the_system():
    """What the verify step did before: the expected entries written into ``python -c``."""
    script = "pass\n#" + "x" * (ARG_MAX_STRLEN + 1)
    with pytest.raises(OSError) as refused:
        subprocess.run([sys.executable, "-c", script], check=True)
    assert refused.value.errno == 7  # E2BIG: "Argument list too long"


def test_run_python_hands_data_over_128_kib_to_the_child_intact():
    data = {str(t["game"]): t["full"] for t in tables(300)}
    script = (
        "import hashlib, json, sys\n"
        "data = json.load(sys.stdin)\n"
        "text = json.dumps(data, sort_keys=True)\n"
        "sha = hashlib.sha256(text.encode()).hexdigest()\n"
        "print(json.dumps({'games': len(data), 'sha': sha}))\n"
    )
    answer = harness.run_python(dict(os.environ), script, data=data)
    sent = hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()
    assert answer == {"games": 300, "sha": sent}


def test_verify_sends_the_expected_entries_as_data_never_inside_the_script(monkeypatch):
    calls = []
    monkeypatch.setattr(
        move_load.harness,
        "run_python",
        lambda env, script, data=None: calls.append((script, data)) or {"lost": 0},
    )
    many = tables(300)
    move_load.verify({}, tables(1))
    move_load.verify({}, many)
    (one_script, _), (script, data) = calls
    assert script == one_script == move_load.VERIFY_SCRIPT  # the same for any number of tables
    assert len(script.encode()) < 4096
    assert "json.load(sys.stdin)" in script
    assert data == {str(t["game"]): t["full"] for t in many}
    assert len(json.dumps(data)) > ARG_MAX_STRLEN


@pytest.mark.django_db
def test_the_verify_script_counts_lost_entries_from_what_it_reads_on_stdin(monkeypatch, capsys):
    """The child's script itself, run here on the test database: one complete log, one
    with its last entry missing."""
    record = selfplay_game(7, first_dealer="Y")["moves"][:3]
    client = Client()
    games = []
    for logged in (3, 2):
        game = GameFactory(first_dealer="Y")
        for seq, entry in enumerate(record[:logged]):
            answer = client.post(
                f"/api/table/{game_token(game=game)}/entries/",
                json.dumps(
                    {
                        "client_id": f"bench-{game.pk}-{seq:05d}",
                        "expected_seq": seq,
                        "text": entry.split(" ", 1)[1],
                    }
                ),
                content_type="application/json",
            )
            assert answer.status_code == 201, answer.content
        games.append(game)
    expected = {str(g.pk): record for g in games}
    monkeypatch.setattr(django, "setup", lambda: None)  # already set up in this process
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(expected)))
    exec(compile(move_load.VERIFY_SCRIPT, "verify", "exec"), {})
    counts = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert counts == {"lost": 1, "duplicated": 0, "chain_errors": 0}


FIGURES = {"tables": 300, "submissions": 12_345, "p99_ms": 21.5}


def test_the_figures_are_kept_before_verifying_and_completed_after(monkeypatch, tmp_path):
    monkeypatch.setattr(move_load.harness, "VAR", tmp_path)
    kept = tmp_path / move_load.KEEP_AS

    def step():
        assert json.loads(kept.read_text()) == FIGURES  # on disk before the check runs
        return {"lost": 0, "duplicated": 0, "chain_errors": 0}

    report = move_load.verified(dict(FIGURES), step)
    assert report == {**FIGURES, "lost": 0, "duplicated": 0, "chain_errors": 0}


@pytest.mark.parametrize(
    "failure",
    [
        OSError(7, "Argument list too long"),
        subprocess.CalledProcessError(1, ["python", "-c"], stderr="Traceback …\nDoesNotExist"),
    ],
)
def test_a_failed_verification_still_prints_and_keeps_the_figures(
    monkeypatch, tmp_path, capsys, failure
):
    monkeypatch.setattr(move_load.harness, "VAR", tmp_path)

    def step():
        raise failure

    with pytest.raises(type(failure)):
        move_load.verified(dict(FIGURES), step)
    printed = json.loads(capsys.readouterr().out)
    kept = json.loads((tmp_path / move_load.KEEP_AS).read_text())
    assert printed == kept
    assert {k: printed[k] for k in FIGURES} == FIGURES
    assert type(failure).__name__ in printed["verify_error"]
    if isinstance(failure, subprocess.CalledProcessError):
        assert "DoesNotExist" in printed["verify_error"]
