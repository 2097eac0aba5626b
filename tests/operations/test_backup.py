"""Tournament backup: export, restore into an empty instance, copy beside the original."""

from __future__ import annotations

import copy
import json

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.utils import timezone

from competition.management.commands.demo_tournament import DEMO_SLUG
from competition.services import backup
from competition.services.backup import (
    EXCLUDED,
    SECTIONS,
    backup_models,
    tournament_export,
    tournament_path,
    unregistered_models,
)
from competition.services.backup_import import tournament_import
from core.errors import ApplicationError
from games.models import Game, MoveEntry, ResultConfirmation
from games.selectors import ChainVerdict, move_log_verify
from games.services.move_log import demo_fill_logs
from games.services.tokens import game_from_token, game_token
from judging.models import Alert, JudgeCall, MoveRefusal, Ruling
from people.models import Person, PersonMatch
from signup.models import SignUp, SignUpEmail
from tests.factories import TournamentFactory, organiser_of
from tournament.models import Bye, Pair, Player, Tournament
from tournament.services.registration import pair_register

# The demo event takes a while to build: these tests run in `make test`, not test-fast.
pytestmark = pytest.mark.slow

# Values that legitimately differ between two exports of the same tournament.
VOLATILE = ("exported_at",)


@pytest.fixture
def rich_tournament(db: None) -> Tournament:
    """The demo event (3 rounds played, one in progress) plus logs, alerts, calls, rulings."""
    call_command("demo_tournament", verbosity=0)
    tournament = Tournament.objects.get(slug=DEMO_SLUG)
    demo_fill_logs(tournament=tournament, seed=7)
    judge = get_user_model().objects.get(
        tournament_roles__tournament=tournament, tournament_roles__role="judge"
    )
    live = Game.objects.filter(round__tournament=tournament, status=Game.Status.IN_PROGRESS)
    game, other = live[0], live[1]
    for live_game in live:
        game_token(game=live_game)
    now = timezone.now()
    Alert.objects.create(
        tournament=tournament,
        game=game,
        kind="alert",
        due_at=now,
        raised_at=now,
        mark_minute=50,
        prediction={"overrun_s": 120.5},
        acknowledged_at=now,
        acknowledged_by=judge,
    )
    Alert.objects.create(
        tournament=tournament, game=other, kind="limit", due_at=now, raised_at=now, mark_minute=60
    )
    call = JudgeCall.objects.create(
        tournament=tournament,
        game=game,
        seq=3,
        entry_text="Y 5: Y3+5",
        reason="Dispute",
        client_id="call-0001",
        status="closed",
        taken_by=judge,
        closed_by=judge,
        closed_at=now,
    )
    Ruling.objects.create(
        tournament=tournament,
        game=game,
        call=call,
        kind="warning",
        rule="P1",
        seat="Y",
        pair=game.pair_yb,
        entry_seq=3,
        reason="Warned: slow play",
        judge=judge,
        data={"note": "første advarsel"},
    )
    MoveRefusal.objects.create(
        tournament=tournament,
        game=other,
        seat="R",
        pair=other.pair_rg,
        text="R 5: R1+5",
        rule="D2",
        message_en="Not your turn",
        message_da="Ikke din tur",
    )
    ResultConfirmation.objects.create(
        game=game, pair_side="YB", client_id="confirm-01", seq=1, log_hash="abc"
    )
    Bye.objects.create(
        round=game.round, pair=Pair.objects.filter(tournament=tournament).last(), points=2
    )
    entry = MoveEntry.objects.filter(game=other).order_by("-seq").first()
    entry.withdrawn_at = now
    entry.withdrawn_by = "take-back-1"
    entry.save()
    signed_up = Pair.objects.filter(tournament=tournament).first()
    signup = SignUp.objects.create(
        tournament=tournament,
        status=SignUp.Status.CONFIRMED,
        pair=signed_up,
        player_1=signed_up.player_1.name,
        player_2=signed_up.player_2.name,
        email="kontakt@example.dk",
        consent_at=now,
        person_1=signed_up.player_1.person,
        person_2=signed_up.player_2.person,
        client_id="backup-form",
        link_nonce="nonce",
    )
    SignUpEmail.objects.create(signup=signup, kind=SignUpEmail.Kind.CONFIRMED, sent_at=now)
    return tournament


# Fields whose values are regenerated on a copy (new ids make them invalid).
TOKEN_FIELDS = ("token_nonce", "token_hash", "carried_token_hash", "short_code")


