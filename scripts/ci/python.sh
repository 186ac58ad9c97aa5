#!/usr/bin/env bash
# The Python module: `pip install ./crates/python` into a virtual environment (maturin, the
# build backend, builds the extension in release; pip fetches maturin and pytest from PyPI
# the first time), then its pytest suite, which compares the module's answers with the
# command line's JSON (ENDGAME_BIN: the binary `cargo test --workspace` built).
set -euo pipefail
cd "$(dirname "$0")/../.."
venv=target/python-venv
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
fi
"$venv/bin/python" -m pip install -q --disable-pip-version-check pytest
"$venv/bin/python" -m pip install -q --disable-pip-version-check ./crates/python
ENDGAME_BIN="${ENDGAME_BIN:-$PWD/target/debug/endgame}" "$venv/bin/python" -m pytest -q -p no:cacheprovider crates/python/tests
