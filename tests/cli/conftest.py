"""The `gpu-sizing` console script as a person runs it: a process, against a live server."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

GPU_SIZING = Path(sys.executable).with_name("gpu-sizing")


@dataclass(frozen=True)
class Ran:
    code: int
    out: str
    err: str

    def error_lines(self) -> list[str]:
        return [line for line in self.err.splitlines() if line.startswith("Error:")]


def environment(home: Path, **extra: str) -> dict[str, str]:
    """The caller's environment without any gpu-sizing settings, a home of its own, wide tables."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GPU_SIZING_")}
    env.update(HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"), COLUMNS="240", **extra)
    return env


@pytest.fixture()
def gpu_sizing(live_api, tmp_path):
    """Runs the command against the live server with its key in the environment."""
    home = tmp_path / "home"
    home.mkdir()

    def run(*args: str, env: dict[str, str] | None = None, stdin: str | None = None,
            cwd: Path = tmp_path, timeout_s: float = 180) -> Ran:
        given = env if env is not None else environment(
            home, GPU_SIZING_URL=live_api.url, GPU_SIZING_KEY=live_api.key)
        done = subprocess.run([str(GPU_SIZING), *args], env=given, input=stdin, cwd=cwd,
                              capture_output=True, text=True, timeout=timeout_s, check=False)
        return Ran(done.returncode, done.stdout, done.stderr)

    run.home = home
    return run
