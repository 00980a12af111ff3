#!/usr/bin/env bash
# haifu ingest beside mjlog2json 0.1.2 (mjlog XML -> tenhou.net/6 JSON, no replay), side by side in one run
# on the same machine, on exactly the corpus files that mjlog2json accepts.
#
#   cargo install mjlog2json --version 0.1.2 --root /work/tools     # once; outside the project
#   MJLOG2JSON=/work/tools/bin/mjlog2json scripts/bench_vs_mjlog2json.sh [REPEAT]
#
# Environment: MJLOG2JSON (the binary; default: mjlog2json on PATH), HAIFU_CORPUS (default ../shared/corpus),
# SCRATCH (default /tmp/haifu-vs-mjlog2json, removed at the end unless KEEP=1), CPU (the core both tools are
# pinned to, default 0), INGEST_ARGS (more arguments of haifu ingest, word-split).
#
# What is measured:
# 1. Every corpus mjlog file is decompressed into $SCRATCH/all/ (not timed). mjlog2json is run once per file
#    (`mjlog2json FILE -o /dev/null`); the files it converts with exit status 0 are the compared set. Their
#    corpus paths are written to $SCRATCH.accepted.txt (kept), and they are hard-linked into $SCRATCH/accepted/.
# 2. REPEAT rounds, each running the two tools one after the other on that set (which goes first alternates),
#    whole processes at the settings their users use, both pinned to one core with taskset; CPU time = user +
#    system of the process from /usr/bin/time; each output folder is removed before, outside the timing:
#    - mjlog2json in its batch (directory) mode, one process for the whole set, at its defaults:
#      `taskset -c $CPU mjlog2json $SCRATCH/accepted -o $SCRATCH/json` (read, parse, convert, write one JSON
#      file per game);
#    - `taskset -c $CPU haifu ingest $SCRATCH/accepted --out $SCRATCH/ds --jobs 1` (read, parse, replay with
#      every check, write the Parquet dataset; its table writers are threads of their own, on the same core).
#    Inputs are in the page cache for both (the accept pass read them just before).
# 3. Medians of the REPEAT rounds; MB = decompressed bytes of the set / 1e6; the ratio is haifu's MB per
#    CPU-second over mjlog2json's.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
repeat=${1:-5}
m2j=${MJLOG2JSON:-mjlog2json}
command -v "$m2j" >/dev/null || { echo "mjlog2json not found: cargo install mjlog2json --version 0.1.2, then MJLOG2JSON=path" >&2; exit 1; }
m2j=$(command -v "$m2j")
corpus=$(cd "${HAIFU_CORPUS:-../shared/corpus}" && pwd)
scratch=${SCRATCH:-/tmp/haifu-vs-mjlog2json}
cpu_core=${CPU:-0}
cargo build --release --quiet --workspace --bins
haifu="$CARGO_TARGET_DIR/release/haifu"

