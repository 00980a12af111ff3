# Shared settings of the scripts: one target directory for every build (CI may point it elsewhere).
if [ -z "${CARGO_TARGET_DIR:-}" ]; then
  if [ -d /work ] && [ -w /work ]; then export CARGO_TARGET_DIR=/work/target; else export CARGO_TARGET_DIR="$PWD/target"; fi
fi
command -v cargo >/dev/null || { echo "cargo not found: install Rust from https://rustup.rs" >&2; exit 1; }