def _normalised(document: dict) -> dict:
    """The document with every id replaced by its row's position in its section.

    Two exports of equal tournaments under different ids (a copy) then compare
    equal; table token fields are dropped (a copy gets new ones), and so are
    the move logs' hashes (a game's chain starts from its id), the slug and the
    name (a copy may be renamed).
    """
    doc = copy.deepcopy(document)
    for key in (*VOLATILE, "tournament_id"):
        doc.pop(key, None)
    doc["tournament"].pop("slug")
    doc["tournament"].pop("name")
    positions = {}
    for model in backup_models():
        rows = doc.get(backup.section_name(model), [])
        positions[model] = {row["id"]: index for index, row in enumerate(rows)}
    for model in backup_models():
        for row in doc.get(backup.section_name(model), []):
            row["id"] = positions[model][row["id"]]
            for field in model._meta.concrete_fields:
                if field.is_relation and field.related_model in positions:
                    old = row.get(field.attname)
                    mapped = positions[field.related_model]
                    row[field.attname] = None if old is None else mapped[old]
            for name in (*TOKEN_FIELDS, "prev_hash", "hash", "log_hash"):
                row.pop(name, None)
    return doc


def test_every_model_reaching_a_tournament_is_exported_or_excluded(db):
    assert unregistered_models() == [], (
        "give these models a section name in competition/services/backup.py SECTIONS "
        "(or add them to EXCLUDED with a reason)"
    )
    exported = {m._meta.label for m in backup_models()}
    assert exported == set(SECTIONS.values())
    for label in EXCLUDED:
        app_label, model_name = label.split(".")
        from django.apps import apps

        assert tournament_path(apps.get_model(app_label, model_name)) is not None
    from games.models import ClockEvent

    assert tournament_path(ClockEvent) == "clock__game__round__tournament"


def test_export_file_holds_every_section_and_imports_through_the_commands(
    rich_tournament, tmp_path
):
    path = tmp_path / "backup.json"
    call_command("export_tournament", rich_tournament.slug, output=str(path), verbosity=0)
    document = json.loads(path.read_text(encoding="utf-8"))
    assert document["format"] == "dm-partners-tournament" and document["version"] == 1
    for section in SECTIONS:
        assert document[section], f"the demo data should fill {section}"
    games = document["games"]
    issued = [g for g in games if g["token_nonce"]]
    assert issued and all(g["token_hash"] and g["short_code"] for g in issued)
    assert {u["username"] for u in document["users"]} >= {"organiser", "judge"}
    assert "password" not in json.dumps(document["users"])

    call_command("import_tournament", str(path), slug="from-file", verbosity=0)
    copied = Tournament.objects.get(slug="from-file")
    assert _normalised(tournament_export(tournament=copied)) == _normalised(document)


def test_restore_into_an_empty_instance_loses_nothing_and_keeps_qr_codes(rich_tournament):
    game = Game.objects.filter(round__tournament=rich_tournament).order_by("pk").last()
    token = game_token(game=game)
    before = tournament_export(tournament=rich_tournament)
    usernames = [u["username"] for u in before["users"]]

    for model in reversed(backup_models()):  # as on an empty instance
        model.objects.filter(**{tournament_path(model): rich_tournament}).delete()
    rich_tournament.delete()
    get_user_model().objects.filter(username__in=usernames).delete()
    assert not Game.objects.exists() and not MoveEntry.objects.exists()

    restored = tournament_import(document=json.loads(json.dumps(before)))
    assert restored.backup_mode == "restore"
    after = tournament_export(tournament=restored)
    for key in VOLATILE:
        before.pop(key)
        after.pop(key)
    assert after == before
    assert game_from_token(token=token).pk == game.pk
    user = get_user_model().objects.get(username="judge")
    assert not user.has_usable_password()
    # The id sequences moved past the restored ids: new rows still insert.
    Player.objects.create(tournament=restored, name="Late Entry")


def test_a_restore_where_the_people_are_missing_links_the_players_again_by_name(
    rich_tournament,
):
    before = tournament_export(tournament=rich_tournament)
    names = sorted(p["name"] for p in before["players"])
    for model in reversed(backup_models()):
        model.objects.filter(**{tournament_path(model): rich_tournament}).delete()
    rich_tournament.delete()
    Person.objects.all().delete()  # another instance: nobody is known there
    restored = tournament_import(document=json.loads(json.dumps(before)), slug="other-instance")
    players = Player.objects.filter(tournament=restored).select_related("person")
    assert sorted(p.name for p in players) == names
    assert all(p.person is not None and p.person.name == p.name for p in players)
    signup = SignUp.objects.get(tournament=restored)
    assert signup.email == "kontakt@example.dk" and signup.pair.tournament == restored
    assert signup.person_1 is None  # not in this database; the players carry the link


