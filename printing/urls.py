from django.urls import path

from printing import views

app_name = "printing"
_round = "tournaments/<slug:slug>/rounds/<int:number>/"
_event = "tournaments/<slug:slug>/"
urlpatterns = [
    path(f"{_round}print/", views.round_print, name="round_print"),
    path(f"{_round}print/score-sheets/", views.score_sheets_job, name="score_sheets_job"),
    path(f"{_round}score-sheets.pdf", views.score_sheets_pdf, name="score_sheets_pdf"),
    path(f"{_round}pairings.pdf", views.pairings_pdf, name="pairings_pdf"),
    path(f"{_event}print/jobs/<int:job_id>/", views.job_progress, name="job_progress"),
    path(
        f"{_event}print/jobs/<int:job_id>/score-sheets.pdf", views.job_download, name="job_download"
    ),
    path(f"{_event}print/standings.pdf", views.standings_pdf, name="standings_pdf"),
    path(f"{_event}print/bracket.pdf", views.bracket_pdf, name="bracket_pdf"),
    path(f"{_event}print/final.pdf", views.final_pdf, name="final_pdf"),
    path(f"{_event}print/judge-report.pdf", views.judge_report_pdf, name="judge_report_pdf"),
    path(f"{_event}games/<int:game_id>/record.pdf", views.game_record_pdf, name="game_record_pdf"),
]
