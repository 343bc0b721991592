from __future__ import annotations

import uuid

import pytest
from django.test import Client
from rest_framework.test import APIClient

from tests.factories import make_user


@pytest.fixture(autouse=True)
def isolated_cache(settings):
    """Each test gets its own cache key space: log-in throttling counts live in the cache, and the
    Redis cache is shared by parallel test workers."""
    caches = {name: dict(config) for name, config in settings.CACHES.items()}
    for config in caches.values():
        config["KEY_PREFIX"] = f"test-{uuid.uuid4().hex}"
    settings.CACHES = caches


@pytest.fixture(autouse=True)
def isolated_channel_layer(settings):
    """A fresh channel layer for each test, with its own key prefix on Redis. Group names come from
    ids, and every parallel worker's test database starts its ids at 1, so without a prefix one
    worker's sockets would receive the other's messages. A fresh layer also keeps channels-redis'
    asyncio locks from being shared between the event loops of different async tests (changing
    CHANNEL_LAYERS makes Channels drop its cached layers)."""
    settings.CHANNEL_LAYERS = {
        name: {**config, "CONFIG": {**config.get("CONFIG", {}), "prefix": f"test{uuid.uuid4().hex}"}}
        if "Redis" in config["BACKEND"] else dict(config)
        for name, config in settings.CHANNEL_LAYERS.items()
    }


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    """PBKDF2 costs ~0.3 s a user by design; tests create hundreds of users."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def api() -> APIClient:
    return APIClient()


@pytest.fixture
def user(db):
    return make_user()


@pytest.fixture
def logged_in(db, user) -> Client:
    client = Client()
    client.force_login(user)
    return client
