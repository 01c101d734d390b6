#!/usr/bin/env bash
# The test command: installs what the tests need beyond cargo when it is
# missing, then runs every test.
#
# Program judging compiles and runs contestants' C++ and Python (and Rust,
# with the toolchain that builds nimjudge) inside the sandbox, and the tests
# judge programs in each language, so g++ and python3 must be installed.
# The web UI's tests (tests/web) drive real Chromium through chromedriver,
# so chromium and chromedriver must be installed too. The store's conformance
# suite and the API tests run on PostgreSQL as well, on a throwaway cluster
# this script starts (scripts/postgres-cluster.sh) and removes at the end,
# so the postgresql server package must be installed. Last, the multi-host
# test (scripts/multihost.py) runs hosts in network namespaces, with `ip`
# from iproute2, on the debug binary the tests built. All come from
# Debian's packages when missing; the OpenAPI document's validator
# (openapi-spec-validator) comes from PyPI. The exported Kattis packages are
# checked by problemtools' `verifyproblem` (from PyPI), and the 2025-09 ones
# by BAPCtools' `bt validate` (from PyPI); `verifyproblem` compiles each
# statement with LuaLaTeX and runs Python submissions with PyPy, as Kattis
# does: TeX Live's packages and pypy3 come from Debian. The sandbox needs root (namespaces,
# cgroups): run this as root. A test that lacks any of them fails and says
# why; none is skipped.
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
command -v g++ >/dev/null 2>&1 || missing+=(g++)
command -v python3 >/dev/null 2>&1 || missing+=(python3)
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v chromedriver >/dev/null 2>&1 || missing+=(chromium-driver)
compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null || missing+=(postgresql)
command -v ip >/dev/null 2>&1 || missing+=(iproute2)
command -v pypy3 >/dev/null 2>&1 || missing+=(pypy3)
# TeX Live without its recommendations (which pull in gigabytes).
tex=()
command -v lualatex >/dev/null 2>&1 ||
  tex+=(texlive-luatex texlive-latex-extra texlive-latex-recommended texlive-fonts-recommended
    texlive-plain-generic fonts-cmu tidy ghostscript dvisvgm)
if ((${#missing[@]} + ${#tex[@]})); then
  apt-get update -qq
fi
if ((${#missing[@]})); then
  echo "== installing ${missing[*]} from Debian's packages"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
fi
if ((${#tex[@]})); then
  echo "== installing ${tex[*]} from Debian's packages"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${tex[@]}"
fi
# The OpenAPI document is checked by a real validator, from PyPI.
if ! python3 -c 'import openapi_spec_validator' 2>/dev/null; then
  echo "== installing openapi-spec-validator from PyPI"
  python3 -m pip install -q openapi-spec-validator
fi
if ! command -v verifyproblem >/dev/null 2>&1; then
  echo "== installing problemtools from PyPI"
  python3 -m pip install -q problemtools
fi
# The 2025-09 packages' invalid inputs are checked by BAPCtools' `bt`.
if ! command -v bt >/dev/null 2>&1; then
  echo "== installing BAPCtools from PyPI"
  python3 -m pip install -q bapctools
fi
if [[ $(id -u) != 0 ]]; then
  echo "warning: not root: the sandbox and disk-full tests will fail, saying why" >&2
fi
g++ --version | head -1
python3 --version
# Debian's chromium wrapper prints shell noise on stderr for --version.
chromium --version 2>/dev/null
chromedriver --version
verifyproblem --version
bt --version | sed -n 1p

# The throwaway PostgreSQL cluster, removed however the tests end.
pg_dir=$(mktemp -d -t nimjudge-postgres-XXXXXX)
cleanup() {
  scripts/postgres-cluster.sh stop "$pg_dir" 2>/dev/null || true
  rm -rf "$pg_dir"
}
trap cleanup EXIT
NIMJUDGE_TEST_POSTGRES_URL=$(scripts/postgres-cluster.sh start "$pg_dir")
export NIMJUDGE_TEST_POSTGRES_URL
echo "== PostgreSQL test cluster: $NIMJUDGE_TEST_POSTGRES_URL"

# Tests that need root, PostgreSQL or Chromium are marked `#[ignore = "needs
# ..."]`, so a plain `cargo test` passes on a laptop without them (and lists
# them as ignored); here every one of them runs, and fails saying what is
# missing.
echo "== every test (fixtures on SQLite; the store's conformance cases on both)"
cargo test --locked "$@" -- --include-ignored
echo "== the API tests again, on PostgreSQL"
NIMJUDGE_TEST_BACKEND=postgres cargo test --locked --test api "$@" -- --include-ignored
echo "== the multi-host test: PostgreSQL, an API host and three worker hosts in network namespaces"
scripts/multihost.py --binary "${CARGO_TARGET_DIR:-target}/debug/nimjudge" --backlog 1000