def test_copy_beside_the_original_remaps_ids_and_issues_new_tokens(rich_tournament):
    original_game = Game.objects.filter(
        round__tournament=rich_tournament, status=Game.Status.IN_PROGRESS
    ).first()
    original_token = game_token(game=original_game)
    before = tournament_export(tournament=rich_tournament)

    copied = tournament_import(document=before, slug="dm-copy", name="DM kopi")
    assert copied.backup_mode == "copy"
    assert copied.pk != rich_tournament.pk
    after = tournament_export(tournament=copied)
    assert _normalised(after) == _normalised(before)
    assert after["move_entries"][0]["id"] != before["move_entries"][0]["id"]
    assert MoveEntry.objects.filter(game__round__tournament=copied).count() == len(
        before["move_entries"]
    )
    # The original's QR code still opens the original, never the copy.
    assert game_from_token(token=original_token).pk == original_game.pk
    copy_game = Game.objects.get(
        round__tournament=copied,
        table_number=original_game.table_number,
        round__number=original_game.round.number,
    )
    assert copy_game.token_hash != original_game.token_hash
    assert game_from_token(token=game_token(game=copy_game)).pk == copy_game.pk
    # Each copied log is an unbroken chain under its new game id: a backup of
    # the copy passes the import's check, and the copy's log is not "changed".
    assert after["move_entries"][0]["hash"] != before["move_entries"][0]["hash"]
    assert tournament_import(document=after, slug="dm-copy-2").backup_mode == "copy"
    assert move_log_verify(game=copy_game) == ChainVerdict(ok=True, first_bad_seq=None)


# (change to the document, expected error code, slug to import under)
BAD_DOCUMENTS = [
    (lambda d: d.update(format="something-else"), "backup_invalid", "fresh"),
    (lambda d: d.update(version=99), "backup_invalid", "fresh"),
    (lambda d: d.update(mystery_rows=[{"id": 1}]), "backup_invalid", "fresh"),
    (lambda d: d.pop("tournament"), "backup_invalid", "fresh"),
    (lambda d: d["pairs"][0].update(player_1_id=987654), "backup_invalid", "fresh"),
    (lambda d: None, "backup_slug_taken", None),
]


def test_a_bad_backup_is_refused_in_both_languages_and_changes_nothing(rich_tournament):
    exported = tournament_export(tournament=rich_tournament)
    counts = (Tournament.objects.count(), Player.objects.count(), MoveEntry.objects.count())
    for change, code, slug in BAD_DOCUMENTS:
        document = copy.deepcopy(exported)
        change(document)
        with pytest.raises(ApplicationError) as raised:
            tournament_import(document=document, slug=slug)
        assert raised.value.code == code
        assert raised.value.message_da and raised.value.message_en != raised.value.message_da
        assert (
            Tournament.objects.count(),
            Player.objects.count(),
            MoveEntry.objects.count(),
        ) == counts
    with pytest.raises(ApplicationError):
        tournament_import(document=["not", "a", "backup"])


def test_a_restore_links_its_players_only_to_its_own_organisers_people(rich_tournament):
    """Name and club of another organiser's player: a suggestion, not a link."""
    before = tournament_export(tournament=rich_tournament)
    first = before["players"][0]
    for model in reversed(backup_models()):
        model.objects.filter(**{tournament_path(model): rich_tournament}).delete()
    rich_tournament.delete()
    Person.objects.all().delete()
    elsewhere = TournamentFactory(slug="elsewhere")
    pair_register(
        tournament=elsewhere, actor=organiser_of(elsewhere, "someone-else"),
        player_1=first["name"], player_2="Makker", club=first["club"],
    )  # fmt: skip
    theirs = Player.objects.get(tournament=elsewhere, name=first["name"]).person
    restored = tournament_import(document=json.loads(json.dumps(before)), slug="other-instance")
    mine = Player.objects.get(tournament=restored, name=first["name"]).person
    assert mine is not None and mine != theirs
    assert PersonMatch.objects.filter(new=mine, known=theirs, status="open").exists()
