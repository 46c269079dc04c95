#!/usr/bin/env bash
# The README's MaskablePPO reference command on two source trees, one after the other, in one
# session (ratios within a session are what count on a shared machine), then their speeds:
#   benchmarks/training/before_after.sh OLD_TREE NEW_TREE > results.log
# Each tree is a checkout (git worktree add --detach DIR COMMIT), run as the kinghill package
# through a folder of links; run k's folder is TREE/runs/reference-k, so that a tree may be
# given twice (base, new, new, base). About 16 minutes a run.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
as_package() {  # a folder holding kinghill/{physics,envs,agents,experiments} -> TREE's folders
  local pkg; pkg=$(mktemp -d); mkdir "$pkg/kinghill"
  for d in physics envs agents experiments; do ln -s "$1/$d" "$pkg/kinghill/$d"; done
  echo "$pkg"
}
runs=()
for tree in "$@"; do
  tree=$(cd "$tree" && pwd)
  cli=kinghill.experiments.cli.app  # kinghill.experiments.cli before the regrouping
  [ -f "$tree/experiments/cli/app.py" ] || cli=kinghill.experiments.cli
  out="runs/reference-${#runs[@]}"
  echo "== $(git -C "$tree" rev-parse --short HEAD): the reference command into $out"
  (cd "$tree" && export PYTHONPATH=$(as_package "$tree") &&
    python3 "$here/warm_up.py" &&  # a cold compile (engine and planner) outside the run
    python3 -m "$cli" train --algo maskable-ppo --opponent heuristic \
      --warm-start 200 --ent-coef 0.01 --steps 400000 --time-limit 14 --envs 2 --seed 0 \
      --n-steps 512 --batch-size 128 --net 64,64 --checkpoint-every 10000 --eval-every 8000 \
      --eval-frames 60 --out "$out" --no-progress)
  runs+=("$tree/$out")
done
python3 "$here/summary.py" "${runs[@]}"
