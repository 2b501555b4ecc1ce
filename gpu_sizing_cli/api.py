"""The generated client set up for the command line; its answers as values or one-line errors."""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version
from types import ModuleType
from typing import Any

import click
import httpx
from gpu_sizing_client import AuthenticatedClient
from gpu_sizing_client.types import Response

from gpu_sizing_cli.problems import Flags, from_body
from gpu_sizing_cli.settings import ENV_KEY, Settings
from gpu_sizing_cli.transport import RetryingTransport

# The API answers a long sizing within this when asked to wait; a stuck connection fails first.
TIMEOUT = httpx.Timeout(120.0, connect=5.0)


class ApiError(click.ClickException):
    """The API refused the call: its problem document, on one line."""

    exit_code = 1


class Unreachable(click.ClickException):
    """No answer from the server, retries included."""

    exit_code = 3


def package_version(name: str) -> str:
    try:
        return version(name)
    except PackageNotFoundError:
        return "unknown"


def is_publishable(key: str | None) -> bool:
    return bool(key) and key.startswith("pk_")


# The option of the commands that read a sizing a publishable key made.
CLIENT_SECRET = click.option(
    "--client-secret", metavar="CS", help="With a publishable key (pk_): the client secret the "
    "sizing's creation returned (`gpu-sizing size` prints it); a secret key needs none.")


def secret(client_secret: str | None) -> dict[str, str]:
    """The Client-Secret argument of a generated call, left out when there is none."""
    return {} if not client_secret else {"client_secret": client_secret}


class Api:
    """One server and key for a command's calls, connected on first use."""

    def __init__(self, settings: Settings, attempts: int = 5):
        self.settings = settings
        self.attempts = attempts
        self._client: AuthenticatedClient | None = None

    @property
    def client(self) -> AuthenticatedClient:
        if self._client is None:
            if not self.settings.key:
                raise click.ClickException(
                    f"no API key: run `gpu-sizing login`, or set {ENV_KEY}, or give --key")
            transport = RetryingTransport(httpx.HTTPTransport(), attempts=self.attempts,
                                          note=lambda line: click.echo(f"note: {line}", err=True))
            agent = (f"gpu-sizing/{package_version('gpu-sizing')} "
                     f"gpu-sizing-client/{package_version('gpu-sizing-client')}")
            self._client = AuthenticatedClient(
                base_url=self.settings.url, token=self.settings.key, timeout=TIMEOUT,
                headers={"User-Agent": agent}, httpx_args={"transport": transport})
        return self._client

    def call(self, operation: ModuleType, flags: Flags | None = None, **arguments: Any) -> Response:
        """`operation.sync_detailed` with this client; an error answer raises ApiError."""
        try:
            response = operation.sync_detailed(client=self.client, **arguments)
        except httpx.TransportError as exc:
            raise Unreachable(f"cannot reach {self.settings.url} ({exc or type(exc).__name__}) "
                              f"after {self.attempts} attempts; is the server running there "
                              "(--url, GPU_SIZING_URL)?") from None
        if response.status_code >= 400:
            raise ApiError(from_body(response.status_code, response.content, flags or {}))
        return response

    @property
    def publishable(self) -> bool:
        """A `pk_` key reads back what it made only with the object's client secret."""
        return is_publishable(self.settings.key)

    def close(self) -> None:
        if self._client is not None:
            self._client.get_httpx_client().close()
