"""Events, their staff and their pairs: create, edit, register, import, check in."""

from tournament.services.registration._common import ANY_INT
from tournament.services.registration.csv_import import (
    CSV_COLUMNS,
    MAX_IMPORT_ROWS,
    ImportReport,
    RowError,
    pairs_import_csv,
)
from tournament.services.registration.pairs import (
    PAIR_FIELDS,
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
    tournament_role_revoke,
)
from tournament.services.registration.tournaments import (
    BOOL_FIELDS,
    CLOCK_SPEED_MAX,
    CLOCK_SPEED_MIN,
    INT_LIMITS,
    MAX_SIGNUP_CAPACITY,
    SETTING_FIELDS,
    tournament_create,
    tournament_settings_check,
    tournament_update,
)

__all__ = [
    "ANY_INT",
    "BOOL_FIELDS",
    "CLOCK_SPEED_MAX",
    "CLOCK_SPEED_MIN",
    "CSV_COLUMNS",
    "INT_LIMITS",
    "MAX_IMPORT_ROWS",
    "MAX_SIGNUP_CAPACITY",
    "PAIR_FIELDS",
    "SETTING_FIELDS",
    "ImportReport",
    "PairData",
    "RowError",
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
    "tournament_role_grant",
    "tournament_role_revoke",
    "tournament_settings_check",
    "tournament_update",
]
