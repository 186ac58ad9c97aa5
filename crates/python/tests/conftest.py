"""Shared fixtures: the repository, the command-line tool to compare with, scratch tables."""

import json
import os
import pathlib
import subprocess

import pytest

REPOSITORY = pathlib.Path(__file__).resolve().parents[3]


@pytest.fixture(scope="session")
def endgame_bin() -> pathlib.Path:
    """The ``endgame`` binary whose ``--json`` output the module must match: ``$ENDGAME_BIN``
    (``.ci/run`` sets it; a missing file then fails), else target/{release,debug}/endgame."""
    given = os.environ.get("ENDGAME_BIN")
    if given:
        path = pathlib.Path(given)
        assert path.is_file(), f"ENDGAME_BIN={given} does not exist"
        return path
    for profile in ("release", "debug"):
        path = REPOSITORY / "target" / profile / "endgame"
        if path.is_file():
            return path
    pytest.skip("no endgame binary: build it with `cargo build -p endgame` or set ENDGAME_BIN")


@pytest.fixture
def cli(endgame_bin, tmp_path):
    """Runs the command line; returns (exit status, parsed stdout JSON or text, stderr)."""

    def run(*args: str):
        done = subprocess.run(
            [str(endgame_bin), *args],
            capture_output=True,
            text=True,
            env={**os.environ, "ENDGAME_TB_DIR": str(tmp_path / "default")},
            check=False,
        )
        out = done.stdout
        if done.returncode == 0 and "--json" in args:
            out = json.loads(out)
        return done.returncode, out, done.stderr.strip()

    return run