rm -rf "$scratch" && mkdir -p "$scratch/all" "$scratch/accepted"
# flat names that keep the source repository (and fragments/) and end in .xml: mjlog2json's directory mode
# takes `*.xml` and names each output after the input's stem
(cd "$corpus/mjlog" && find . -name '*.gz' | sed 's|^\./||' | sort) > "$scratch/corpus.txt"
while read -r rel; do
  flat=${rel//\//__}; flat=${flat%.gz}; [[ $flat == *.xml ]] || flat="$flat.xml"
  zcat "$corpus/mjlog/$rel" > "$scratch/all/$flat"
  printf '%s\t%s\n' "$rel" "$flat" >> "$scratch/names.tsv"
done < "$scratch/corpus.txt"

# the files mjlog2json converts without an error (exit 0; a panic or a 60 s hang counts as a refusal)
list="$scratch.accepted.txt"
: > "$list"; : > "$scratch/accepted-paths.txt"
while IFS=$'\t' read -r rel flat; do
  if timeout 60 "$m2j" "$scratch/all/$flat" -o /dev/null >/dev/null 2>&1; then
    echo "mjlog/$rel" >> "$list"
    ln "$scratch/all/$flat" "$scratch/accepted/$flat"
    echo "$scratch/accepted/$flat" >> "$scratch/accepted-paths.txt"
  fi
done < "$scratch/names.tsv"
total=$(wc -l < "$scratch/names.tsv")
n=$(wc -l < "$list")
bytes=$(cat "$scratch"/accepted/*.xml | wc -c)
mb=$(awk -v b="$bytes" 'BEGIN {printf "%.2f", b/1e6}')
echo "mjlog2json accepts $n of $total corpus mjlog files ($mb MB decompressed); list: $list"

# rt CMD...: runs CMD (its stdout to $scratch/cmd.out), prints "wall cpu" with cpu = user + system
rt() { /usr/bin/time -f "%e %U %S" -o "$scratch/time.txt" "$@" > "$scratch/cmd.out"; awk '{printf "%.3f %.3f\n", $1, $2+$3}' "$scratch/time.txt"; }
: > "$scratch/m2j.txt"; : > "$scratch/haifu.txt"
m2j_run() {
  rm -rf "$scratch/json"
  rt taskset -c "$cpu_core" "$m2j" "$scratch/accepted" -o "$scratch/json" >> "$scratch/m2j.txt"
  njson=$(find "$scratch/json" -name '*.json' | wc -l)
  [ "$njson" = "$n" ] || { echo "mjlog2json wrote $njson JSON files for $n inputs" >&2; exit 1; }
}
haifu_run() {
  rm -rf "$scratch/ds"
  t=$(rt taskset -c "$cpu_core" "$haifu" ingest "$scratch/accepted" --out "$scratch/ds" --jobs 1 --json ${INGEST_ARGS:-})
  echo "$t $(jq -r '"\(.games_ingested) \(.files_quarantined + .games_quarantined) \(.files_read)"' "$scratch/cmd.out") $mb" >> "$scratch/haifu.txt"
}
for i in $(seq 1 "$repeat"); do
  # alternate which tool goes first
  if [ $((i % 2)) = 1 ]; then m2j_run; haifu_run; else haifu_run; m2j_run; fi
  echo "round $i/$repeat: mjlog2json $(tail -1 "$scratch/m2j.txt" | awk '{print "wall " $1 "s cpu " $2 "s"}'); haifu $(tail -1 "$scratch/haifu.txt" | awk '{printf "wall %.3fs cpu %.3fs", $1, $2}')"
done
read -r hgames hquar hfiles hmb < <(tail -1 "$scratch/haifu.txt" | awk '{print $3, $4, $5, $6}')
[ "$hfiles" = "$n" ] || { echo "haifu ingest read $hfiles files, expected $n" >&2; exit 1; }
median() { sort -n -k"$1" "$2" | awk -v k="$1" '{a[NR]=$k} END {print a[int((NR+1)/2)]}'; }
mw=$(median 1 "$scratch/m2j.txt"); mc=$(median 2 "$scratch/m2j.txt")
hw=$(median 1 "$scratch/haifu.txt"); hc=$(median 2 "$scratch/haifu.txt")
echo "machine: $(nproc) CPUs, $(lscpu | sed -n 's/^Model name: *//p' | head -1); both tools pinned to core $cpu_core"
awk -v mb="$mb" -v hmb="$hmb" -v n="$n" -v g="$hgames" -v q="$hquar" -v mw="$mw" -v mc="$mc" -v hw="$hw" -v hc="$hc" -v r="$repeat" 'BEGIN {
  printf "input: %d files, %s MB decompressed; haifu ingested %d games, %d quarantined\n", n, mb, g, q
  printf "medians of %d interleaved rounds, one core:\n", r
  printf "  mjlog2json 0.1.2 (XML -> JSON, directory mode): wall %.3fs  cpu %.3fs  %.1f MB per CPU-second  %.0f games per CPU-second\n", mw, mc, mb/mc, n/mc
  printf "  haifu ingest (XML -> replay -> Parquet):        wall %.3fs  cpu %.3fs  %.1f MB per CPU-second  %.0f games per CPU-second\n", hw, hc, mb/hc, g/hc
  printf "  ratio haifu / mjlog2json, MB per CPU-second: %.2f (the floor no change may break: >= 0.5)\n", (mb/hc)/(mb/mc)
}'
if [ "${KEEP:-0}" != 1 ]; then rm -rf "$scratch"; fi
