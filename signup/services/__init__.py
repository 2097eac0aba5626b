"""Writes of the signup app: ``signups`` (sign up, approve, reject, withdraw,
the waitlist), ``emails`` (the outbox), ``links`` (the private link),
``privacy`` (deleting contact data)."""
