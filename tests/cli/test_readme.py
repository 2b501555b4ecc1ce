"""The README's `gpu-sizing size` sample is what its command prints against the current build."""

from __future__ import annotations

import re
import shlex
from itertools import pairwise

from tests.conftest import REPO_ROOT

# A sizing's id and a date (stock arrival counts from today) differ between runs; nothing else.
VARYING = [(re.compile(r"[0-9a-f]{8}(?:-[0-9a-f]{4}){3}-[0-9a-f]{12}"), "<sizing id>"),
           (re.compile(r"\b\d{4}-\d{2}-\d{2}\b"), "<date>")]
GAP = "..."


def normalised(line: str) -> str:
    for pattern, placeholder in VARYING:
        line = pattern.sub(placeholder, line)
    return line.rstrip()


def readme_sample() -> tuple[list[str], list[list[str]]]:
    """The README's `gpu-sizing size` command, and its sample output as runs of whole lines
    between the `...` that stand for lines left out."""
    blocks = re.findall(r"```(\w*)\n(.*?)```", (REPO_ROOT / "README.md").read_text(), re.DOTALL)
    for (kind, command), (next_kind, output) in pairwise(blocks):
        if kind == "sh" and " size " in command and next_kind == "":
            break
    else:
        raise AssertionError("no `gpu-sizing size` command followed by its output in README.md")
    (line,) = command.strip().splitlines()
    runs: list[list[str]] = [[]]
    for shown in output.splitlines():
        if shown == GAP:
            runs.append([])
        else:
            runs[-1].append(normalised(shown))
    return shlex.split(line), [run for run in runs if run]


def test_the_readme_size_sample_is_what_the_command_prints(gpu_sizing):
    argv, runs = readme_sample()
    assert argv[0] == ".venv/bin/gpu-sizing" and argv[1] == "size"
    ran = gpu_sizing(*argv[1:])
    assert ran.code == 0, ran.err
    printed = [normalised(line) for line in ran.out.splitlines()]
    # Each run of the sample is a run of the output, in the sample's order: regenerate the
    # sample from a real run (the README says how it was made) when the model's numbers move.
    at = 0
    for run in runs:
        found = next((i for i in range(at, len(printed) - len(run) + 1)
                      if printed[i:i + len(run)] == run), None)
        assert found is not None, ("README sample not in the output:\n" + "\n".join(run)
                                   + "\n--- printed ---\n" + "\n".join(printed[at:]))
        at = found + len(run)
