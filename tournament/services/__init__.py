"""Writes of the tournament app (HackSoft style: ``<entity>_<action>``).

Modules: ``registration`` (events, roles, pairs), ``players``, ``audit``;
``pairing_core`` and ``standings`` are the pure computations that
``competition.services`` (rounds, knockout) uses.
"""
