#!/usr/bin/env bash
# The Python module's pytest suite, which compares the module's answers with the command
# line's JSON (ENDGAME_BIN: the binary `cargo test --workspace` built).
#
# CI (no argument): the module built in the dev profile over the libraries `cargo test
# --workspace` already built (target/debug/libendgame_python.so, an extension module: see
# .cargo/config.toml; only the module's crate and PyO3 compile), copied with the package's
# Python files into a virtual environment in target/python-venv; nothing downloaded but pytest.
#
# `--pip`: the user's route instead, `pip install ./crates/python` (maturin, fetched from PyPI,
# builds the extension in release: minutes of compiling), then the same tests. Not in CI.
set -euo pipefail
cd "$(dirname "$0")/../.."
venv=target/python-venv
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
fi
py="$venv/bin/python"
"$py" -c "import pytest" 2> /dev/null || "$py" -m pip install -q --disable-pip-version-check pytest

site=$("$py" -c "import sysconfig; print(sysconfig.get_path('purelib'))")
rm -rf "$site/endgame" "$site"/endgame-*.dist-info
if [ "${1:-}" = "--pip" ]; then
    "$py" -m pip install -q --disable-pip-version-check ./crates/python
else
    # After `cargo test --workspace`, this compiles the module only (the same dev profile; the
    # same features, since the examples bring in the dev-dependencies as the tests do); alone,
    # it builds what the tests need (the module and the `endgame` binary).
    cargo build -q --workspace --bins --lib --examples
    suffix=$("$py" -c "import sysconfig; print(sysconfig.get_config_var('EXT_SUFFIX'))")
    cp -r crates/python/python/endgame "$site/endgame"
    cp target/debug/libendgame_python.so "$site/endgame/_endgame$suffix"
fi
ENDGAME_BIN="${ENDGAME_BIN:-$PWD/target/debug/endgame}" "$py" -m pytest -q -p no:cacheprovider crates/python/tests
