#!/usr/bin/env bash
# haifu ingest beside mjlog2json 0.1.2 (XML -> tenhou.net/6 JSON, no replay), on the corpus files that
# mjlog2json accepts, in one run on the same machine (docs/PERFORMANCE.md).
#
#   cargo install mjlog2json --version 0.1.2 --root /work/tools     # once; not part of the project
#   MJLOG2JSON=/work/tools/bin/mjlog2json scripts/bench_vs_mjlog2json.sh [REPEAT]
#
# Both tools read the same decompressed .xml files from a scratch directory (page cache warm after the first
# pass) and use all cores (mjlog2json's directory mode runs its files on async-std's thread pool); the figure
# compared is MB per CPU-second (user + system time of the process), the median of REPEAT runs.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
repeat=${1:-5}
m2j=${MJLOG2JSON:-mjlog2json}
command -v "$m2j" >/dev/null || { echo "mjlog2json not found: cargo install mjlog2json --version 0.1.2" >&2; exit 1; }
corpus=${HAIFU_CORPUS:-../shared/corpus}
scratch=${SCRATCH:-/tmp/haifu-vs-mjlog2json}
cargo build --release --quiet
haifu="$CARGO_TARGET_DIR/release/haifu"
rm -rf "$scratch" && mkdir -p "$scratch/all" "$scratch/accepted"
find "$corpus/mjlog" -name '*.gz' | while read -r f; do
  zcat "$f" > "$scratch/all/$(basename "$(dirname "$f")")__$(basename "$f" .gz)"
done
# the files mjlog2json converts without an error
for f in "$scratch"/all/*; do
  if "$m2j" "$f" -o "$scratch/one.json" >/dev/null 2>&1; then cp "$f" "$scratch/accepted/"; fi
done
total=$(ls "$scratch/all" | wc -l)
n=$(ls "$scratch/accepted" | wc -l)
mb=$(du -cb "$scratch"/accepted/* | tail -1 | awk '{printf "%.1f", $1/1e6}')
echo "mjlog2json accepts $n of $total corpus mjlog files ($mb MB decompressed)"
cpu() { /usr/bin/time -f "%e %U %S" "$@" 2>&1 >/dev/null | tail -1 | awk '{printf "%.3f %.3f\n", $1, $2+$3}'; }
: > "$scratch/m2j.txt"; : > "$scratch/haifu.txt"
for i in $(seq 1 "$repeat"); do
  rm -rf "$scratch/json" "$scratch/ds"
  cpu "$m2j" "$scratch/accepted" -o "$scratch/json" >> "$scratch/m2j.txt"
  cpu "$haifu" ingest "$scratch/accepted" --out "$scratch/ds" >> "$scratch/haifu.txt"
done
median() { sort -n -k"$1" "$2" | awk -v k="$1" '{a[NR]=$k} END {print a[int((NR+1)/2)]}'; }
mw=$(median 1 "$scratch/m2j.txt"); mc=$(median 2 "$scratch/m2j.txt")
hw=$(median 1 "$scratch/haifu.txt"); hc=$(median 2 "$scratch/haifu.txt")
awk -v mb="$mb" -v mw="$mw" -v mc="$mc" -v hw="$hw" -v hc="$hc" -v r="$repeat" 'BEGIN {
  printf "medians of %d runs on %s MB:\n", r, mb
  printf "  mjlog2json (XML -> JSON):               wall %.2fs  cpu %.2fs  %.1f MB per CPU-second\n", mw, mc, mb/mc
  printf "  haifu ingest (XML -> replay -> Parquet): wall %.2fs  cpu %.2fs  %.1f MB per CPU-second\n", hw, hc, mb/hc
  printf "  ratio haifu / mjlog2json per CPU-second: %.2f\n", (mb/hc)/(mb/mc)
}'
rm -rf "$scratch"
