"""Pure document builders: plain data (``printing.documents.types``) in, PDF bytes out.

No queries and no models here; each builder takes ``lang`` and renders inside
``translation.override``.
"""

from printing.documents.final import build_final_results
from printing.documents.game_record import build_game_record
from printing.documents.judge_report import build_judge_report
from printing.documents.pairings import build_pairings_list
from printing.documents.score_sheet import build_score_sheets
from printing.documents.standings import build_bracket, build_standings

__all__ = [
    "build_bracket",
    "build_final_results",
    "build_game_record",
    "build_judge_report",
    "build_pairings_list",
    "build_score_sheets",
    "build_standings",
]
