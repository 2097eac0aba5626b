"""Changes pushed to open pages: Server-Sent Events through Redis pub/sub (docs/push.md).

``broker`` publishes (sync, after a commit); ``hub`` and ``stream`` serve the
open connections in an ASGI process. An event says only *that* a channel
changed (its kind and an id); the page then fetches what it would have
polled, through the same visibility checks.
"""
