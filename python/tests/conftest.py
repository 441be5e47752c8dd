"""Fixtures: the `alias` binary the package is checked against."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _binary() -> str:
    env = os.environ.get("ALIAS_BIN")
    if env:
        return env
    for profile in ("debug", "release"):
        p = ROOT / "target" / profile / "alias"
        if p.exists():
            return str(p)
    found = shutil.which("aliasing")
    if found:
        return found
    pytest.exit("no `alias` binary: build it (cargo build -p aliasing-cli) or set ALIAS_BIN", 2)


class Cli:
    """Runs the `alias` binary."""

    def __init__(self, path: str) -> None:
        self.path = path

    def run(self, *argv: str, check: bool = True) -> subprocess.CompletedProcess:
        p = subprocess.run(
            [self.path, *argv], capture_output=True, text=True, stdin=subprocess.DEVNULL
        )
        if check and p.returncode != 0:
            raise AssertionError(f"alias {' '.join(argv)} failed: {p.stderr}")
        return p

    def json(self, *argv: str):
        return json.loads(self.run(*argv, "--format", "json").stdout)

    def error(self, *argv: str) -> str:
        """The binary's one-line error for `argv` (its exit code must be 2)."""
        p = self.run(*argv, check=False)
        assert p.returncode == 2, (p.returncode, p.stdout, p.stderr)
        lines = p.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: "), p.stderr
        return lines[0][len("error: ") :]


@pytest.fixture(scope="session")
def cli() -> Cli:
    return Cli(_binary())
