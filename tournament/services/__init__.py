"""Writes of the tournament app (HackSoft style: ``<entity>_<action>``).

Modules: ``registration`` (events, roles, pairs), ``pairing`` (Swiss rounds
and their life cycle), ``knockout``; ``pairing_core`` and ``standings`` are the
pure computations they use.
"""
