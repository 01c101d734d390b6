#!/usr/bin/env bash
# Writes the generated testcase inputs listed in every problems/<id>/problem.toml,
# using the release binary's generators. Official samples are left as they are.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
for toml in problems/*/problem.toml; do
  id=$(basename "$(dirname "$toml")")
  # Each generated entry has name, kind and seed lines; read them in order.
  awk -F' *= *' '
    /^\[\[testcase\]\]/ { name=""; kind=""; seed="" }
    $1=="name" { gsub(/"/,"",$2); name=$2 }
    $1=="kind" { gsub(/"/,"",$2); kind=$2 }
    $1=="seed" { seed=$2; print name, kind, seed }
  ' "$toml" | while read -r name kind seed; do
    target/release/nimjudge generate "$id" --kind "$kind" --seed "$seed" > "problems/$id/testcases/$name.in"
  done
done
