"""Where the test suite finds its real PostgreSQL and Redis servers."""

import os

POSTGRES_HOST = os.environ.get("TEST_POSTGRES_HOST", "127.0.0.1")
POSTGRES_PORT = int(os.environ.get("TEST_POSTGRES_PORT", "5432"))
POSTGRES_ADMIN_URL = os.environ.get(
    "TEST_POSTGRES_URL", f"postgresql+psycopg://postgres@{POSTGRES_HOST}:{POSTGRES_PORT}/test")
REDIS_HOST = os.environ.get("TEST_REDIS_HOST", "127.0.0.1")
REDIS_PORT = int(os.environ.get("TEST_REDIS_PORT", "6379"))
