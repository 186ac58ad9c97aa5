#!/usr/bin/env bash
# The README's quick start as a user types it: `cargo run -- demo`, then `cargo test
# --workspace`, which must compile nothing the demo compiled (issue 40: it compiled 58 crates
# again, every endgame crate among them, because the other members and the dev-dependencies
# switch on more features of shared dependencies; crates/workspace-hack switches them on for
# the demo's build too). The tests are only built here (`--no-run`): `.ci/run` runs them next,
# over this build.
#
# It runs in the environment it is given: `.ci/run` gives it cargo's defaults, as a user has
# them (incremental compilation of the workspace's crates on; the steps after it reuse this
# build, under the same settings). Fails naming every crate compiled twice; prints what the
# second command compiled.
set -euo pipefail
cd "$(dirname "$0")/../.."
log=${CARGO_TARGET_DIR:-target}/quickstart
mkdir -p "$log"
cargo run --message-format=json-render-diagnostics -- demo > "$log/demo.jsonl"
cargo test --workspace --no-run --message-format=json-render-diagnostics > "$log/test.jsonl"
python3 - "$log/demo.jsonl" "$log/test.jsonl" << 'PYTHON'
import json, sys

def artifacts(path):
    """The compiler-artifact messages of a build (the demo's standard output is mixed in)."""
    with open(path) as f:
        for line in f:
            if line.startswith("{"):
                message = json.loads(line)
                if message.get("reason") == "compiler-artifact":
                    yield message

def unit(a):
    # A crate's library (or binary, build script, proc macro): built with other features or
    # over other dependencies it is compiled again under the same key, into other files.
    return (a["package_id"], a["target"]["name"], tuple(a["target"]["kind"]), a["profile"]["test"])

def name(a):
    return a["package_id"].rsplit("#", 1)[-1] + " (" + "/".join(a["target"]["kind"]) + ")"

demo = {}
for a in artifacts(sys.argv[1]):
    demo.setdefault(unit(a), set()).update(a["filenames"])
tests = list(artifacts(sys.argv[2]))
# Compiled again: rebuilt after the demo, or (in a target directory that holds older builds)
# taken from other files than the demo's, which a fresh checkout would compile.
again = [name(a) for a in tests
         if unit(a) in demo and (not a["fresh"] or not set(a["filenames"]) <= demo[unit(a)])]
compiled = [a for a in tests if not a["fresh"]]
new = sorted({a["package_id"].rsplit("#", 1)[-1] for a in compiled})
print(f"quick start: the demo's build has {len(demo)} units; the tests' build compiled "
      f"{len(compiled)} more, of {len(new)} packages: {' '.join(new) or '-'}")
if again:
    print(f"error: the tests' build compiled {len(again)} units the demo had built "
          f"(features of shared dependencies differ: see crates/workspace-hack/Cargo.toml): "
          + ", ".join(sorted(again)), file=sys.stderr)
    sys.exit(1)
PYTHON
