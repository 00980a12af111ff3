#!/usr/bin/env bash
# cluster/test-cluster.sh [DATASET]: the Spark path (cluster/haifu_spark/mine.py) on a real standalone cluster.
#
# Starts one master and two workers on 127.0.0.1 (free ports) from the venv's PyPI pyspark and the machine's Java,
# submits the mining job with `spark-submit --master spark://...`, checks that its tables equal `haifu mine`'s row
# for row (cluster/compare.py), that `haifu imitate eval` on both gives identical figures and that evaluate.py
# on the cluster gives haifu's (--strategy estimated), and stops the
# processes it started, by their ids (with their children), on every exit. The executors get a Python that does
# not exist (spark.pyspark.python): the job must run no Python there (DEPLOY.md). See cluster/README.md,
# "Standalone cluster test".
#
#   DATASET      a dataset written by `haifu ingest`; default: ingest ${HAIFU_CORPUS:-../shared/corpus}/mjlog
#                into the temporary folder (nothing is copied into the repository)
#   SMALL=1      two years only (the last two up to SPLIT_YEAR), eval on the first year after: for CI
#   SPLIT_YEAR   tables from the years up to it, eval on the years after it (default 2020)
#   MINE_YEARS / EVAL_YEARS   override the chosen years (comma-separated)
#   KEEP=1       keep the temporary folder (tables, logs)
#   HAIFU        the haifu binary (default ${CARGO_TARGET_DIR:-/work/target}/release/haifu)
#   SHUFFLE_PARTITIONS   mine.py --shuffle-partitions (default 8; SMALL: 2); the tables do not depend on it
#   TIMEOUT_S    the longest one spark-submit may take (default 900); the workers get 120 s to register
#
# Exit 0: equal (or a "skip:" line when Java or PySpark cannot be had); 1: the tables or figures differ, or a step
# failed (the differences and the log tails on stdout).
set -uo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/.." && pwd)"
me="cluster/test-cluster.sh"
target="${CARGO_TARGET_DIR:-/work/target}"
venv="$target/cluster-venv"
PY="$venv/bin/python"
TIMEOUT_S="${TIMEOUT_S:-900}"
SPLIT_YEAR="${SPLIT_YEAR:-2020}"
SHUFFLE_PARTITIONS="${SHUFFLE_PARTITIONS:-$([ "${SMALL:-0}" = 1 ] && echo 2 || echo 8)}"

skip() { echo "$me: skip: $*"; exit 0; }
fail() { echo "$me: FAIL: $*"; exit 1; }
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }
t_script=$(now)

# ---------------------------------------------------------------------------------------------------------------
# Java (17 or 21 for Spark 4) and the venv with pyspark and pyarrow

java_major() { java -version 2>&1 | awk -F'"' '/version/ { split($2, v, "."); print (v[1] == "1" ? v[2] : v[1]); exit }'; }
if ! command -v java >/dev/null 2>&1; then
    # installed when we may (root or passwordless sudo, apt-get): CI runners
    sudo=""
    [ "$(id -u)" = 0 ] || sudo="sudo -n"
    if command -v apt-get >/dev/null 2>&1 && { [ -z "$sudo" ] || sudo -n true 2>/dev/null; }; then
        echo "$me: no java on PATH: installing openjdk-17-jre-headless with apt-get"
        $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q openjdk-17-jre-headless >/dev/null 2>&1 \
            || { $sudo apt-get update -q >/dev/null 2>&1 \
                 && $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q openjdk-17-jre-headless >/dev/null 2>&1; } \
            || true
    fi
    command -v java >/dev/null 2>&1 \
        || skip "no java on PATH and it could not be installed (Spark 4 needs Java 17 or 21: apt-get install openjdk-17-jre-headless)"
fi
jm="$(java_major)"
case "$jm" in
    17|21) ;;
    *) skip "java on PATH is version ${jm:-unknown}; Spark 4 needs Java 17 or 21" ;;
esac
if ! "$PY" -c "import pyspark, pyarrow" >/dev/null 2>&1; then
    bash "$here/setup.sh" | sed "s|^|$me: |"
    "$PY" -c "import pyspark, pyarrow" >/dev/null 2>&1 || skip "no venv with pyspark and pyarrow at $venv (cluster/setup.sh could not make it)"
fi
SPARK_HOME="$("$PY" -c 'import os, pyspark; print(os.path.dirname(pyspark.__file__))')"
[ -x "$SPARK_HOME/bin/spark-class" ] || skip "the venv's pyspark has no bin/spark-class ($SPARK_HOME)"

