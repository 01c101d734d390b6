#!/usr/bin/env bash
# The test command: installs what the tests need beyond cargo when it is
# missing, then runs every test.
#
# Program judging compiles and runs contestants' C++ and Python (and Rust,
# with the toolchain that builds nimjudge) inside the sandbox, and the tests
# judge programs in each language, so g++ and python3 must be installed;
# they come from Debian's packages when missing. The sandbox needs root
# (namespaces, cgroups): run this as root. A test that lacks either fails
# and says why; none is skipped.
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
command -v g++ >/dev/null 2>&1 || missing+=(g++)
command -v python3 >/dev/null 2>&1 || missing+=(python3)
if ((${#missing[@]})); then
  echo "== installing ${missing[*]} from Debian's packages"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
fi
if [[ $(id -u) != 0 ]]; then
  echo "warning: not root: the sandbox and disk-full tests will fail, saying why" >&2
fi
g++ --version | head -1
python3 --version

cargo test --locked "$@"
