"""What every URL reads from a request: the input the hostile-input walker fuzzes.

Keys are URL names as in ``policy.POLICY``; values map each method to the
parameters its view (and the services it calls) read, each with its kind:

- ``"?name"`` is a query parameter, ``"name"`` a body field (JSON under
  /api/, form fields and files elsewhere);
- kinds: ``int``, ``text``, ``choice``, ``flag``, ``json`` (any JSON value:
  a list, an object), ``file`` (an uploaded file).

``tests/security/test_hostile_input.py`` requests every URL as every role
and records what the request actually read: a parameter read but not
declared here fails (add it here, with its kind, and read it through
``core.request``), and so does a query or form parameter read anywhere but
in ``core.request``, Django's forms or DRF's serializers. Every parameter a
request reads is then sent with each hostile value of its kind.

``BASELINES`` gives valid values for requests whose interesting paths need
them (a ruling of each kind), on top of ``policy.BODIES``; each baseline is
walked on its own.
"""

from __future__ import annotations

from typing import Any

# Read by the framework for every request of its kind, never by our code.
FRAMEWORK_READS = {
    "csrfmiddlewaretoken",  # Django's CSRF check of a form POST
    "?format",  # DRF's format suffix
}

_CLOCK = {"reason": "text"}
_TABLE_WRITE = {"client_id": "text", "lang": "choice"}
_RULING = {
    "kind": "choice", "seq": "int", "also": "json", "keep": "json", "position": "json",
    "penalty": "choice", "seat": "choice", "pawn": "text", "move": "text", "winner": "choice",
    "reason": "text", "rule": "text", "call": "int", "keep_call_open": "flag",
}  # fmt: skip
_RULING_FORM = {
    **{name: kind for name, kind in _RULING.items() if name not in ("also", "keep")},
    "action": "choice", "decide": "text", "at": "int", "ruling": "int",
}  # fmt: skip
_PAIR_FORM = {
    "player_1": "text", "player_2": "text", "club": "text", "name": "text", "seed": "int",
    "rating": "int",
}  # fmt: skip
_SETTINGS_FORM = {
    "name": "text", "date": "text", "venue": "text", "ruleset": "choice",
    "time_limit_minutes": "int", "alert_minutes": "int", "swiss_rounds": "int",
    "knockout_size": "choice", "third_place_game": "flag", "points_win": "int",
    "points_loss": "int", "points_bye": "int", "adjudication": "choice",
    "pause_clock_on_call": "flag", "clock_speed": "choice",
    **{f"tiebreak_{n}": "choice" for n in range(1, 6)},
}  # fmt: skip
_SETTINGS_API = {
    **{k: v for k, v in _SETTINGS_FORM.items() if not k.startswith("tiebreak_")},
    "tiebreaks": "json", "clock_speed": "json", "knockout_size": "int", "language": "choice",
    "published": "flag",
    "signup_approval": "flag", "signup_capacity": "int", "signup_closes_at": "text",
}  # fmt: skip
_RESULT = {
    "winner": "choice", "locked_yb": "int", "locked_rg": "int", "distance_yb": "int",
    "distance_rg": "int", "timed_out": "flag", "note": "text", "override_reason": "text",
}  # fmt: skip
_LANG = {"?lang": "choice"}
_SEASON = {
    "name": "text", "description": "text", "method": "choice", "qualifiers_per_event": "int",
    "pass_down": "flag", "points_table": "json", "best_results": "int", "final_places": "int",
    "tiebreak": "choice", "published": "flag",
}  # fmt: skip
_SEASON_FORM = {**{k: v for k, v in _SEASON.items() if k != "points_table"}, "points_table": "text"}
_SIGNUP = {
    "player_1": "text", "player_2": "text", "pair_name": "text", "club": "text", "email": "text",
    "consent": "flag", "client_id": "text",
}  # fmt: skip

