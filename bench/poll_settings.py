"""Settings of ``bench/poll_load.py`` only: production, plus the bare view of bench/poll_urls.py.

Never used by a deployment (``config.settings.production`` is): the bare
view exists only in the processes this benchmark starts.
"""

from config.settings.production import *  # noqa: F403

ROOT_URLCONF = "bench.poll_urls"
