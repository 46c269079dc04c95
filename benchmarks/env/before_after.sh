#!/usr/bin/env bash
# bench-env and the search's time per decision on two or three source trees, taking turns, in
# one run (ratios within a run are what counts on a shared machine):
#   benchmarks/env/before_after.sh OLD_TREE NEW_TREE [PURE_PYTHON_TREE] > results.log
# Each tree is a checkout (git worktree add --detach DIR COMMIT); it runs as the kinghill package
# through a folder of links, so that nothing needs installing. Compile each tree's kernels
# first (one run of `kinghill bench-env` there), or the first run pays for it.
set -euo pipefail
script=$(cd "$(dirname "$0")/../search" && pwd)/time_per_decision.py
as_package() {  # a folder holding kinghill/{physics,envs,agents,experiments} -> TREE's folders
  local pkg; pkg=$(mktemp -d); mkdir "$pkg/kinghill"
  for d in physics envs agents experiments; do ln -s "$1/$d" "$pkg/kinghill/$d"; done
  echo "$pkg"
}
run() {  # TREE COMMAND...
  local tree=$1; shift
  (cd "$tree" && PYTHONPATH=$(as_package "$tree") "$@")
}
old=$(cd "$1" && pwd); new=$(cd "$2" && pwd); pure=${3:+$(cd "$3" && pwd)}
for k in 1 2; do
  for tree in "$old" "$new"; do
    echo "== bench-env $(git -C "$tree" rev-parse --short HEAD) run $k"
    run "$tree" python3 -m kinghill.experiments.cli.app bench-env --steps 1500 2>/dev/null
  done
done
for k in 1 2; do
  for tree in ${pure:+"$pure"} "$old" "$new"; do
    echo "== search $(git -C "$tree" rev-parse --short HEAD) run $k"
    run "$tree" python3 "$script"
  done
done
