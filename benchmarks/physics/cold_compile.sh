#!/usr/bin/env bash
# The cold compile (a fresh process, an empty numba cache: what an installation pays once) on two
# source trees, base, new, new, base, through kinghill bench-physics --cold-compile (its other
# suites cut to a few shots):
#   benchmarks/physics/cold_compile.sh BASE_TREE NEW_TREE OUT_DIR > OUT_DIR/cold_compile.log
set -euo pipefail
as_package() {  # a folder holding kinghill/{physics,envs,agents,experiments} -> TREE's folders
  local pkg; pkg=$(mktemp -d); mkdir "$pkg/kinghill"
  for d in physics envs agents experiments; do ln -s "$1/$d" "$pkg/kinghill/$d"; done
  echo "$pkg"
}
base=$(cd "$1" && pwd); new=$(cd "$2" && pwd); out=$(mkdir -p "$3" && cd "$3" && pwd)
args=(--cold-compile --shots 10 --breaks 10 --reference-shots 1 --suite /nonexistent)
turn=0
for tree in "$base" "$new" "$new" "$base"; do
  turn=$((turn + 1))
  commit=$(git -C "$tree" rev-parse --short HEAD)
  echo "== bench-physics ${args[*]} on $commit (turn $turn)"
  (cd "$tree" && PYTHONPATH=$(as_package "$tree") python3 -m kinghill.experiments.cli.app \
    bench-physics "${args[@]}" --out "$out/cold-$commit-$turn.json" 2>/dev/null)
done
