"""The settings of benchmarks/pages.py's server: the site's own, plus the middleware that times each
request inside Django and counts its queries (Server-Timing and X-Bench-Queries headers). Never used
by the site itself."""
from westeros.settings import *  # noqa: F403
from westeros.settings import MIDDLEWARE

MIDDLEWARE = ["benchmarks.pages.ServerTiming", *MIDDLEWARE]
