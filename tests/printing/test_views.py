import pytest
from django.urls import reverse

from games.engine import selfplay_game
from games.services.move_log import game_record_import
from games.services.tokens import game_token
from printing.models import PrintJob
from printing.tasks import print_job_build
from tests.factories import TournamentFactory, organiser_of
from tests.printing.pdf_tools import pdf_text, qr_codes
from tournament.models import Round


@pytest.fixture
def no_worker(monkeypatch):
    sent = []
    monkeypatch.setattr(print_job_build, "delay", lambda job_id: sent.append(job_id))
    return sent


def _url(name, round, **extra):
    return reverse(f"printing:{name}", args=[round.tournament.slug, round.number, *extra.values()])


def test_organiser_gets_score_sheets_whose_qr_opens_the_table_page(
    client, round_with_games, organiser
):
    client.force_login(organiser)
    response = client.get(_url("score_sheets_pdf", round_with_games))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert "no-store" in response["Cache-Control"]
    pdf = response.content
    games = list(round_with_games.games.order_by("table_number"))
    for index, game in enumerate(games):
        game.refresh_from_db()
        assert qr_codes(pdf, index) == [f"https://dm.example/t/{game_token(game=game)}/"]
    text = pdf_text(pdf)
    assert "Runde 1" in text and "Bord" in text  # Danish by default
    assert games[0].short_code in text


def test_one_table_in_a5_and_english(client, round_with_games, organiser):
    client.force_login(organiser)
    response = client.get(_url("score_sheets_pdf", round_with_games) + "?table=2&size=A5&lang=en")
    text = pdf_text(response.content)
    assert "Round 1" in text and "Erik Eg" in text and "Anne Als" not in text


@pytest.mark.parametrize("who", ["anonymous", "judge", "other_organiser"])
def test_score_sheets_are_for_this_events_organisers_only(client, round_with_games, judge, who):
    if who == "judge":
        client.force_login(judge)
    elif who == "other_organiser":
        client.force_login(organiser_of(TournamentFactory(), username="elsewhere"))
    response = client.get(_url("score_sheets_pdf", round_with_games))
    if who == "anonymous":
        assert response.status_code == 302 and "/login/" in response["Location"]
    else:
        assert response.status_code == 403
        assert "arrangør" in response.content.decode()
    assert response.get("Content-Type", "").startswith("text/html") or response.status_code == 302
    assert not round_with_games.games.exclude(token_nonce="").exists()  # no token issued


def test_public_pairings_contain_no_table_tokens(client, round_with_games, organiser):
    client.force_login(organiser)
    client.get(_url("score_sheets_pdf", round_with_games))  # tokens now exist
    client.logout()
    response = client.get(_url("pairings_pdf", round_with_games))
    assert response.status_code == 200
    text = pdf_text(response.content)
    assert "Anne Als" in text and "Hvor sidder jeg?" in text
    for game in round_with_games.games.all():
        assert game_token(game=game) not in text and game.short_code not in text
        assert "/t/" not in text
    assert qr_codes(response.content, 0) == []


def test_draft_pairings_are_not_public(client, round_with_games, judge):
    round_with_games.status = Round.Status.DRAFT
    round_with_games.save()
    assert client.get(_url("pairings_pdf", round_with_games)).status_code == 404
    client.force_login(judge)
    assert client.get(_url("pairings_pdf", round_with_games)).status_code == 200


def test_standings_and_bracket_are_public(client, round_with_games):
    slug = round_with_games.tournament.slug
    standings = client.get(reverse("printing:standings_pdf", args=[slug]) + "?lang=en")
    assert standings.status_code == 200 and "Standings" in pdf_text(standings.content)
    assert "Anne Als" in pdf_text(standings.content)
    bracket = client.get(reverse("printing:bracket_pdf", args=[slug]))
    assert bracket.status_code == 200 and "Knockout" in pdf_text(bracket.content)


def test_unpublished_tournament_documents_are_hidden(client, round_with_games):
    tournament = round_with_games.tournament
    tournament.published = False
    tournament.save()
    assert client.get(reverse("printing:standings_pdf", args=[tournament.slug])).status_code == 404


def test_game_record_for_judges_only(client, round_with_games, judge):
    game = round_with_games.games.get(table_number=1)
    record = selfplay_game(5)
    game.first_dealer = record["first_dealer"]
    game.save()
    game_record_import(game=game, actor=judge, record={**record, "moves": record["moves"][:30]})
    url = reverse("printing:game_record_pdf", args=[round_with_games.tournament.slug, game.pk])
    assert client.get(url).status_code == 302  # anonymous: log in first
    client.force_login(judge)
    response = client.get(url + "?lang=en")
    assert response.status_code == 200
    text = pdf_text(response.content)
    assert "Yellow: Anne Als" in text and "Red: Carl Carlsen" in text
    assert "All 30 entries accepted by the rules engine." in text
    assert record["moves"][29] in text and "Position after entry 20" in text


