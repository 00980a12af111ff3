#!/usr/bin/env bash
# Peak RSS of `haifu ingest` on the corpus at several multiples of its size (docs/PERFORMANCE.md), by default
# 1x, 2x and 5x. Copy k of every mjlog file is made distinct by a trailing XML comment (so that the
# content-hash manifest does not skip it), and ingest keeps the copies of a game (`--keep-duplicates`); the
# copies live in a scratch directory, never in the repository.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
corpus=${HAIFU_CORPUS:-../shared/corpus}
scratch=${SCRATCH:-/tmp/haifu-scale}
jobs=${JOBS:-2}
sizes=${SIZES:-1 2 5}
max=$(echo "$sizes" | tr ' ' '\n' | sort -n | tail -1)
cargo build --release --quiet
bin="$CARGO_TARGET_DIR/release/haifu"
rm -rf "$scratch" && mkdir -p "$scratch"
for k in $(seq 1 "$max"); do
  mkdir -p "$scratch/copies/$k"
  find "$corpus/mjlog" -name '*.gz' | while read -r f; do
    { zcat "$f"; echo "<!-- copy $k -->"; } > "$scratch/copies/$k/$(basename "$f" .gz)"
  done
done
for n in $sizes; do
  inputs=$(for k in $(seq 1 "$n"); do echo "$scratch/copies/$k"; done)
  rm -rf "$scratch/out"
  # shellcheck disable=SC2086
  /usr/bin/time -f "${n}x: %e s wall, %U s user, %S s sys, peak RSS %M KB" \
    "$bin" ingest $inputs --out "$scratch/out" --jobs "$jobs" --keep-duplicates | head -1
done
rm -rf "$scratch"
