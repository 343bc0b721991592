"""Static files storage with DEBUG off: WhiteNoise's compressed manifest storage (hashed names, so
browsers may cache each file forever; gzip and Brotli copies made once by `collectstatic`)."""
from __future__ import annotations

import logging

from whitenoise.storage import CompressedManifestStaticFilesStorage

log = logging.getLogger(__name__)


class StaticFilesStorage(CompressedManifestStaticFilesStorage):
    """Until `collectstatic` has written the manifest (a checkout, the test suite), `{% static %}`
    gives the plain names instead of failing every page with "Missing staticfiles manifest entry";
    a server in that state serves no static file, so it says so once in its log."""

    def load_manifest(self):
        self.collected = self.read_manifest() is not None
        return super().load_manifest()

    def stored_name(self, name):
        if not self.collected:
            if not getattr(self, "_warned", False):
                self._warned = True
                log.warning("static files are not collected (no %s in %s): run manage.py collectstatic",
                            self.manifest_name, self.location)
            return name
        return super().stored_name(name)