_NEW_ACCOUNT = {"username": "text", "email": "text", "password1": "text", "password2": "text"}
_NEW_PASSWORD = {"new_password1": "text", "new_password2": "text"}
_PASSWORD_CHANGE = {"old_password": "text", **_NEW_PASSWORD}

INPUTS: dict[str, dict[str, dict[str, str]]] = {
    "api:schema": {"GET": {"?lang": "choice", "?version": "text"}},
    "api:docs": {"GET": {"?lang": "choice", "?script": "text"}},
    "language_switch": {"GET": {"?next": "text"}},
    "login": {
        "GET": {"?next": "text", "next": "text"},
        "POST": {"username": "text", "password": "text", "next": "text", "?next": "text"},
        "PUT": {"username": "text", "password": "text", "next": "text", "?next": "text"},
    },
    "logout": {"POST": {"next": "text", "?next": "text"}},
    # accounts
    "accounts:setup": {"POST": _NEW_ACCOUNT | {"code": "text"}},
    "accounts:invitation": {"POST": _NEW_ACCOUNT},
    "accounts:organiser_invitation_new": {"POST": {"role": "choice", "email": "text"}},
    "accounts:deactivate": {"POST": {"password": "text"}},
    "accounts:password_change": {
        "POST": _PASSWORD_CHANGE,
        "PUT": _PASSWORD_CHANGE,
    },
    "accounts:password_reset": {"POST": {"email": "text"}, "PUT": {"email": "text"}},
    "accounts:password_reset_confirm": {"POST": _NEW_PASSWORD, "PUT": _NEW_PASSWORD},
    # tournament API
    "api:tournament-list": {"POST": {**_SETTINGS_API, "slug": "text"}},
    "api:tournament-detail": {"PATCH": _SETTINGS_API},
    "api:tournament-pairs": {"POST": {**_PAIR_FORM, "check_in": "flag"}},
    "api:tournament-pairs-import": {"POST": {"csv_text": "text"}},
    "api:tournament-roles": {"POST": {"username": "text", "role": "choice"}},
    "api:tournament-roles-revoke": {"POST": {"username": "text", "role": "choice"}},
    "api:tournament-rounds-pair": {"POST": {"method": "choice", "random_seed": "int"}},
    "api:tournament-standings": {"GET": {"?round": "int"}},
    "api:tournament-knockout": {"POST": {"source": "choice", "cut": "choice", "early": "flag"}},
    "api:pair-detail": {"PATCH": _PAIR_FORM},
    "api:pair-fixed-table": {"POST": {"table_number": "int"}},
    "api:round-swap": {"POST": {"pair_a": "int", "pair_b": "int", "allow_rematch": "flag"}},
    "api:game-result-result": {"POST": _RESULT},
    "api:game-result-result-clear": {"POST": {"reason": "text"}},
    # games API
    "api:game-clock-pause": {"POST": _CLOCK},
    "api:game-clock-extend": {"POST": {**_CLOCK, "minutes": "int"}},
    "api:table-state": {"GET": {"?tail": "int"}},
    "api:table-entries": {"POST": {**_TABLE_WRITE, "text": "text", "expected_seq": "int"}},
    "api:table-preview": {"POST": {"text": "text", "lang": "choice"}},
    "api:table-take-back": {"POST": {**_TABLE_WRITE, "seq": "int"}},
    "api:table-confirm": {"POST": {**_TABLE_WRITE, "pair_side": "choice"}},
    "api:game-state": {"GET": {"?tail": "int", "?legal": "flag"}},
    "api:game-record": {
        "POST": {
            "moves": "json",
            "ruleset": "choice",
            "first_dealer": "choice",
            "start": "json",
        },
    },
    # judging API
    "api:table-judge": {"POST": {"client_id": "text", "reason": "text", "seq": "int"}},
    "api:game-review": {"GET": {"?at": "int"}},
    "api:game-rulings": {"POST": _RULING},
    "api:void-check": {"POST": {"seq": "int", "also": "json"}},
    "api:rulings-search": {"GET": {"?q": "text", "?rule": "text"}},
    "api:judge-incidents": {"GET": {"?pair": "int"}},
    # table pages
    "games:table-code": {"GET": {"?code": "text"}},
    "games:replay": {"GET": {"?ply": "text"}},
    "tournament:stream_overlay": {"GET": {"?bg": "choice"}},
    "tournament:organiser_stream_table": {"POST": {"game": "int", "round": "text"}},
    # judge pages
    "judging:review": {"GET": {"?at": "int", "?done": "flag"}},
    "judging:rule": {"POST": _RULING_FORM},
    "judging:rulings": {"GET": {"?q": "text", "?rule": "text"}},
    "judging:incidents": {"GET": {"?pair": "int"}},
    # printing
    "printing:round_print": {"GET": _LANG},
    "printing:score_sheets_job": {"POST": {"size": "choice", **_LANG}},
    "printing:score_sheets_pdf": {"GET": {"?table": "int", "?size": "choice", **_LANG}},
    "printing:pairings_pdf": {"GET": _LANG},
    "printing:standings_pdf": {"GET": {"?round": "int", **_LANG}},
    "printing:bracket_pdf": {"GET": _LANG},
    "printing:judge_report_pdf": {"GET": _LANG},
    "printing:game_record_pdf": {"GET": _LANG},
    # public pages
    "tournament:public_home": {"GET": {"?fragment": "flag"}},
    "tournament:pairings": {"GET": {"?fragment": "flag", "?q": "text"}},
    "tournament:standings": {"GET": {"?fragment": "flag"}},
    "tournament:pair": {"GET": {"?fragment": "flag"}},
    "tournament:bracket": {"GET": {"?fragment": "flag"}},
    # organiser pages
    "tournament:organiser_new": {"POST": {**_SETTINGS_FORM, "slug": "text"}},
    "tournament:organiser_settings": {"POST": _SETTINGS_FORM},
    "tournament:organiser_role_grant": {"POST": {"username": "text", "role": "choice"}},
    "tournament:organiser_handover_receive": {"POST": {"file": "file", "slug": "text"}},
    "tournament:organiser_handover_return": {"POST": {"file": "file"}},
    "tournament:organiser_pairs": {"POST": {**_PAIR_FORM, "check_in": "flag"}},
    "tournament:organiser_pairs_import": {"POST": {"csv_text": "text", "csv_file": "file"}},
    "tournament:organiser_pair_edit": {"POST": {**_PAIR_FORM, "fixed_table": "int"}},
    "tournament:organiser_round_pair": {"POST": {"method": "choice"}},
    "tournament:organiser_round_swap": {
        "POST": {"pair_a": "int", "pair_b": "int", "allow_rematch": "flag"}
    },
    "tournament:organiser_game_result": {"POST": _RESULT},
    "tournament:organiser_game_result_clear": {"POST": {"reason": "text"}},
    "tournament:organiser_knockout_create": {
        "POST": {"source": "choice", "cut": "choice", "early": "flag"}
    },
    "tournament:organiser_publish": {"POST": {"action": "choice"}},
    "tournament:final": {"GET": {"?fragment": "flag"}},
    "printing:final_pdf": {"GET": _LANG},
    # alerts and rulings
    "api:alerts-acknowledge": {"POST": {"ids": "json"}},
    "api:ruling-undo": {"POST": {"reason": "text"}},
    # season
    "api:season-list": {"POST": {**_SEASON, "slug": "text"}},
    "api:season-detail": {"PATCH": _SEASON},
    "api:season-events": {"POST": {"tournament": "text", "kind": "choice"}},
    "api:season-final": {"POST": {"name": "text", "date": "text", "venue": "text", "slug": "text"}},
    "api:season-people-merge": {"POST": {"survivor": "int", "duplicate": "int"}},
    "api:season-people-apart": {"POST": {"first": "int", "second": "int"}},
    "season:ranking": {"GET": {"?fragment": "flag"}},
    "season:organiser_new": {"POST": {**_SEASON_FORM, "slug": "text"}},
    "season:organiser_event_add": {"POST": {"tournament": "choice", "kind": "choice"}},
    "season:organiser_merge": {"POST": {"survivor": "choice", "duplicate": "choice"}},
    "season:organiser_apart": {"POST": {"first": "choice", "second": "choice"}},
    # sign-up
    "api:signup-public": {"POST": _SIGNUP},
    "api:signup-reject": {"POST": {"note": "text"}},
    "signup:organiser_reject": {"POST": {"note": "text"}},
    "signup:own": {"POST": {"action": "choice"}},
    "signup:consent": {"POST": {"answer": "choice"}},
    "api:signup-consent": {"POST": {"confirm": "flag"}},
    "api:person-consent": {"POST": {"given": "flag", "reason": "text"}},
    "signup:organiser_person_consent": {"POST": {"given": "choice", "reason": "text"}},
}

