# Shared settings of the scripts: one target directory for every build (CI may point it elsewhere).
if [ -z "${CARGO_TARGET_DIR:-}" ]; then
  if [ -d /work ] && [ -w /work ]; then export CARGO_TARGET_DIR=/work/target; else export CARGO_TARGET_DIR="$PWD/target"; fi
fi
# sourced (`source scripts/env.sh`): `return`, which leaves the user's shell open; run as a script: `exit`
command -v cargo >/dev/null || { echo "cargo not found: install Rust from https://rustup.rs" >&2; return 1 2>/dev/null || exit 1; }

# Builds both binaries, haifu and the network binary haifu-neural, with cargo's progress in view.
build_haifu() {
  if [ ! -x "$CARGO_TARGET_DIR/release/haifu-neural" ] || [ ! -x "$CARGO_TARGET_DIR/release/haifu" ]; then
    echo "building haifu and haifu-neural (release) in $CARGO_TARGET_DIR: from nothing about half an hour on 2 cores" \
      "(Polars and libtorch's wrapper take the longest; docs/PERFORMANCE.md), seconds once built" >&2
  fi
  cargo build --release -p haifu -p haifu-neural-cli
}

# HAIFU_NO_TORCH=1: no libtorch (scripts/core-build checks that `haifu` builds and runs without it)
if [ "${HAIFU_NO_TORCH:-}" = 1 ]; then return 0 2>/dev/null || exit 0; fi

# libtorch for the neural crate (tch 0.24 = PyTorch 2.11.0), from the PyPI wheel in a venv outside the checkout
# (kept between runs like the target directory); `ensure_torch` installs it when missing.
export TORCH_VENV="${TORCH_VENV:-$CARGO_TARGET_DIR/torch-venv}"
export LIBTORCH_USE_PYTORCH=1
export PATH="$TORCH_VENV/bin:$PATH"
torch_lib() { echo "$TORCH_VENV/lib/python3.$("${TORCH_VENV}/bin/python" -c 'import sys; print(sys.version_info.minor)' 2>/dev/null || echo 11)/site-packages/torch/lib"; }
ensure_torch() {
  if ! "$TORCH_VENV/bin/python" -c "import torch" 2>/dev/null; then
    echo "installing torch 2.11.0 (libtorch for tch) into $TORCH_VENV, once: about 4.6 GB" >&2
    python3 -m venv "$TORCH_VENV"
    "$TORCH_VENV/bin/pip" install -q torch==2.11.0
  fi
  export LD_LIBRARY_PATH="$(torch_lib)${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
}
ensure_torch