# ---------------------------------------------------------------------------------------------------------------
# haifu (the release binary; scripts/env.sh puts libtorch on the library path when it does not start alone)

HAIFU="${HAIFU:-$target/release/haifu}"
if [ ! -x "$HAIFU" ]; then
    echo "$me: building $HAIFU (cargo build --release)"
    (cd "$repo" && cargo build --release -q --bin haifu) || fail "no haifu binary at $HAIFU and cargo build failed"
fi
if ! "$HAIFU" --version >/dev/null 2>&1; then
    # env.sh exits when cargo is missing: source it only with cargo there
    if command -v cargo >/dev/null 2>&1; then
        # shellcheck source=/dev/null
        cd "$repo" && source scripts/env.sh >/dev/null && cd - >/dev/null
    fi
    "$HAIFU" --version >/dev/null 2>&1 || fail "$HAIFU does not start (libtorch? source scripts/env.sh)"
fi

# ---------------------------------------------------------------------------------------------------------------
# the temporary folder, and the trap that stops what this script started

tmp="$(mktemp -d "${TMPDIR:-/tmp}/haifu-cluster-test.XXXXXXXX")"
tmp="$(cd "$tmp" && pwd -P)"
mkdir -p "$tmp/logs/events" "$tmp/local" "$tmp/conf" "$tmp/work1" "$tmp/work2" "$tmp/out"
# the marker: on the command line of every JVM of this cluster (and in the driver's arguments, through $tmp)
marker="-Dhaifu.cluster.test=$tmp"
started=()   # "name pid", in the order started

descendants() {
    local c
    for c in $(pgrep -P "$1" 2>/dev/null); do
        echo "$c"
        descendants "$c"
    done
}

# TERM a process and its children (collected before, so executors of a worker are not lost); KILL after 15 s
stop_tree() {
    local pid="$1" name="$2" pids p alive i
    pids="$pid $(descendants "$pid" | tr '\n' ' ')"
    alive=""
    for p in $pids; do kill -0 "$p" 2>/dev/null && alive="$alive $p"; done
    [ -n "$alive" ] || return 0
    kill -TERM $alive 2>/dev/null
    for i in $(seq 1 30); do
        alive=""
        for p in $pids; do kill -0 "$p" 2>/dev/null && alive="$alive $p"; done
        [ -n "$alive" ] || break
        sleep 0.5
    done
    if [ -n "$alive" ]; then
        echo "$me: $name ($pid): still running after 15 s, killing:$alive"
        kill -KILL $alive 2>/dev/null
    fi
    wait "$pid" 2>/dev/null
    return 0
}

