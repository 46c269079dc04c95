#!/usr/bin/env bash
# Both engines on the same peer suite, in one run, side by side:
#   benchmarks/peer/run.sh [RESULTS_DIR]
# 1. installs pooltool 0.6 into its own venv (benchmarks/peer/.venv, or $PEER_VENV) if missing;
# 2. kinghill bench-physics on suite.json            -> RESULTS_DIR/kinghill.json
# 3. pooltool's harness (bench_pooltool.py) on it     -> RESULTS_DIR/pooltool.json
# 4. prints the two side by side (compare.py); RESULTS_DIR/machine.txt says when and where.
# RESULTS_DIR defaults to benchmarks/peer/results, the figures the README's speed table shows
# (python3 docs/tables.py rewrites that table from them).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-"$here/results"}
mkdir -p "$out"
export PEER_VENV=${PEER_VENV:-"$here/.venv"}
"$here/install_pooltool.sh" >/dev/null
load=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
echo "[run] kinghill bench-physics on $here/suite.json" >&2
kinghill bench-physics --suite "$here/suite.json" --reference-shots 5 --report "$out/kinghill.json" >&2
echo "[run] pooltool on the same suite (3 passes, after a JIT warm-up)" >&2
HOME="$scratch" "$PEER_VENV/bin/python" "$here/bench_pooltool.py" "$here/suite.json" \
    --passes 3 > "$out/pooltool.json"
{
    echo "measured: $(date -u '+%Y-%m-%d %H:%M UTC')"
    echo "commit: $(git -C "$here" rev-parse --short HEAD 2>/dev/null || echo unknown)"
    echo "cpus: $(nproc); load average before: $load"
} > "$out/machine.txt"
python3 "$here/compare.py" "$out/kinghill.json" "$out/pooltool.json"
