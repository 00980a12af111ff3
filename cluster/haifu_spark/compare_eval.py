#!/usr/bin/env python3
"""Compares two `imitate eval --json` outputs (haifu's and evaluate.py's): every key and value, timing left out.
Usage: compare_eval.py A.json B.json (exit 0: equal)."""
import json, sys
a = json.load(open(sys.argv[1])); b = json.load(open(sys.argv[2]))
a.pop("timing"); b.pop("timing")
diffs = []
def walk(x, y, path):
    if isinstance(x, dict) and isinstance(y, dict):
        for k in sorted(set(x) | set(y)):
            if k not in x or k not in y: diffs.append((path + "/" + k, x.get(k, "<missing>"), y.get(k, "<missing>"))); continue
            walk(x[k], y[k], path + "/" + k)
    elif isinstance(x, list) and isinstance(y, list):
        if len(x) != len(y): diffs.append((path, f"len {len(x)}", f"len {len(y)}"))
        for i, (u, v) in enumerate(zip(x, y)): walk(u, v, f"{path}[{i}]")
    elif x != y or type(x) != type(y) and not (isinstance(x,(int,float)) and isinstance(y,(int,float)) and x==y and (isinstance(x,float)==isinstance(y,float))):
        diffs.append((path, x, y))
print(f"{len(diffs)} differences (timing left out)")
for d in diffs[:30]: print(d)
sys.exit(1 if diffs else 0)
