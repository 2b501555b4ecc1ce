"""Regenerates the partner client (clients/python) from openapi.yaml: `make client`."""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

CLIENTS = Path(__file__).resolve().parent
REPO_ROOT = CLIENTS.parent
SPEC = REPO_ROOT / "openapi.yaml"
OUTPUT = CLIENTS / "python"
# What an install leaves in the client's folder; never part of the generated code.
LOCAL_ONLY = ("*.egg-info", "__pycache__", "build", "dist")


def generator() -> str:
    beside_python = Path(sys.executable).with_name("openapi-python-client")
    found = str(beside_python) if beside_python.exists() else shutil.which("openapi-python-client")
    if not found:
        raise SystemExit("openapi-python-client is not installed: make install (the dev extra)")
    return found


def generate(output: Path) -> None:
    """Writes the client into `output` (which must not exist); any generator warning fails."""
    # Any meta type but none or setup writes pyproject.toml, from clients/templates here.
    result = subprocess.run(
        [generator(), "generate", "--path", str(SPEC), "--meta", "pdm",
         "--config", str(CLIENTS / "generator.yaml"),
         "--custom-template-path", str(CLIENTS / "templates"),
         "--output-path", str(output), "--fail-on-warning"],
        check=False, capture_output=True, text=True, timeout=300)
    if result.returncode != 0:
        raise SystemExit(f"openapi.yaml does not make a client:\n{result.stdout}\n{result.stderr}")


def generated_files(root: Path) -> dict[str, bytes]:
    """The generated files under root by relative path, without what an install added."""
    out = {}
    for path in sorted(root.rglob("*")):
        relative = path.relative_to(root)
        if path.is_file() and not any(part_matches(p) for p in relative.parts):
            out[relative.as_posix()] = path.read_bytes()
    return out


def part_matches(part: str) -> bool:
    return any(Path(part).match(pattern) for pattern in LOCAL_ONLY)


def replace(target: Path) -> None:
    """Generates into a scratch folder, then makes target hold exactly those files.

    What an install left there (the egg-info of an editable install) stays, so the project's
    .venv keeps working; files the spec no longer makes are removed.
    """
    with tempfile.TemporaryDirectory(prefix="client-") as scratch:
        fresh = Path(scratch) / "python"
        generate(fresh)
        new = generated_files(fresh)
        if target.exists():
            for relative in set(generated_files(target)) - set(new):
                (target / relative).unlink()
        for relative, content in new.items():
            path = target / relative
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(content)
        for folder in sorted((p for p in target.rglob("*") if p.is_dir()), reverse=True):
            if not any(folder.iterdir()):
                folder.rmdir()
    shown = target.relative_to(REPO_ROOT) if target.is_relative_to(REPO_ROOT) else target
    print(f"{shown}: {len(new)} files from {SPEC.name}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--output", type=Path, default=OUTPUT,
                        help="folder to write (default clients/python)")
    replace(parser.parse_args().output.resolve())


if __name__ == "__main__":
    main()
