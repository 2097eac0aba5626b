"""Events, their staff and their pairs: create, edit, register, import, check in.

The values arrive checked and typed (the serializers, forms and
``tournament.validators``); these services hold the business rules.
"""

from tournament.services.registration.csv_import import (
    ImportReport,
    ImportRow,
    RowError,
    pairs_import_csv,
)
from tournament.services.registration.pairs import (
    PAIR_FIELDS,
    PairChanges,
    PairData,
    pair_check_in,
    pair_check_out,
    pair_drop,
    pair_register,
    pair_register_signed_up,
    pair_seeds_set,
    pair_update,
    pair_withdraw,
)
from tournament.services.registration.roles import (
    tournament_role_grant,
    tournament_role_grant_invited,
    tournament_role_revoke,
)
from tournament.services.registration.tournaments import (
    SETTING_FIELDS,
    TournamentOptions,
    TournamentSettings,
    tournament_create,
    tournament_publish,
    tournament_settings_consistent,
    tournament_settings_defaults,
    tournament_update,
)

__all__ = [
    "PAIR_FIELDS",
    "SETTING_FIELDS",
    "ImportReport",
    "ImportRow",
    "PairChanges",
    "PairData",
    "RowError",
    "TournamentOptions",
    "TournamentSettings",
    "pair_check_in",
    "pair_check_out",
    "pair_drop",
    "pair_register",
    "pair_register_signed_up",
    "pair_seeds_set",
    "pair_update",
    "pair_withdraw",
    "pairs_import_csv",
    "tournament_create",
    "tournament_publish",
    "tournament_role_grant",
    "tournament_role_grant_invited",
    "tournament_role_revoke",
    "tournament_settings_consistent",
    "tournament_settings_defaults",
    "tournament_update",
]
