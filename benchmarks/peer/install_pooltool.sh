#!/usr/bin/env bash
# Idempotent headless install of pooltool-billiards 0.6.0 into $PEER_VENV
# (default benchmarks/peer/.venv, beside this script; git ignores it), from the
# package registry only. A venv of its own: pooltool pins its own numpy/numba.
#
# Why not plain `pip install pooltool-billiards`: 0.6.0 pins
# panda3d==1.11.0.dev<N> (not on PyPI), so pip silently falls back to 0.3.3.
# Workaround: install 0.6.0's own Requires-Dist minus panda3d, plus
# panda3d==1.10.* from PyPI (pooltool imports panda3d.core at import time),
# then the pooltool wheel with --no-deps.
set -euo pipefail
PT_VERSION=0.6.0
V=${PEER_VENV:-"$(cd "$(dirname "$0")" && pwd)/.venv"}
PY=${PYTHON:-python3}
SCRATCH=$(mktemp -d /tmp/peer-pooltool-install.XXXXXX)
trap 'rm -rf "$SCRATCH"' EXIT
# pooltool writes $HOME/.config/pooltool on import: never let it touch the real HOME.
export HOME="$SCRATCH/home"; mkdir -p "$HOME"

installed_version() {
  "$V/bin/python" - <<'PYEOF' 2>/dev/null || true
import importlib.metadata as m
try: print(m.version("pooltool-billiards"))
except m.PackageNotFoundError: pass
PYEOF
}

if [ ! -x "$V/bin/python" ]; then
  echo "[install] creating venv $V with $($PY --version 2>&1)" >&2
  "$PY" -m venv "$V"
  "$V/bin/pip" install -q --upgrade pip >&2
fi

if [ "$(installed_version)" = "$PT_VERSION" ] && \
   "$V/bin/python" -c "import pooltool, panda3d.core" >/dev/null 2>&1; then
  echo "[install] pooltool-billiards $PT_VERSION already installed in $V" >&2
else
  echo "[install] downloading pooltool-billiards==$PT_VERSION wheel (no deps)" >&2
  "$V/bin/pip" download -q --no-deps --only-binary=:all: -d "$SCRATCH/wheel" \
      "pooltool-billiards==$PT_VERSION" >&2
  WHL=$(ls "$SCRATCH"/wheel/pooltool_billiards-"$PT_VERSION"-*.whl)
  # Its Requires-Dist, minus extras and minus panda3d itself (keep panda3d-gltf/-simplepbr).
  "$V/bin/python" - "$WHL" > "$SCRATCH/reqs.txt" <<'PYEOF'
import sys, zipfile, re
z = zipfile.ZipFile(sys.argv[1])
meta = next(n for n in z.namelist() if n.endswith(".dist-info/METADATA"))
for line in z.read(meta).decode().splitlines():
    if not line.startswith("Requires-Dist:"):
        continue
    req = line.split(":", 1)[1].strip()
    if "extra ==" in req:
        continue
    name = re.split(r"[\s;<>=!~\[(]", req, 1)[0].lower()
    if name == "panda3d":
        continue
    print(req)
PYEOF
  echo "panda3d==1.10.*" >> "$SCRATCH/reqs.txt"
  echo "[install] dependencies:" $(tr '\n' ' ' < "$SCRATCH/reqs.txt") >&2
  "$V/bin/pip" install -q -r "$SCRATCH/reqs.txt" >&2
  "$V/bin/pip" install -q --no-deps "$WHL" >&2
fi

# Smoke test (headless import) and report.
cd "$SCRATCH"
"$V/bin/python" - <<'PYEOF'
import importlib.metadata as m
import pooltool, panda3d, numba, numpy
print(f"pooltool-billiards {m.version('pooltool-billiards')} "
      f"(pooltool.__version__={getattr(pooltool, '__version__', '?')}) "
      f"panda3d {m.version('panda3d')} numba {numba.__version__} "
      f"llvmlite {m.version('llvmlite')} numpy {numpy.__version__}")
PYEOF
echo "[install] venv: $V" >&2
