"""Plumbing every app shares: reading what a request carries, checking text, logs.

Nothing here knows the game or the tournament. The apps read request input
only through ``core.request`` (integers, text, choices, the JSON body), so a
malformed value is a clear bilingual 400 in one place, never a 500.
"""
