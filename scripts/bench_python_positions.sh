#!/usr/bin/env bash
# The positions `haifu train` learns from, extracted by the Python module (`haifu.positions`) beside the Rust
# extraction (`haifu bench positions`), side by side in one run (issue 51's target: Python >= 90% of the Rust
# positions per second).
#
#   scripts/bench_python_positions.sh DATASET [REPEAT]
#
# Environment: CPU (the core both are pinned to, default 0), YEARS / TEST_YEARS (the split, comma-separated;
# default: every year, one game in ten tested), HAIFU_PYTHON_VENV (default $CARGO_TARGET_DIR/python-venv, with
# the module installed: scripts/python-test).
#
# REPEAT rounds, each running the two one after the other (which goes first alternates), whole processes pinned
# to one core with taskset, the dataset's positions cache removed before each (so both replay every game and
# write the cache again); CPU time = user + system of the process from /usr/bin/time. Medians of the rounds;
# the ratio is Python's positions per CPU-second over Rust's.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
dataset=$(cd "$1" && pwd)
repeat=${2:-5}
cpu_core=${CPU:-0}
venv="${HAIFU_PYTHON_VENV:-$CARGO_TARGET_DIR/python-venv}"
haifu="$CARGO_TARGET_DIR/release/haifu"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
split_args=()
[ -n "${YEARS:-}" ] && split_args+=(--years "$YEARS")
[ -n "${TEST_YEARS:-}" ] && split_args+=(--test-years "$TEST_YEARS")
py_years="[${YEARS:-}]"
py_test="[${TEST_YEARS:-}]"

rt() { /usr/bin/time -f "%e %U %S" -o "$scratch/time.txt" "$@" > "$scratch/cmd.out"; awk '{printf "%.3f %.3f\n", $1, $2+$3}' "$scratch/time.txt"; }
rust_run() {
  rm -rf "$dataset/_haifu/cache"
  t=$(rt taskset -c "$cpu_core" "$haifu" bench positions --dataset "$dataset" "${split_args[@]}" --repeat 1 --json)
  echo "$t $(jq -r .positions "$scratch/cmd.out")" >> "$scratch/rust.txt"
}
py_run() {
  rm -rf "$dataset/_haifu/cache"
  t=$(rt taskset -c "$cpu_core" "$venv/bin/python" -c "
import haifu
train, test = haifu.positions('$dataset', years=$py_years, test_years=$py_test)
print(len(train) + len(test))")
  echo "$t $(cat "$scratch/cmd.out")" >> "$scratch/python.txt"
}
: > "$scratch/rust.txt"; : > "$scratch/python.txt"
for i in $(seq 1 "$repeat"); do
  if [ $((i % 2)) = 1 ]; then rust_run; py_run; else py_run; rust_run; fi
done
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
for side in rust python; do
  n=$(awk '{print $3}' "$scratch/$side.txt" | sort -u)
  [ "$(echo "$n" | wc -l)" = 1 ] || { echo "$side: the rounds extracted different counts: $n" >&2; exit 1; }
  wall=$(awk '{print $1}' "$scratch/$side.txt" | median)
  cpu=$(awk '{print $2}' "$scratch/$side.txt" | median)
  echo "$side: $n positions, wall $wall s, cpu $cpu s (medians of $repeat) -> $(awk -v n="$n" -v c="$cpu" 'BEGIN {printf "%.0f", n/c}') positions per CPU-second"
  eval "${side}_n=$n ${side}_cpu=$cpu"
done
[ "$rust_n" = "$python_n" ] || { echo "Rust extracted $rust_n positions, Python $python_n" >&2; exit 1; }
awk -v r="$rust_cpu" -v p="$python_cpu" 'BEGIN {printf "ratio (Python over Rust, positions per CPU-second): %.3f\n", r/p}'
