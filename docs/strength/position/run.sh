#!/usr/bin/env bash
# The position value's ablations (docs/training.md, issue 35): each tournament's report.md and
# report.json copied here as <id>.md / <id>.json.
#   bash docs/strength/position/run.sh [ID ...]
set -euo pipefail
cd "$(dirname "$0")/../../.."
net=docs/training/position
export PYTHONPATH="$net${PYTHONPATH:+:$PYTHONPATH}"  # the candidates' variants (variants.py)
declare -A agent=(
  [net-16core]="search-position:$net/net-16core.npz"
  [net-16core-wide]="search-position:$net/net-16core-wide.npz"
  [net-16core-budget480]="search-position:$net/net-16core.npz?budget=480"
  [net-16core-budget1920]="search-position:$net/net-16core.npz?budget=1920"
  [shipped-budget1920]="search-position?budget=1920"
  [backup-value-budget1920]="search-position:$net/net-backup.npz?budget=1920"
  [search-budget480]="search?budget=480"
  [backup-value]="search-position:$net/net-backup.npz"
  [raw-distilled]="expert-policy:$net/raw-distilled.npz"
  [shipped]="search-position"
  [shipped-budget105]="search-position?budget=105"
  [candidates-pots8]="variants:wide?pots=8"
  [candidates-safeties8]="variants:wide?safeties=8"
  [candidates-safety-speeds]="variants:wide?safety_speeds=0.6_1.0_1.5"
  [candidates-speeds]="variants:wide?speeds=0.75_1.0_1.4"
  [candidates-spins]="variants:wide?spins=0.0_-0.3_0.3_-0.6_0.6"
  [search-budget1920]="search?budget=1920"
  [early]="variants:early"
  [early-budget1920]="variants:early?budget=1920"
  [wide-budget1920]="variants:wide?pots=8&safeties=8&safety_speeds=0.6_1.0_1.5&budget=1920"
  [phase-value-budget1920]="variants:phase?colour=1.0&budget=1920"
  [search-budget7680]="search?budget=7680"
  [lookahead]="search?lookahead=true"
  [lookahead-budget480]="search?lookahead=true&budget=480"
  [phase-value]="variants:phase?colour=1.0"
  [distilled-1920]="expert:$net/distilled-1920.npz?budget=120&arms=8"
  [distilled-1920-budget150]="expert:$net/distilled-1920.npz?budget=150&arms=8"
  [distilled-1920-arms5]="expert:$net/distilled-1920.npz?budget=150&arms=5"
  [distilled-1920-arms12]="expert:$net/distilled-1920.npz?budget=150&arms=12"
  [distilled-1920-iteration2]="expert:$net/distilled-1920-iteration2.npz?budget=120&arms=8"
  [distilled-1920-iteration2-raw]="expert-policy:$net/distilled-1920-iteration2.npz"
  [guided-position]="variants:guided_position"
  [gumbel]="variants:gumbel?budget=150&arms=12"
  [gumbel-arms16]="variants:gumbel?budget=180&arms=16"
  [gumbel-arms16-2000]="variants:gumbel?budget=180&arms=16"
  [distilled-1920-raw]="expert-policy:$net/distilled-1920.npz"
  [shipped-5x]="search-position"
  [shipped-variable]="search-position"
)
declare -A extra=([gumbel-arms16-2000]="--frames 2000 --seed 2000" [shipped-5x]="--noise-scale 5 --frames 200" [shipped-variable]="--noise-scale variable --frames 200")
for id in "${@:-${!agent[@]}}"; do
  out=runs/position-ablations/$id
  # shellcheck disable=SC2086
  kinghill tournament --agents "${agent[$id]}" search --frames 400 --seed 1000 --jobs 2 \
    ${extra[$id]:-} --out "$out" > /dev/null
  cp "$out/report.md" "docs/strength/position/$id.md"
  cp "$out/report.json" "docs/strength/position/$id.json"
done
