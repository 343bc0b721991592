"""The site's log-in backend: Django's ModelBackend, with the account read on every request by a query
compiled once per process (westeros/compiled.py, issue 27).

A logged-in page reads its user by id on every request; building that query with the ORM cost more CPU
than running it. Sessions made before this backend name Django's ModelBackend, which stays listed
after it (settings.AUTHENTICATION_BACKENDS) so that they still read their user; it is never asked to
log anyone in: this backend's refusal is final (PermissionDenied ends Django's authenticate()), so a
wrong password is hashed once, not once per backend."""
from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.core.exceptions import PermissionDenied

from westeros import compiled

PATH = "accounts.backends.AccountBackend"


class AccountBackend(ModelBackend):
    def authenticate(self, request, username=None, password=None, **kwargs):
        user = super().authenticate(request, username=username, password=password, **kwargs)
        if user is None:
            raise PermissionDenied  # no other backend tries again
        return user

    def get_user(self, user_id):
        if not isinstance(user_id, int) or isinstance(user_id, bool):
            return None
        found = compiled.models("accounts:user-by-id", _user_query, user_id=user_id)
        user = found[0] if found else None
        return user if user is not None and self.user_can_authenticate(user) else None


def _user_query(user_id: int):
    return get_user_model()._default_manager.filter(pk=user_id)
