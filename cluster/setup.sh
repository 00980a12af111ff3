#!/usr/bin/env bash
# Makes the virtual environment of the Spark path (cluster/README.md) at ${CARGO_TARGET_DIR:-/work/target}/cluster-venv
# when it is missing, and installs cluster/requirements.txt into it. Prints the venv's path on its last line.
# Exits 0 with a "skip" line when Java or pip cannot be had (the Spark path is optional).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
venv="${CARGO_TARGET_DIR:-/work/target}/cluster-venv"

if ! command -v java >/dev/null 2>&1; then
    echo "cluster/setup.sh: skip: no java on PATH (Spark 4 needs Java 17 or 21: apt-get install openjdk-17-jre-headless)"
    exit 0
fi
if ! command -v python3 >/dev/null 2>&1; then
    echo "cluster/setup.sh: skip: no python3 on PATH"
    exit 0
fi
if [ ! -x "$venv/bin/python" ]; then
    if ! python3 -m venv "$venv" 2>/dev/null; then
        echo "cluster/setup.sh: skip: python3 -m venv failed (apt-get install python3-venv)"
        rm -rf "$venv"
        exit 0
    fi
fi
if ! "$venv/bin/python" -m pip --version >/dev/null 2>&1; then
    echo "cluster/setup.sh: skip: no pip in $venv"
    exit 0
fi
# quiet when everything is installed already
if ! "$venv/bin/python" -m pip install -q -r "$here/requirements.txt"; then
    echo "cluster/setup.sh: skip: pip could not install $here/requirements.txt (no package registry?)"
    exit 0
fi
echo "$venv"
