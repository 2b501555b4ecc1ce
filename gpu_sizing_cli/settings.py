"""Where the command finds its server and key: flags, then the environment, then its config file."""

from __future__ import annotations

import json
import os
import stat
import tempfile
import tomllib
from dataclasses import dataclass
from pathlib import Path

import click

DEFAULT_URL = "http://127.0.0.1:8000"
ENV_URL = "GPU_SIZING_URL"
ENV_KEY = "GPU_SIZING_KEY"
ENV_CONFIG = "GPU_SIZING_CONFIG"
# A key's first 16 characters (sk_live_3f9a1c2e) are its public prefix, the one
# `flask accounts revoke-key` takes; the rest is the secret and is never printed.
VISIBLE_PREFIX = 16


@dataclass(frozen=True)
class Settings:
    url: str
    key: str | None
    url_from: str
    key_from: str


def config_path() -> Path:
    if os.environ.get(ENV_CONFIG):
        return Path(os.environ[ENV_CONFIG]).expanduser()
    base = os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config"
    return Path(base) / "gpu-sizing" / "config.toml"


def masked(key: str | None) -> str:
    return f"{key[:VISIBLE_PREFIX]}..." if key else "none"


def read_config(path: Path) -> dict[str, str]:
    if not path.exists():
        return {}
    mode = path.stat().st_mode
    if mode & (stat.S_IRWXG | stat.S_IRWXO):
        click.echo(f"warning: {path} holds an API key and is readable by others; "
                   f"chmod 600 {path}", err=True)
    try:
        values = tomllib.loads(path.read_text())
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise click.ClickException(f"cannot read {path}: {exc}") from None
    return {k: v for k, v in values.items() if k in ("url", "key") and isinstance(v, str)}


def write_config(path: Path, values: dict[str, str]) -> None:
    """Writes the file readable by its owner only (0600, folder 0700), replacing it whole."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    # TOML basic strings take JSON's escapes, so json.dumps quotes any value safely.
    text = "".join(f"{name} = {json.dumps(value)}\n" for name, value in sorted(values.items()))
    descriptor, scratch = tempfile.mkstemp(prefix=".config-", dir=path.parent)
    try:
        os.fchmod(descriptor, 0o600)
        with os.fdopen(descriptor, "w") as handle:
            handle.write(text)
        os.replace(scratch, path)
    except BaseException:
        Path(scratch).unlink(missing_ok=True)
        raise


def resolve(url_flag: str | None, key_flag: str | None) -> Settings:
    path = config_path()
    stored = read_config(path)
    url, url_from = first((url_flag, "--url"), (os.environ.get(ENV_URL), ENV_URL),
                          (stored.get("url"), str(path)), (DEFAULT_URL, "default"))
    key, key_from = first((key_flag, "--key"), (os.environ.get(ENV_KEY), ENV_KEY),
                          (stored.get("key"), str(path)), (None, "nowhere"))
    return Settings(url=url.rstrip("/"), key=key, url_from=url_from, key_from=key_from)


def first(*candidates: tuple[str | None, str]) -> tuple:
    for value, source in candidates:
        if value:
            return value, source
    return candidates[-1]
