"""The settings of the browser tests' live server and its stager (tests/browser/conftest.py): the
site's own, with a fast password hasher. PBKDF2 costs about 0.25 s of CPU a password by design, and
the browser tests create and log in hundreds of users (each staging's players, each log-in); the
in-process tests do the same (tests/conftest.py, fast_password_hashing)."""
from westeros.settings import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