cleanup() {
    local rc=$? i entry left
    trap - EXIT INT TERM HUP
    # the last started first: submit, workers, master
    for ((i = ${#started[@]} - 1; i >= 0; i--)); do
        entry="${started[$i]}"
        stop_tree "${entry#* }" "${entry% *}"
    done
    left="$(pgrep -f -- "$tmp" 2>/dev/null | tr '\n' ' ')"
    if [ -n "$left" ]; then
        echo "$me: FAIL: processes of this cluster left running: $left"
        ps -o pid,ppid,args -p "${left// /,}" 2>/dev/null | cut -c1-200
        rc=1
    else
        echo "$me: stopped every process it started; none left (pgrep -f $tmp: none)"
    fi
    if [ "${KEEP:-0}" = 1 ]; then
        echo "$me: kept $tmp"
    else
        rm -rf "$tmp"
    fi
    echo "$me: total wall $(since "$t_script") s, exit $rc"
    exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

# ---------------------------------------------------------------------------------------------------------------
# the dataset and the years

dataset="${1:-}"
if [ -z "$dataset" ]; then
    corpus="${HAIFU_CORPUS:-$repo/../shared/corpus}/mjlog"
    [ -d "$corpus" ] || skip "no dataset given and no corpus at $corpus (set HAIFU_CORPUS, or give a dataset)"
    t=$(now)
    "$HAIFU" ingest "$corpus" --out "$tmp/dataset" >"$tmp/logs/ingest.log" 2>&1 \
        || { tail -20 "$tmp/logs/ingest.log"; fail "haifu ingest $corpus failed"; }
    dataset="$tmp/dataset"
    echo "$me: ingested $corpus into $dataset in $(since "$t") s"
fi
[ -d "$dataset/decisions" ] || fail "$dataset is not a dataset written by haifu ingest (no decisions/)"
dataset="$(cd "$dataset" && pwd -P)"

years=($(ls -1 "$dataset/decisions" | sed -n 's/^year=\([0-9][0-9]*\)$/\1/p' | sort -n))
before=() after=()
for y in "${years[@]}"; do
    if [ "$y" -le "$SPLIT_YEAR" ]; then before+=("$y"); else after+=("$y"); fi
done
if [ "${SMALL:-0}" = 1 ]; then
    [ ${#before[@]} -ge 2 ] && before=("${before[@]: -2}")
    [ ${#after[@]} -ge 1 ] && after=("${after[0]}")
fi
join() { local IFS=,; echo "$*"; }
MINE_YEARS="${MINE_YEARS:-$(join "${before[@]}")}"
EVAL_YEARS="${EVAL_YEARS:-$(join "${after[@]}")}"
[ -n "$MINE_YEARS" ] || fail "$dataset has no year up to $SPLIT_YEAR to mine the eval tables from (set MINE_YEARS)"
[ -n "$EVAL_YEARS" ] || fail "$dataset has no year after $SPLIT_YEAR to evaluate on (set EVAL_YEARS)"

# option sets: name|options (SMALL: every set on the two years; the first one's tables serve the eval)
if [ "${SMALL:-0}" = 1 ]; then
    sets=("defaults|--years $MINE_YEARS"
          "won-all-min5|--years $MINE_YEARS --rounds won --strategy-rounds all --min-games 5")
    eval_set="defaults"
else
    sets=("defaults|"
          "won-all-min5|--rounds won --strategy-rounds all --min-games 5"
          "eval-tables|--years $MINE_YEARS")
    eval_set="eval-tables"
fi
echo "$me: dataset $dataset; years ${years[*]}; mode $([ "${SMALL:-0}" = 1 ] && echo SMALL || echo full);" \
     "eval tables from $MINE_YEARS, evaluated on $EVAL_YEARS"

# ---------------------------------------------------------------------------------------------------------------
# the cluster: one master, two workers (1 core, 2 GB each), loopback, free ports

read -r master_port master_ui w1_port w1_ui w2_port w2_ui < <("$PY" - <<'EOF'
import socket
socks = [socket.socket() for _ in range(6)]
for s in socks:
    s.bind(("127.0.0.1", 0))
print(" ".join(str(s.getsockname()[1]) for s in socks))
for s in socks:
    s.close()
EOF
)
export SPARK_HOME
export SPARK_CONF_DIR="$tmp/conf" SPARK_LOG_DIR="$tmp/logs" SPARK_LOCAL_DIRS="$tmp/local" SPARK_PID_DIR="$tmp"
export SPARK_LOCAL_IP=127.0.0.1 SPARK_PUBLIC_DNS=127.0.0.1
export SPARK_DAEMON_JAVA_OPTS="$marker"
export SPARK_DAEMON_MEMORY=512m
export PYSPARK_PYTHON="$PY" PYSPARK_DRIVER_PYTHON="$PY"
unset PYSPARK_GATEWAY_PORT PYSPARK_GATEWAY_SECRET
master="spark://127.0.0.1:$master_port"

t=$(now)
"$SPARK_HOME/bin/spark-class" org.apache.spark.deploy.master.Master \
    --host 127.0.0.1 --port "$master_port" --webui-port "$master_ui" >"$tmp/logs/master.log" 2>&1 &
started+=("master $!")
for n in 1 2; do
    port_var="w${n}_port" ui_var="w${n}_ui"
    "$SPARK_HOME/bin/spark-class" org.apache.spark.deploy.worker.Worker \
        --host 127.0.0.1 --port "${!port_var}" --webui-port "${!ui_var}" --cores 1 --memory 2g \
        --work-dir "$tmp/work$n" "$master" >"$tmp/logs/worker$n.log" 2>&1 &
    started+=("worker$n $!")
done
echo "$me: started master (pid ${started[0]#* }, $master, UI :$master_ui), workers (pids ${started[1]#* }, ${started[2]#* })"

logs_tail() {
    local f
    for f in "$@"; do
        echo "---- $f (last 15 lines)"
        tail -15 "$f" 2>/dev/null | cut -c1-300
    done
}
alive_workers() {
    "$PY" - "$master_ui" <<'EOF' 2>/dev/null || echo 0
import json, sys, urllib.request
with urllib.request.urlopen(f"http://127.0.0.1:{sys.argv[1]}/json/", timeout=2) as r:
    d = json.load(r)
print(sum(1 for w in d.get("workers", []) if w.get("state") == "ALIVE"))
EOF
}
deadline=$(( $(date +%s) + 120 ))
while :; do
    n="$(alive_workers)"
    [ "$n" = 2 ] && break
    for entry in "${started[@]}"; do
        kill -0 "${entry#* }" 2>/dev/null || { logs_tail "$tmp"/logs/*.log; fail "${entry% *} exited while the cluster was starting"; }
    done
    [ "$(date +%s)" -lt "$deadline" ] || { logs_tail "$tmp"/logs/*.log; fail "only $n of 2 workers registered with $master in 120 s"; }
    sleep 1
done
echo "$me: cluster up, 2 workers registered, in $(since "$t") s"

# ---------------------------------------------------------------------------------------------------------------
# the job on the cluster and haifu mine, per option set

submit() {  # submit NAME EXECUTOR_PYTHON SCRIPT ARGS...: stdout into $tmp/out/NAME.out, the rest the log
    local name="$1" executor_python="$2" script="$3" pid rc deadline
    shift 3
    "$SPARK_HOME/bin/spark-submit" --master "$master" --name "haifu-test-$name" \
        --driver-memory 1g --driver-java-options "$marker" \
        --executor-memory 1g --total-executor-cores 2 \
        --conf spark.executor.cores=1 \
        --conf "spark.executor.extraJavaOptions=$marker" \
        --conf spark.driver.host=127.0.0.1 --conf spark.driver.bindAddress=127.0.0.1 \
        --conf spark.ui.enabled=false \
        --conf "spark.pyspark.driver.python=$PY" --conf "spark.pyspark.python=$executor_python" \
        --conf spark.eventLog.enabled=true --conf spark.eventLog.compress=false --conf "spark.eventLog.dir=file://$tmp/logs/events" \
        "$script" --shuffle-partitions "$SHUFFLE_PARTITIONS" "$@" \
        >"$tmp/out/$name.out" 2>"$tmp/logs/submit-$name.log" &
    pid=$!
    started+=("submit-$name $pid")
    deadline=$(( $(date +%s) + TIMEOUT_S ))
    while kill -0 "$pid" 2>/dev/null; do
        if [ "$(date +%s)" -ge "$deadline" ]; then
            logs_tail "$tmp/logs/submit-$name.log"
            fail "spark-submit ($name) ran past $TIMEOUT_S s"
        fi
        sleep 1
    done
    wait "$pid"
    rc=$?
    unset 'started[${#started[@]}-1]'
    return "$rc"
}

failures=0
report=()
for entry in "${sets[@]}"; do
    name="${entry%%|*}"
    opts="${entry#*|}"
    # shellcheck disable=SC2086
    t=$(now)
    # the executors get a Python that does not exist: mine.py must run none there
    if ! submit "$name" /nonexistent/python "$here/haifu_spark/mine.py" --dataset "$dataset" \
        --out "$tmp/out/spark-$name" $opts; then
        logs_tail "$tmp/logs/submit-$name.log" "$tmp/logs/worker1.log" "$tmp/logs/worker2.log"
        fail "spark-submit ($name: ${opts:-no options}) failed"
    fi
    spark_s="$(since "$t")"
    t=$(now)
    # shellcheck disable=SC2086
    "$HAIFU" mine --dataset "$dataset" --out "$tmp/out/haifu-$name" $opts >"$tmp/logs/haifu-$name.log" 2>&1 \
        || { logs_tail "$tmp/logs/haifu-$name.log"; fail "haifu mine ($name) failed"; }
    haifu_s="$(since "$t")"
    if "$PY" "$here/compare.py" "$tmp/out/haifu-$name" "$tmp/out/spark-$name" >"$tmp/logs/compare-$name.log" 2>&1; then
        verdict=equal
    else
        verdict=DIFFERENT
        failures=$((failures + 1))
        echo "$me: tables differ for $name (${opts:-no options}):"
        head -40 "$tmp/logs/compare-$name.log"
    fi
    rows="$("$PY" -c 'import json,sys; m=json.load(open(sys.argv[1])); print(m["rows"], "rows,", m["players"], "players")' \
        "$tmp/out/haifu-$name/meta.json" 2>/dev/null)"
    line="$name (${opts:-no options}): tables $verdict; $rows; spark-submit ${spark_s} s, haifu mine ${haifu_s} s"
    report+=("$line")
    echo "$me: $line"
done

# ---------------------------------------------------------------------------------------------------------------
# haifu imitate eval on both engines' tables: the same figures (timing and the tables' path aside)

t=$(now)
for engine in haifu spark; do
    "$HAIFU" imitate eval --dataset "$dataset" --years "$EVAL_YEARS" --tables "$tmp/out/$engine-$eval_set" --json \
        >"$tmp/out/eval-$engine.json" 2>"$tmp/logs/eval-$engine.log" \
        || { logs_tail "$tmp/logs/eval-$engine.log"; fail "haifu imitate eval on the $engine tables failed"; }
done
if "$PY" - "$tmp/out/eval-haifu.json" "$tmp/out/eval-spark.json" <<'EOF'
import json, sys

def load(p):
    d = json.load(open(p, encoding="utf-8"))
    d.pop("timing", None)      # eval_s, load_*_s, evaluated_per_s
    d.pop("tables", None)      # the folder's path
    if isinstance(d.get("tables_options"), dict):
        d["tables_options"].pop("engine", None)
    return d

def diff(a, b, path, out):
    if len(out) >= 10:
        return
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                out.append(f"{path}.{k}: only in {'haifu' if k in a else 'spark'}'s")
            else:
                diff(a[k], b[k], f"{path}.{k}", out)
    elif isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            out.append(f"{path}: {len(a)} items (haifu tables) vs {len(b)} (spark tables)")
        for i, (x, y) in enumerate(zip(a, b)):
            diff(x, y, f"{path}[{i}]", out)
    elif a != b or type(a) is not type(b):
        out.append(f"{path}: {a!r} (haifu tables) vs {b!r} (spark tables)")

a, b = load(sys.argv[1]), load(sys.argv[2])
out = []
diff(a, b, "$", out)
if out:
    print("eval figures differ (first 10):")
    print("\n".join("  " + x for x in out))
    sys.exit(1)
o = a["overall"]
print("eval figures identical: " + ", ".join(
    f"{v} r_first {o[v]['r_first']:.4f} r_top3 {o[v]['r_top3']:.4f} coverage {o[v]['coverage']:.4f}"
    for v in sorted(o)) + f"; {len(a['players'])} players")
EOF
then
    report+=("eval ($eval_set tables, test years $EVAL_YEARS): figures identical; both evals $(since "$t") s")
else
    failures=$((failures + 1))
    report+=("eval ($eval_set tables, test years $EVAL_YEARS): figures DIFFERENT")
fi

# imitate eval on Spark (evaluate.py, its executors rank with the venv's pyarrow) beside haifu's, on the Spark
# tables, with the strategy estimated per round (the mode with the most of its own logic)
t=$(now)
if ! submit eval-estimated "$PY" "$here/haifu_spark/evaluate.py" --dataset "$dataset" \
    --tables "$tmp/out/spark-$eval_set" --years "$EVAL_YEARS" --strategy estimated --json; then
    logs_tail "$tmp/logs/submit-eval-estimated.log"
    fail "spark-submit of evaluate.py failed"
fi
"$HAIFU" imitate eval --dataset "$dataset" --years "$EVAL_YEARS" --tables "$tmp/out/spark-$eval_set" \
    --strategy estimated --json >"$tmp/out/eval-estimated-haifu.json" 2>"$tmp/logs/eval-estimated-haifu.log" \
    || { logs_tail "$tmp/logs/eval-estimated-haifu.log"; fail "haifu imitate eval --strategy estimated failed"; }
if "$PY" "$here/haifu_spark/compare_eval.py" "$tmp/out/eval-estimated-haifu.json" "$tmp/out/eval-estimated.out" \
    >"$tmp/logs/compare-eval-estimated.log"; then
    report+=("evaluate.py on Spark (--strategy estimated, test years $EVAL_YEARS): figures identical to haifu's; $(since "$t") s")
else
    cat "$tmp/logs/compare-eval-estimated.log"
    failures=$((failures + 1))
    report+=("evaluate.py on Spark (--strategy estimated): figures DIFFERENT from haifu's")
fi

echo "$me: summary"
for line in "${report[@]}"; do echo "  $line"; done
[ "$failures" = 0 ] || fail "$failures check(s) differ"
echo "$me: ok: tables equal and eval figures identical (cluster $master, 2 workers)"
