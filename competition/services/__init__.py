"""Writes of a tournament in play (HackSoft style: ``<entity>_<action>``).

Modules: ``pairing`` (Swiss rounds and their life cycle: pair, publish,
start, close; a pair's fixed table), ``knockout`` (the bracket), ``backup``
(export and import of a whole event, with ``backup_check``). The pure
computations they use stay in ``tournament.services`` (``pairing_core``,
``standings``).
"""
