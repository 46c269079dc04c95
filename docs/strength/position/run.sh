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
  [wide-budget1920]="search?candidates=wide&budget=1920"
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
  [distilled-1920-gumbel]="expert:$net/distilled-1920.npz?budget=180&arms=16&halving=gumbel"
  [distilled-1920-gumbel-2000]="expert:$net/distilled-1920.npz?budget=180&arms=16&halving=gumbel"
  [distilled-1920b-2000]="expert:$net/distilled-1920b.npz?budget=180&arms=16&halving=gumbel"
  [distilled-1920x2-2000]="expert:$net/distilled-1920x2.npz?budget=180&arms=16&halving=gumbel"
  [distilled-1920-plain-2000]="expert:$net/distilled-1920.npz?budget=180&arms=16"
  [distilled-wide-gumbel]="expert:$net/distilled-wide.npz?budget=180&arms=16&halving=gumbel&candidates=wide"
  [distilled-wide-plain]="expert:$net/distilled-wide.npz?budget=180&arms=16&candidates=wide"
  [distilled-wide-raw]="expert-policy:$net/distilled-wide.npz?candidates=wide"
  [wide-gumbel-b180-a16-2000]="expert:$net/distilled-wide.npz?budget=180&arms=16&halving=gumbel&candidates=wide"
  [wide-gumbel-b240-a24-2000]="expert:$net/distilled-wide.npz?budget=240&arms=24&halving=gumbel&candidates=wide"
  [distilled-1920-raw]="expert-policy:$net/distilled-1920.npz"
  [two-level]="variants:two_level?budget=48"
  [two-level-b120]="variants:two_level?budget=120&arms=8&inner_budget=32&inner_arms=6"
  [two-level-fresh]="variants:two_level?budget=48&fresh=8"
  [two-level-inner96]="variants:two_level?budget=48&arms=6&inner_budget=96&inner_arms=4"
  [q-values-raw]="expert-policy:$net/q-values.npz"
  [q-values-gumbel]="expert:$net/q-values.npz?budget=180&arms=16&halving=gumbel"
  [search-budget1920-2000]="search?budget=1920"
  [stakes-480]="variants:stakes?colour_budget=480"
  [stakes-960-both]="variants:stakes?colour_budget=960&both=true"
  [crn-search]="variants:crn"
  [crn-expert-gumbel]="variants:crn?prior=&budget=180"
  [expert-gumbel-5x]="expert-gumbel"
  [expert-gumbel-5x-2000]="expert-gumbel"
  [expert-gumbel-variable]="expert-gumbel"
  [shipped-5x]="search-position"
  [shipped-variable]="search-position"
)
two="--frames 2000 --seed 2000"
declare -A extra=([distilled-1920-gumbel-2000]=$two [distilled-1920b-2000]=$two [distilled-1920x2-2000]=$two [search-budget1920-2000]=$two [distilled-1920-plain-2000]=$two
  [wide-gumbel-b180-a16-2000]=$two [wide-gumbel-b240-a24-2000]=$two [shipped-5x]="--noise-scale 5 --frames 200"
  [expert-gumbel-5x]="--noise-scale 5" [expert-gumbel-5x-2000]="--noise-scale 5 $two" [expert-gumbel-variable]="--noise-scale variable" [shipped-variable]="--noise-scale variable --frames 200")
for id in "${@:-${!agent[@]}}"; do
  out=runs/position-ablations/$id
  # shellcheck disable=SC2086
  kinghill tournament --agents "${agent[$id]}" search --frames 400 --seed 1000 --jobs 2 \
    ${extra[$id]:-} --out "$out" > /dev/null
  cp "$out/report.md" "docs/strength/position/$id.md"
  cp "$out/report.json" "docs/strength/position/$id.json"
done
