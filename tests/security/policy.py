"""Who may call which URL: the expected access of every page and API endpoint.

Keys are URL names (``namespace:name``), values map each HTTP method to an
access level. A new URL without an entry here fails
``test_every_url_has_a_policy``: add it with the access it needs.

Access levels (roles in ``world.ROLES``):

- ``public``: everyone, also anonymous visitors (the tournament is published);
- ``login``: any signed-in user;
- ``judge``: judges and organisers of *this* tournament, and staff;
- ``organiser``: organisers of *this* tournament, and staff;
- ``token``: the table's own token, while its round is open;
- ``token-read``: the table's own token, also after its round closed.
"""

from __future__ import annotations

ALLOWED: dict[str, set[str]] = {
    "public": {
        "anon", "token", "token_closed", "judge", "judge_other", "organiser",
        "organiser_other", "staff",
    },
    "login": {"judge", "judge_other", "organiser", "organiser_other", "staff"},
    "judge": {"judge", "organiser", "staff"},
    "organiser": {"organiser", "staff"},
    "token": {"token"},
    "token-read": {"token", "token_closed"},
}  # fmt: skip

# Not in the matrix, on purpose: Django's own admin (staff only, its own
# login, rate-limited by core/ratelimit.py) and Django's set_language view.
EXCLUDED_PREFIXES = ("admin/", "i18n/")

P, L, J, O, T, TR = "public", "login", "judge", "organiser", "token", "token-read"  # noqa: E741

POLICY: dict[str, dict[str, str]] = {
    # site
    "language_switch": {"GET": P},
    "health": {"GET": P},  # 503 while a dependency is down is an answer, not an error
    "login": {"GET": P, "POST": P, "PUT": P},
    "logout": {"POST": P},
    "api:schema": {"GET": P},
    "api:docs": {"GET": P},
    # tournament API
    "api:tournament-list": {"GET": P, "POST": L},
    "api:tournament-detail": {"GET": P, "PATCH": O},
    "api:tournament-bracket": {"GET": P},
    "api:tournament-knockout": {"POST": O},
    "api:tournament-knockout-advance": {"POST": O},
    "api:tournament-pairs": {"GET": P, "POST": O},
    "api:tournament-pairs-import": {"POST": O},
    "api:tournament-roles": {"POST": O},
    "api:tournament-roles-revoke": {"POST": O},
    "api:tournament-rounds": {"GET": P},
    "api:tournament-rounds-pair": {"POST": O},
    "api:tournament-standings": {"GET": P},
    "api:pair-detail": {"GET": P, "PATCH": O},
    "api:pair-check-in": {"POST": O},
    "api:pair-check-out": {"POST": O},
    "api:pair-drop": {"POST": O},
    "api:pair-fixed-table": {"POST": O},
    "api:pair-history": {"GET": P},
    "api:round-detail": {"GET": P},
    "api:round-close": {"POST": O},
    "api:round-games": {"GET": P},
    "api:round-publish": {"POST": O},
    "api:round-repair": {"POST": O},
    "api:round-start": {"POST": O},
    "api:round-swap": {"POST": O},
    "api:game-result-result": {"POST": O},
    "api:game-result-result-clear": {"POST": O},
    # games API
    "api:game-clock": {"GET": P},
    "api:game-clock-pause": {"POST": J},
    "api:game-clock-resume": {"POST": J},
    "api:game-clock-extend": {"POST": J},
    "api:table-state": {"GET": TR},
    "api:table-entries": {"POST": T},
    "api:table-preview": {"POST": T},
    "api:table-take-back": {"POST": T},
    "api:table-confirm": {"POST": T},
    "api:table-record": {"GET": TR},
    "api:table-clock": {"GET": TR},
    "api:game-state": {"GET": P},
    "api:game-record": {"GET": P, "POST": J},
    "api:tournament-hall": {"GET": P},
    # judging API
    "api:judge-dashboard": {"GET": J},
    "api:alert-acknowledge": {"POST": J},
    "api:alerts-acknowledge": {"POST": J},
    "api:table-judge": {"GET": TR, "POST": T},
    "api:judge-calls": {"GET": J},
    "api:call-take": {"POST": J},
    "api:call-close": {"POST": J},
    "api:game-review": {"GET": J},
    "api:game-rulings": {"GET": J, "POST": J},
    "api:void-check": {"POST": J},
    "api:ruling-undo": {"POST": J},
    "api:game-adjudication": {"GET": J},
    "api:rulings-search": {"GET": J},
    "api:judge-incidents": {"GET": J},
    # table pages
    "games:table-code": {"GET": P},
    "games:table": {"GET": TR},
    "games:live": {"GET": P},
    "games:hall": {"GET": P},
    # judge pages
    "judging:dashboard": {"GET": J},
    "judging:review": {"GET": J},
    "judging:rule": {"POST": J},
    "judging:rulings": {"GET": J},
    "judging:incidents": {"GET": J},
    # printing
    "printing:round_print": {"GET": O},
    "printing:score_sheets_job": {"POST": O},
    "printing:score_sheets_pdf": {"GET": O},
    "printing:pairings_pdf": {"GET": P},
    "printing:job_progress": {"GET": O},
    "printing:job_download": {"GET": O},
    "printing:standings_pdf": {"GET": P},
    "printing:bracket_pdf": {"GET": P},
    "printing:final_pdf": {"GET": P},
    "printing:judge_report_pdf": {"GET": J},
    "printing:game_record_pdf": {"GET": J},
    # public pages
    "tournament:home": {"GET": P},
    "tournament:role_home": {"GET": L},
    "tournament:public_home": {"GET": P},
    "tournament:pairings": {"GET": P},
    "tournament:standings": {"GET": P},
    "tournament:pair": {"GET": P},
    "tournament:bracket": {"GET": P},
    "tournament:final": {"GET": P},
    # organiser pages
    "tournament:organiser_index": {"GET": L},
    "tournament:organiser_new": {"GET": L, "POST": L},
    "tournament:organiser_dashboard": {"GET": O},
    "tournament:organiser_settings": {"GET": O, "POST": O},
    "tournament:organiser_role_grant": {"POST": O},
    "tournament:organiser_role_revoke": {"POST": O},
    "tournament:organiser_pairs": {"GET": O, "POST": O},
    "tournament:organiser_pairs_import": {"GET": O, "POST": O},
    "tournament:organiser_pairs_check_in_all": {"POST": O},
    "tournament:organiser_pair_edit": {"GET": O, "POST": O},
    "tournament:organiser_pair_action": {"POST": O},
    "tournament:organiser_round_pair": {"POST": O},
    "tournament:organiser_round": {"GET": O},
    "tournament:organiser_round_swap": {"POST": O},
    "tournament:organiser_round_action": {"POST": O},
    "tournament:organiser_game_result": {"GET": O, "POST": O},
    "tournament:organiser_game_result_clear": {"POST": O},
    "tournament:organiser_game_token_rotate": {"POST": O},
    "tournament:organiser_knockout": {"GET": O},
    "tournament:organiser_knockout_create": {"POST": O},
    "tournament:organiser_knockout_advance": {"POST": O},
    # online sign-up: the public form, the pair's private link (its token is
    # the credential: every role holds a valid one here), the organiser's list
    "signup:page": {"GET": P, "POST": P},
    "signup:own": {"GET": P, "POST": P},
    "signup:organiser_list": {"GET": O},
    "signup:organiser_csv": {"GET": O},
    "signup:organiser_advance": {"POST": O},
    "signup:organiser_approve": {"POST": O},
    "signup:organiser_reject": {"POST": O},
    "signup:organiser_withdraw": {"POST": O},
    "signup:organiser_link": {"POST": O},
    "api:signup-public": {"GET": P, "POST": P},
    "api:signup-own": {"GET": P},
    "api:signup-own-withdraw": {"POST": P},
    "api:signup-list": {"GET": O},
    "api:signup-advance": {"POST": O},
    "api:signup-approve": {"POST": O},
    "api:signup-reject": {"POST": O},
    "api:signup-withdraw": {"POST": O},
    "api:signup-link": {"POST": O},
    # seasons: "organiser" is an organiser of the season (world.series)
    "season:list": {"GET": P},
    "season:overview": {"GET": P},
    "season:ranking": {"GET": P},
    "season:ranking_csv": {"GET": P},
    "season:organiser_index": {"GET": L},
    "season:organiser_new": {"GET": L, "POST": L},
    "season:organiser_dashboard": {"GET": O},
    "season:organiser_settings": {"GET": O, "POST": O},
    "season:organiser_event_add": {"POST": O},
    "season:organiser_event_remove": {"POST": O},
    "season:organiser_final": {"GET": O, "POST": O},
    "season:organiser_people": {"GET": O},
    "season:organiser_merge": {"POST": O},
    "season:organiser_merge_undo": {"POST": O},
    "season:organiser_anonymise": {"POST": O},
    "api:season-list": {"GET": P, "POST": L},
    "api:season-detail": {"GET": P, "PATCH": O},
    "api:season-ranking": {"GET": P},
    "api:season-ranking-csv": {"GET": P},
    "api:season-events": {"POST": O},
    "api:season-event-remove": {"POST": O},
    "api:season-final": {"POST": O},
    "api:season-people": {"GET": O},
    "api:season-people-merge": {"POST": O},
    "api:season-merge-undo": {"POST": O},
    "api:season-person-anonymise": {"POST": O},
}