# Further valid requests, each walked on its own: (method, query, body).
BASELINES: dict[str, list[tuple[str, dict[str, str], dict[str, Any]]]] = {
    "api:table-state": [("GET", {"tail": "20"}, {})],
    "api:game-state": [("GET", {"tail": "20", "legal": "1"}, {})],
    "api:game-review": [("GET", {"at": "1"}, {})],
    "api:judge-incidents": [("GET", {"pair": "1"}, {})],
    "api:rulings-search": [("GET", {"q": "x", "rule": "P2"}, {})],
    "api:tournament-standings": [("GET", {"round": "1"}, {})],
    "api:game-rulings": [
        ("POST", {}, {"kind": "uphold", "seq": 1, "reason": "hostile", "rule": "F6"}),
        ("POST", {}, {"kind": "void", "seq": 1, "also": [], "keep": [], "reason": "hostile"}),
        (
            "POST",
            {},
            {"kind": "penalty", "penalty": "P2", "seat": "Y", "pawn": "Y1", "reason": "hostile"},
        ),
        (
            "POST",
            {},
            {"kind": "penalty", "penalty": "P3", "seat": "R", "move": "5: in", "reason": "hostile"},
        ),
        (
            "POST",
            {},
            {
                "kind": "position",
                "position": "Y=YH,YH,YH,YH R=RH,RH,RH,RH B=BH,BH,BH,BH G=GH,GH,GH,GH",
                "reason": "hostile",
            },
        ),
        (
            "POST",
            {},
            {"kind": "warning", "seat": "B", "rule": "P5", "reason": "hostile", "call": 1},
        ),
        ("POST", {}, {"kind": "result", "winner": "YB", "reason": "hostile"}),
    ],
    "judging:rule": [
        ("POST", {}, {"action": "void", "seq": "1", "decide": "2:keep", "reason": "hostile"}),
        ("POST", {}, {"action": "take", "call": "1", "at": "1"}),
    ],
    "judging:review": [("GET", {"at": "1", "done": "1"}, {})],
    "judging:incidents": [("GET", {"pair": "1"}, {})],
    "judging:rulings": [("GET", {"q": "x", "rule": "P2"}, {})],
    "api:game-record": [
        (
            "POST",
            {},
            {
                "moves": ["Y 11: in"],
                "ruleset": "dm2023",
                "first_dealer": "Y",
                "start": {"Y": ["YH"] * 4, "R": ["RH"] * 4, "B": ["BH"] * 4, "G": ["GH"] * 4},
            },
        ),
    ],
    "printing:score_sheets_pdf": [("GET", {"table": "1", "size": "A5", "lang": "en"}, {})],
    "printing:standings_pdf": [("GET", {"round": "1", "lang": "en"}, {})],
    "tournament:pairings": [("GET", {"q": "1", "fragment": "1"}, {})],
    "games:table-code": [("GET", {"code": "ABC234"}, {})],
    "language_switch": [("GET", {"next": "/tournaments/"}, {})],
    "tournament:organiser_pairs_import": [
        ("POST", {}, {"csv_text": "player_1,player_2\nHostil A,Hostil B\n"})
    ],
}
