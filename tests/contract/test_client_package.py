"""`pip install clients/python` into a fresh virtual environment, then its README's partner flow.

Offline: what the client needs to build and run (setuptools, httpx, attrs and theirs) is lent to
the new environment from the project's, one folder of just those distributions on a .pth line,
so pip sees them installed and the client sees nothing else of the project. (A partner's pip
fetches the same from the package index.)
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
from importlib.metadata import PackageNotFoundError, distribution
from pathlib import Path

from packaging.requirements import Requirement

from service.config import REPO_ROOT

CLIENT = REPO_ROOT / "clients" / "python"


def requirements_closure(names: list[str]) -> set[str]:
    """The distributions these requirements need, theirs included, as installed here."""
    seen: set[str] = set()
    pending = list(names)
    while pending:
        requirement = Requirement(pending.pop())
        if requirement.marker and not requirement.marker.evaluate({"extra": ""}):
            continue
        try:
            dist = distribution(requirement.name)
        except PackageNotFoundError:
            continue
        if dist.metadata["Name"].lower() in seen:
            continue
        seen.add(dist.metadata["Name"].lower())
        pending.extend(dist.requires or [])
    return seen


def lend(names: set[str], folder: Path) -> None:
    """Links each distribution's top-level files and its metadata folder into `folder`."""
    folder.mkdir()
    for name in names:
        dist = distribution(name)
        tops = {Path(str(f)).parts[0] for f in dist.files or []
                if not str(f).startswith("..") and "__pycache__" not in str(f)}
        for top in tops:
            source = Path(dist.locate_file(top))
            if source.exists() and not (folder / top).exists():
                (folder / top).symlink_to(source)


def test_pip_installs_the_client_in_a_fresh_venv_and_the_readme_flow_runs(live_api, tmp_path):
    venv = tmp_path / "partner-venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    python = venv / "bin" / "python"
    site = Path(subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
        capture_output=True, text=True, check=True).stdout.strip())
    pyproject = tomllib.loads((CLIENT / "pyproject.toml").read_text())
    needed = pyproject["build-system"]["requires"] + pyproject["project"]["dependencies"]
    lend(requirements_closure(needed), tmp_path / "lent")
    (site / "lent.pth").write_text(str(tmp_path / "lent") + "\n")
    # The venv's own setuptools (older on some Pythons) would come first on sys.path.
    subprocess.run([str(python), "-m", "pip", "uninstall", "--yes", "--quiet", "setuptools"],
                   check=True, timeout=120, capture_output=True)

    # A copy, so that the build leaves nothing in the repository; this machine's pip settings
    # are left out, so only the client's own files and the lent dependencies are used.
    source = tmp_path / "client-source"
    shutil.copytree(CLIENT, source, ignore=shutil.ignore_patterns("*.egg-info", "__pycache__"))
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PIP_", "PYTHON"))}
    env["PIP_CONFIG_FILE"] = os.devnull
    installed = subprocess.run(
        [str(python), "-m", "pip", "install", "--no-index", "--no-build-isolation", str(source)],
        env=env, capture_output=True, text=True, timeout=600, check=False)
    assert installed.returncode == 0, installed.stdout + installed.stderr
    where = subprocess.run([str(python), "-c", ("import gpu_sizing_client, importlib.util as u; "
                            "print(gpu_sizing_client.__file__); print(u.find_spec('service'))")],
                           env=env, capture_output=True, text=True, check=True, cwd=tmp_path)
    module_file, service = where.stdout.split()
    assert Path(module_file).is_relative_to(site) and service == "None"

    readme = (CLIENT / "README.md").read_text()
    flow = re.findall(r"```python\n(.*?)```", readme, re.DOTALL)
    assert len(flow) == 1
    (tmp_path / "partner_flow.py").write_text(flow[0])
    ran = subprocess.run([str(python), "partner_flow.py"], cwd=tmp_path, capture_output=True,
                         text=True, timeout=300, check=False,
                         env={**env, "GPU_SIZING_URL": live_api.url, "GPU_SIZING_KEY": live_api.key})
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert re.search(r"^1\. \d+ x \S+ on \S+: \d+% scaling efficiency", ran.stdout, re.MULTILINE), ran.stdout
    number = re.search(r"saved (Q-\d{4}-\d+)\.pdf", ran.stdout).group(1)
    assert (tmp_path / f"{number}.pdf").read_bytes().startswith(b"%PDF")
