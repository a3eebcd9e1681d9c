#!/usr/bin/env python3
"""The op coverage of `irlint check` over directories of IR files: per layer type, how many layers there are,
how many were inferred and compared (checked), and why the others were not.

    bench/coverage.py --irlint build/irlint DIR... [--markdown]

A file is counted apart when its .bin is missing: its Const data (Reshape targets, axes, ...) is then unknown.
"""
import argparse
import collections
import json
import os
import subprocess
import sys


def layers_of(irlint, path):
    proc = subprocess.run([irlint, "infer", path, "--all", "--format", "json"], capture_output=True, text=True,
                          errors="replace", timeout=300)
    try:
        return json.loads(proc.stdout).get("layers", [])
    except ValueError:
        return []


def reason_of(layer):
    if layer.get("checked"):
        return None
    if layer.get("checked_by_invariants"):
        return "invariants"
    if layer.get("status") == "unsupported":
        return "no inference (unsupported-op)"
    if layer.get("not_checked"):
        return "value unknown: no .bin" if "no .bin" in layer["not_checked"] else "value unknown"
    return "invalid or not compared"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--irlint", required=True)
    ap.add_argument("dirs", nargs="+")
    ap.add_argument("--markdown", action="store_true")
    args = ap.parse_args()
    table = collections.defaultdict(lambda: {"layers": 0, "checked": 0, "why": collections.Counter()})
    # has .bin -> [layers other than Parameter/Const/Result, checked fully, checked by invariants]
    totals = {True: [0, 0, 0], False: [0, 0, 0]}
    for d in args.dirs:
        for name in sorted(os.listdir(d)):
            if not name.endswith(".xml"):
                continue
            path = os.path.join(d, name)
            has_bin = os.path.exists(path[:-4] + ".bin")
            for layer in layers_of(args.irlint, path):
                row = table[layer["type"]]
                row["layers"] += 1
                why = reason_of(layer)
                if why:
                    row["why"][why] += 1
                else:
                    row["checked"] += 1
                if layer["type"] not in ("Parameter", "Const", "Result"):
                    totals[has_bin][0] += 1
                    totals[has_bin][1] += why is None
                    totals[has_bin][2] += why == "invariants"
    rows = sorted(table.items(), key=lambda kv: -kv[1]["layers"])
    sep = " | " if args.markdown else "  "
    if args.markdown:
        print("| type | layers | checked | not checked, why |\n|---|---|---|---|")
    for t, r in rows:
        why = ", ".join(f"{n} {w}" for w, n in r["why"].most_common())
        line = sep.join([t, str(r["layers"]), str(r["checked"]), why or "-"])
        print(f"| {line} |" if args.markdown else line)
    for has_bin, (n, c, by_invariants) in totals.items():
        share = f"{100.0 * c / n:.1f} %" if n else "-"
        both = f"{100.0 * (c + by_invariants) / n:.1f} %" if n else "-"
        print(f"files {'with' if has_bin else 'without'} their .bin: {c} of {n} layers other than "
              f"Parameter/Const/Result checked ({share}), {by_invariants} more by invariants ({both} in all)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
