"""A live API server on a fresh SQLite database, and headless Debian Chromium to drive the page."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from catalog.loader import load_files
from service import accounts, create_app, db, migrate
from service.config import REPO_ROOT, Config
from tests.faults.servers import LOAD_TEST_ENV

CHROMIUM = Path(os.environ.get("CHROMIUM_BINARY", "/usr/bin/chromium"))
CHROMEDRIVER = Path(os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver"))
ARTIFACTS = REPO_ROOT / "test-artifacts" / "site"
INSTALL_HINT = ("install Debian's chromium and chromium-driver: `bash scripts/install-browser.sh` "
                "(which `make install` runs), or `apt-get update && apt-get install -y chromium "
                "chromium-driver`")
# Environment that would turn the server into something other than the embedded app under test.
SERVER_ENV_DROP = ("REDIS_URL", "TASKS_EAGER", "CORS_ORIGINS", "CATALOG_DIR", "MAX_BODY_BYTES",
                   *LOAD_TEST_ENV)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_for_http(url: str, server: subprocess.Popen, log_path: Path, timeout_s: float = 30) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"the API server exited with {server.returncode}:\n"
                               f"{log_path.read_text(errors='replace')[-3000:]}")
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"the API server did not answer {url} within {timeout_s:.0f} s:\n"
                       f"{log_path.read_text(errors='replace')[-3000:]}")


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS


@pytest.fixture(scope="session")
def live_server(tmp_path_factory):
    """gunicorn serving the app on a free loopback port: fresh database, catalog, publishable key."""
    workdir = tmp_path_factory.mktemp("site-server")
    database_url = f"sqlite:///{workdir / 'site.sqlite3'}"
    migrate.upgrade(database_url)
    setup_app = create_app(Config(database_url=database_url, testing=True))
    with setup_app.app_context():
        session = db.session()
        load_files(session, REPO_ROOT / "catalog" / "data")
        account = accounts.create_account(session, "website (browser test)")
        _, key = accounts.create_key(session, account.id, kind="publishable", name="sizing page")
        # The provider's sales engineers: a secret key of the page's account sees what it made.
        _, sales_key = accounts.create_key(session, account.id, kind="secret", name="sales")
        db.engine().dispose()

    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in SERVER_ENV_DROP}
    env.update(DATABASE_URL=database_url, SITE_PUBLISHABLE_KEY=key)
    log_path = workdir / "server.log"
    gunicorn = Path(sys.executable).parent / "gunicorn"
    with open(log_path, "wb") as log:
        server = subprocess.Popen(
            [str(gunicorn), "-c", "python:service.gunicorn_conf", "--bind", f"127.0.0.1:{port}",
             "--workers", "1", "--threads", "4", "--timeout", "120", "service:create_app()"],
            cwd=REPO_ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
            start_new_session=True)
    base_url = f"http://127.0.0.1:{port}"
    try:
        wait_for_http(base_url + "/site-config.json", server, log_path)
        yield {"url": base_url, "key": key, "sales_key": sales_key, "log": log_path}
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(timeout=5)


@pytest.fixture(scope="session")
def browser_paths():
    missing = [str(p) for p in (CHROMIUM, CHROMEDRIVER) if not (p.exists() and os.access(p, os.X_OK))]
    if missing:
        pytest.fail(f"the browser tests need Chromium and ChromeDriver, not found: "
                    f"{', '.join(missing)}; {INSTALL_HINT}", pytrace=False)
    try:
        from selenium import webdriver  # noqa: F401
    except ImportError:
        pytest.fail("the browser tests need the selenium package: `make install` (the dev extra)",
                    pytrace=False)
    return CHROMIUM, CHROMEDRIVER


@pytest.fixture()
def browser(browser_paths, tmp_path, monkeypatch):
    """A fresh headless Chromium profile per test, as the machine's probe ran it."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    chromium, chromedriver = browser_paths
    options = webdriver.ChromeOptions()
    options.binary_location = str(chromium)
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage", "--window-size=1280,900", "--force-device-scale-factor=1",
                 "--lang=en-US", f"--user-data-dir={tmp_path / 'profile'}"):
        options.add_argument(flag)
    # Never let Selenium look for a driver on the network: the path is given.
    monkeypatch.setenv("SE_OFFLINE", "true")
    driver = webdriver.Chrome(service=Service(executable_path=str(chromedriver),
                                              log_output=str(tmp_path / "chromedriver.log")),
                              options=options)
    driver.set_page_load_timeout(30)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(tmp_path / "profile", ignore_errors=True)
