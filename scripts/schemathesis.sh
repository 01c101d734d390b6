#!/usr/bin/env bash
# Fuzzes the HTTP API against its own OpenAPI document with schemathesis.
#
# It installs a pinned schemathesis into a Python venv under the cargo target
# folder, builds the release binary, starts `nimjudge serve` on a free
# loopback port with a scratch database and the repository's problems,
# creates an admin token, and runs schemathesis against the served
# /api/openapi.json with every check enabled and enough examples per operation
# for well over 1,000 generated requests. It prints schemathesis's summary,
# stops the daemon and exits non-zero when schemathesis found a failure or the
# daemon logged an error or a panic.
#
# No check is disabled. scripts/schemathesis.toml lets positive_data_acceptance
# take 422 for two operations only, POST /api/submissions and
# POST /api/problems/{id}/testcases: whether their bodies are valid depends on
# which problems and testcases exist and on each problem's own input format,
# which JSON Schema cannot express (the file says more).
#
# Needs python3 (with venv) and network access to PyPI on the first run; it is
# not part of `cargo test` for that reason.
#
# Usage, from any folder:
#   scripts/schemathesis.sh [extra schemathesis run options, e.g. --seed 1]
# Environment:
#   SCHEMATHESIS_MAX_EXAMPLES  test cases per operation and phase (default 100)
#   CARGO_TARGET_DIR           honoured for the binary and the venv
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)

schemathesis_version=4.32.5
max_examples=${SCHEMATHESIS_MAX_EXAMPLES:-100}
target_dir=${CARGO_TARGET_DIR:-$repo/target}
venv=$target_dir/schemathesis-venv

if [[ ! -x $venv/bin/schemathesis ]] ||
  [[ $("$venv/bin/schemathesis" --version 2>/dev/null) != *" $schemathesis_version" ]]; then
  echo "== installing schemathesis $schemathesis_version into $venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "schemathesis==$schemathesis_version"
fi

echo "== cargo build --release --locked"
cargo build --release --locked
binary=$target_dir/release/nimjudge

scratch=$(mktemp -d)
daemon_pid=""
stop_daemon() {
  if [[ -n $daemon_pid ]] && kill -0 "$daemon_pid" 2>/dev/null; then
    kill -TERM "$daemon_pid"
    wait "$daemon_pid" || true
  fi
  daemon_pid=""
}
cleanup() {
  stop_daemon
  rm -rf "$scratch"
}
trap cleanup EXIT

port=$("$venv/bin/python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
base=http://127.0.0.1:$port
export NIMJUDGE_SERVER__BIND=127.0.0.1:$port
export NIMJUDGE_DATABASE__URL=sqlite://$scratch/judge.db
export NIMJUDGE_CATALOG__PROBLEMS_DIR=$repo/problems

echo "== starting nimjudge serve on $base (log: daemon.log in the scratch folder)"
(cd "$scratch" && exec "$binary" serve >"$scratch/daemon.log" 2>&1) &
daemon_pid=$!
for _ in $(seq 1 100); do
  if curl --silent --fail "$base/api/health" >/dev/null 2>&1; then
    break
  fi
  if ! kill -0 "$daemon_pid" 2>/dev/null; then
    cat "$scratch/daemon.log" >&2
    echo "nimjudge serve exited before it answered" >&2
    exit 1
  fi
  sleep 0.1
done
curl --silent --fail "$base/api/health" >/dev/null

# The token goes into the database serve created and migrated.
token=$(cd "$scratch" && "$binary" token create --name schemathesis --role admin)

echo "== schemathesis run: every check, $max_examples examples per operation"
status=0
"$venv/bin/schemathesis" --config-file scripts/schemathesis.toml \
  run "$base/api/openapi.json" \
  --checks all \
  --max-examples "$max_examples" \
  --header "Authorization: Bearer $token" \
  --generation-database none \
  --no-color \
  "$@" || status=$?

stop_daemon
if grep -q -E 'panicked|ERROR' "$scratch/daemon.log"; then
  echo "== the daemon logged errors:" >&2
  grep -E 'panicked|ERROR' "$scratch/daemon.log" >&2
  status=1
fi
if [[ $status -ne 0 ]]; then
  echo "schemathesis found failures (exit $status)" >&2
fi
exit "$status"
