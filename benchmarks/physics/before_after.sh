#!/usr/bin/env bash
# kinghill bench-physics on two source trees taking turns, base, new, new, base, in one run
# (ratios within a run are what counts on a shared machine):
#   ROUNDS=5 benchmarks/physics/before_after.sh BASE_TREE NEW_TREE OUT_DIR > OUT_DIR/before_after.log
#   python3 benchmarks/physics/summary.py OUT_DIR > OUT_DIR/summary.md
# Each tree is a checkout (git worktree add --detach DIR COMMIT); it runs as the kinghill package
# through a folder of links, so that nothing needs installing. Compile each tree's kernels first
# (python3 -c "import kinghill.physics as p; p.warm_up()" there), or the first run pays for it.
# ROUNDS rounds (default 1) of the four turns. Writes OUT_DIR/<commit>-<turn>.json
# (bench-physics --out) and prints each run's report; then entry_overhead.py on base, new, new, base.
set -euo pipefail
as_package() {  # a folder holding kinghill/{physics,envs,agents,experiments} -> TREE's folders
  local pkg; pkg=$(mktemp -d); mkdir "$pkg/kinghill"
  for d in physics envs agents experiments; do ln -s "$1/$d" "$pkg/kinghill/$d"; done
  echo "$pkg"
}
here=$(cd "$(dirname "$0")" && pwd)
base=$(cd "$1" && pwd); new=$(cd "$2" && pwd); out=$(mkdir -p "$3" && cd "$3" && pwd)
args=(--no-cold-compile --reference-shots 5)
turn=0
for _ in $(seq "${ROUNDS:-1}"); do
  for tree in "$base" "$new" "$new" "$base"; do
    turn=$((turn + 1))
    commit=$(git -C "$tree" rev-parse --short HEAD)
    echo "== bench-physics ${args[*]} on $commit (turn $turn)"
    (cd "$tree" && PYTHONPATH=$(as_package "$tree") python3 -m kinghill.experiments.cli.app \
      bench-physics "${args[@]}" --out "$out/$commit-$turn.json" 2>/dev/null)
  done
done
for tree in "$base" "$new" "$new" "$base"; do
  echo "== entry_overhead.py on $(git -C "$tree" rev-parse --short HEAD)"
  (cd "$tree" && PYTHONPATH=$(as_package "$tree") python3 "$here/entry_overhead.py" 2>/dev/null)
done
