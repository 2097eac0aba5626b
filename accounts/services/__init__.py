"""Accounts' writes: first-run setup, invitations, deactivation."""

from accounts.services.invitations import (
    InvitationSent,
    invitation_accept,
    invitation_create,
    invitation_revoke,
    invitation_signup,
)
from accounts.services.setup import setup_code_issue, setup_complete
from accounts.services.users import user_deactivate, user_reactivate

__all__ = [
    "InvitationSent",
    "invitation_accept",
    "invitation_create",
    "invitation_revoke",
    "invitation_signup",
    "setup_code_issue",
    "setup_complete",
    "user_deactivate",
    "user_reactivate",
]