def test_judge_report_includes_adjudicated_results(client, round_with_games, judge):
    game = round_with_games.games.get(table_number=3)
    game.winner, game.result_source, game.timed_out = "RG", "adjudicated", True
    game.distance_yb, game.distance_rg = 77, 41
    game.save()
    client.force_login(judge)
    url = reverse("printing:judge_report_pdf", args=[round_with_games.tournament.slug])
    text = pdf_text(client.get(url + "?lang=en").content)
    assert "W3" in text and "Red/Green 41" in text and "Adjudication: 1" in text
    client.logout()
    assert client.get(url).status_code == 302


def test_print_page_starts_a_job_and_polls_progress(
    client, round_with_games, organiser, no_worker, django_capture_on_commit_callbacks
):
    client.force_login(organiser)
    page = client.get(_url("round_print", round_with_games))
    html = page.content.decode()
    assert page.status_code == 200 and "Udskriv runde 1" in html and "<script>" not in html
    assert "js/printjob.js" in html and "onclick" not in html and "style=" not in html
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            _url("score_sheets_job", round_with_games),
            {"size": "A5"},
            HTTP_ACCEPT="application/json",
        )
    body = response.json()
    assert body["status"] == "queued" and body["download_url"] is None
    assert no_worker == [body["id"]]
    job = PrintJob.objects.get(pk=body["id"])
    assert job.kind == "score_sheets_a5"
    print_job_build(job.pk)  # the worker's part, run directly
    progress = client.get(body["progress_url"]).json()
    assert progress["status"] == "done" and progress["percent"] == 100
    assert progress["progress"] == progress["total"] == 3
    download = client.get(progress["download_url"])
    assert download.status_code == 200
    assert "Anne Als" in pdf_text(b"".join(download.streaming_content))
    page = client.get(_url("round_print", round_with_games)).content.decode()
    assert progress["download_url"] in page


def test_print_job_endpoints_refuse_others(client, round_with_games, organiser, judge, no_worker):
    client.force_login(judge)
    response = client.post(
        _url("score_sheets_job", round_with_games), {"size": "A4"}, HTTP_ACCEPT="application/json"
    )
    assert response.status_code == 403 and response.json()["message_da"]
    assert client.get(_url("round_print", round_with_games)).status_code == 403
    client.force_login(organiser)
    job_id = client.post(
        _url("score_sheets_job", round_with_games), {"size": "A4"}, HTTP_ACCEPT="application/json"
    ).json()["id"]
    print_job_build(job_id)
    client.force_login(judge)
    slug = round_with_games.tournament.slug
    assert client.get(reverse("printing:job_progress", args=[slug, job_id])).status_code == 403
    assert client.get(reverse("printing:job_download", args=[slug, job_id])).status_code == 403


def test_post_without_javascript_redirects_back_to_the_page(
    client, round_with_games, organiser, no_worker
):
    client.force_login(organiser)
    response = client.post(_url("score_sheets_job", round_with_games), {"size": "A4"})
    assert response.status_code == 302
    assert response["Location"].endswith("/print/?lang=da#job-score_sheets_a4")


def test_csrf_is_enforced_on_the_print_job_post(round_with_games, organiser):
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    client.force_login(organiser)
    response = client.post(_url("score_sheets_job", round_with_games), {"size": "A4"})
    assert response.status_code == 403 and not PrintJob.objects.exists()


def test_the_print_page_chooses_the_documents_language_on_the_page(
    client, round_with_games, organiser
):
    client.force_login(organiser)
    danish = client.get(_url("round_print", round_with_games)).content.decode()
    assert 'id="print-language"' in danish
    assert 'href="?lang=en" lang="en"' in danish and ">English</a>" in danish
    assert 'lang="da" hreflang="da" aria-current="true">Dansk</a>' in danish
    english = client.get(_url("round_print", round_with_games), {"lang": "en"}).content.decode()
    assert 'lang="en" hreflang="en" aria-current="true">English</a>' in english
    # Every document link and the score-sheet jobs follow the choice.
    assert english.count("lang=en") >= 7
    assert "lang=da" not in english.replace('href="?lang=da"', "")
    job = client.post(_url("score_sheets_job", round_with_games) + "?lang=en", {"size": "A4"})
    assert job["Location"].endswith("?lang=en#job-score_sheets_a4")
    assert PrintJob.objects.get(round=round_with_games).language == "en"
