"""The pages of a tournament, under the ``tournament`` namespace (the names
the templates and the other apps reverse): the front page and where a login
lands (``tournament.views.home``), the public pages and the organiser's desk.
"""

from django.urls import path

from competition.views import (
    organiser_handover,
    organiser_pairs,
    organiser_rounds,
    organiser_setup,
    organiser_tokens,
    public,
    stream,
)
from tournament.views.home import home, role_home

app_name = "tournament"

urlpatterns = [
    path("", home, name="home"),
    # Where login lands: the user's event dashboard, judge dashboard or list of events.
    path("start/", role_home, name="role_home"),
    # Public pages
    path("tournaments/<slug:slug>/", public.tournament_home, name="public_home"),
    path("tournaments/<slug:slug>/rounds/<int:number>/", public.round_pairings, name="pairings"),
    path("tournaments/<slug:slug>/standings/", public.standings, name="standings"),
    path("tournaments/<slug:slug>/pairs/<int:start_number>/", public.pair_detail, name="pair"),
    path("tournaments/<slug:slug>/bracket/", public.bracket, name="bracket"),
    path("tournaments/<slug:slug>/final/", public.final, name="final"),
    path("tournaments/<slug:slug>/stream/", stream.stream_overlay_page, name="stream_overlay"),
    path("tournaments/<slug:slug>/stream/feed/", stream.stream_overlay_feed, name="stream_feed"),
    # Organiser pages
    path("organise/", organiser_setup.organiser_index, name="organiser_index"),
    path("organise/new/", organiser_setup.tournament_new, name="organiser_new"),
    path(
        "organise/receive/",
        organiser_handover.handover_receive_view,
        name="organiser_handover_receive",
    ),
    path("organise/<slug:slug>/", organiser_setup.dashboard, name="organiser_dashboard"),
    path(
        "organise/<slug:slug>/settings/",
        organiser_setup.tournament_settings,
        name="organiser_settings",
    ),
    path("organise/<slug:slug>/publish/", organiser_setup.publish, name="organiser_publish"),
    path("organise/<slug:slug>/roles/", organiser_setup.role_grant, name="organiser_role_grant"),
    path(
        "organise/<slug:slug>/stream/",
        stream.organiser_stream_table,
        name="organiser_stream_table",
    ),
    path(
        "organise/<slug:slug>/handover/send/",
        organiser_handover.handover_send,
        name="organiser_handover_send",
    ),
    path(
        "organise/<slug:slug>/handover/return/",
        organiser_handover.handover_return,
        name="organiser_handover_return",
    ),
    path(
        "organise/<slug:slug>/handover/take-back/",
        organiser_handover.handover_take_back_view,
        name="organiser_handover_take_back",
    ),
    path(
        "organise/<slug:slug>/handover/back/",
        organiser_handover.handover_back,
        name="organiser_handover_back",
    ),
    path(
        "organise/<slug:slug>/roles/<int:role_id>/revoke/",
        organiser_setup.role_revoke,
        name="organiser_role_revoke",
    ),
    path("organise/<slug:slug>/pairs/", organiser_pairs.pairs_list, name="organiser_pairs"),
    path(
        "organise/<slug:slug>/pairs/import/",
        organiser_pairs.pairs_import,
        name="organiser_pairs_import",
    ),
    path(
        "organise/<slug:slug>/pairs/check-in-all/",
        organiser_pairs.pairs_check_in_all,
        name="organiser_pairs_check_in_all",
    ),
    path(
        "organise/<slug:slug>/pairs/<int:pair_id>/",
        organiser_pairs.pair_edit,
        name="organiser_pair_edit",
    ),
    path(
        "organise/<slug:slug>/pairs/<int:pair_id>/<slug:action>/",
        organiser_pairs.pair_action,
        name="organiser_pair_action",
    ),
    path(
        "organise/<slug:slug>/rounds/next/",
        organiser_rounds.round_pair_next,
        name="organiser_round_pair",
    ),
    path(
        "organise/<slug:slug>/rounds/<int:number>/",
        organiser_rounds.round_detail,
        name="organiser_round",
    ),
    path(
        "organise/<slug:slug>/rounds/<int:number>/swap/",
        organiser_rounds.round_swap,
        name="organiser_round_swap",
    ),
    path(
        "organise/<slug:slug>/rounds/<int:number>/<slug:action>/",
        organiser_rounds.round_action,
        name="organiser_round_action",
    ),
    path(
        "organise/<slug:slug>/games/<int:game_id>/result/",
        organiser_rounds.game_result,
        name="organiser_game_result",
    ),
    path(
        "organise/<slug:slug>/games/<int:game_id>/result/clear/",
        organiser_rounds.game_result_delete,
        name="organiser_game_result_clear",
    ),
    path(
        "organise/<slug:slug>/games/<int:game_id>/token/rotate/",
        organiser_tokens.game_token_rotate_view,
        name="organiser_game_token_rotate",
    ),
    path(
        "organise/<slug:slug>/knockout/",
        organiser_rounds.knockout_page,
        name="organiser_knockout",
    ),
    path(
        "organise/<slug:slug>/knockout/create/",
        organiser_rounds.knockout_start,
        name="organiser_knockout_create",
    ),
    path(
        "organise/<slug:slug>/knockout/advance/",
        organiser_rounds.knockout_next,
        name="organiser_knockout_advance",
    ),
]