# Request bodies that get an allowed write past validation where that is cheap
# (JSON for /api/, form fields for pages). Everything else posts {}.
BODIES: dict[str, dict[str, object]] = {
    "api:tournament-detail": {"venue": "Aarhus"},
    "api:tournament-pairs": {"player_1": "Ny A", "player_2": "Ny B"},
    "api:tournament-pairs-import": {"csv_text": "player_1,player_2\nCsv A,Csv B\n"},
    "api:pair-detail": {"club": "Sikkerhedsklubben"},
    "api:pair-fixed-table": {"table_number": 3},
    "api:game-clock-pause": {"reason": "matrix"},
    "api:game-clock-extend": {"minutes": 2, "reason": "matrix"},
    "api:table-entries": {"text": "R 5: in", "client_id": "matrix-1", "expected_seq": 0},
    "api:table-preview": {"text": "R 5: in"},
    "api:table-take-back": {"seq": 1, "client_id": "matrix-1"},
    "api:table-confirm": {"pair_side": "YB", "client_id": "matrix-1"},
    "api:table-judge": {"client_id": "matrix-call", "reason": "matrix"},
    "api:void-check": {"seq": 1},
    "api:alerts-acknowledge": {"ids": [1]},
    "api:ruling-undo": {"reason": "matrix"},
    "api:game-result-result": {"winner": "YB"},
    "api:game-result-result-clear": {"reason": "matrix"},
    "tournament:organiser_game_result_clear": {"reason": "matrix"},
    "tournament:organiser_role_grant": {"username": "sec-judge2", "role": "judge"},
    "api:signup-reject": {"note": "matrix"},
    "api:season-detail": {"description": "matrix"},
    "api:season-list": {"name": "Matrixsæson"},
    "season:organiser_new": {
        "name": "Matrixsæson",
        "method": "top_n",
        "qualifiers_per_event": 2,
        "points_table": "3, 2, 1",
        "best_results": 1,
        "final_places": 4,
        "tiebreak": "countback",
    },
}
