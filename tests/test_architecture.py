"""Imports point one way (tasks -> service -> catalog -> sizing) and no two modules need each other."""

from __future__ import annotations

import ast
from pathlib import Path

from service.config import REPO_ROOT

LAYERS = {"sizing": 0, "catalog": 1, "service": 2, "tasks": 3}
FRAMEWORKS = {"flask", "flask_smorest", "celery", "sqlalchemy", "marshmallow", "werkzeug"}


def modules() -> dict[str, Path]:
    out = {}
    for package in LAYERS:
        for path in (REPO_ROOT / package).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            name = ".".join(path.relative_to(REPO_ROOT).with_suffix("").parts)
            out[name.removesuffix(".__init__")] = path
    return out


def imports(path: Path, known: dict[str, Path] | None = None) -> set[str]:
    """Modules imported at the top level or inside functions (both count: a cycle is a cycle).

    `from package import module` names the module, not the package.
    """
    known = known or {}
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                sub = f"{node.module}.{alias.name}"
                found.add(sub if sub in known else node.module)
    return found


def test_imports_point_down_and_the_core_knows_no_framework():
    for name, path in modules().items():
        own = LAYERS[name.split(".")[0]]
        for target in imports(path):
            top = target.split(".")[0]
            assert LAYERS.get(top, -1) <= own, f"{name} imports {target}, a layer above it"
            if own == LAYERS["sizing"]:
                assert top not in FRAMEWORKS, f"{name} imports {target}"


def test_no_module_imports_itself_through_others():
    known = modules()
    graph = {name: {t for t in imports(path, known) if t in known and t != name}
             for name, path in known.items()}
    state: dict[str, int] = {}

    def visit(name: str, trail: list[str]) -> None:
        state[name] = 1
        for target in graph[name]:
            if state.get(target) == 1:
                cycle = trail[trail.index(target):] + [target] if target in trail else [name, target]
                raise AssertionError(f"import cycle: {' -> '.join(cycle)}")
            if not state.get(target):
                visit(target, [*trail, target])
        state[name] = 2

    for name in sorted(graph):
        if not state.get(name):
            visit(name, [name])


# The clients of the API: the partner client (generated) and the command line built on it. They
# speak HTTP only, so they import nothing of the service's packages, and the command line
# reaches the API through the generated client alone.
CLIENT_PACKAGES = {"gpu_sizing_cli": REPO_ROOT / "gpu_sizing_cli",
                   "gpu_sizing_client": REPO_ROOT / "clients" / "python" / "gpu_sizing_client"}
HTTP_LIBRARIES = {"httpx", "requests", "urllib3", "http", "aiohttp"}


def test_the_clients_import_nothing_of_the_service():
    for package, folder in CLIENT_PACKAGES.items():
        paths = list(folder.rglob("*.py"))
        assert paths, f"no modules under {folder}"
        for path in paths:
            for target in imports(path):
                top = target.split(".")[0]
                assert top not in LAYERS, f"{path.relative_to(REPO_ROOT)} imports {target}"
                assert top != "gpu_sizing_cli" or package == "gpu_sizing_cli", (
                    f"{path.relative_to(REPO_ROOT)} imports the command line")


def test_the_command_line_talks_http_only_through_its_transport_and_the_client():
    for path in CLIENT_PACKAGES["gpu_sizing_cli"].rglob("*.py"):
        direct = {t for t in imports(path) if t.split(".")[0] in HTTP_LIBRARIES}
        if path.name not in ("transport.py", "api.py"):
            assert not direct, f"{path.name} makes its own HTTP calls: {direct}"
