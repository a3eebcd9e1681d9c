#!/usr/bin/env python3
"""How much of real IRs `irlint check` checks, with and without their .bin: per op type, layers checked fully,
by invariants only, or not at all, and (--plant) whether a wrong dim planted on one layer of each type is found.

    bench/coverage.py --irlint build/irlint DIR... [--plant [--misses]] [--seed S] [--markdown]

Each .xml of each DIR is measured twice: as it is when its .bin is beside it ("with .bin"), and copied alone
into a temporary directory ("without .bin"), so that its Const data (Reshape targets, axes, ...) is unknown.
Layers are counted from `irlint infer --all --format json`: `checked` is a full check, `checked_by_invariants`
(status `invariants`) a check by invariants only; every other layer is not checked. Parameter, Const and
Result are left out of the totals ("op layers").

--plant: for every op type with inference in a file, one of its layers, chosen at random, gets +1 on one static
output dim (and on the input ports its edges feed), with the planting code of tests/e2e/realir_planted_test.py;
the plant is found when `irlint check` reports output-shape-mismatch on that layer; --misses lists the others
with what was reported instead.
"""
import argparse
import collections
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "e2e"))
import realir_planted_test  # noqa: E402  (plant(): the +1 and the edges it feeds)

TIMEOUT_SECONDS = 300
IR_OWN_TYPES = {"Parameter", "Const", "Result"}
MODES = ("with .bin", "without .bin")
HOW = ("full", "invariants", "not")


def irlint_json(irlint, args):
    proc = subprocess.run([irlint, *args, "--format", "json"], capture_output=True, text=True, errors="replace",
                          timeout=TIMEOUT_SECONDS)
    try:
        return json.loads(proc.stdout)
    except ValueError:
        return {}


def how_checked(layer):
    if layer.get("checked"):
        return "full"
    if layer.get("checked_by_invariants") or layer.get("status") == "invariants":
        return "invariants"
    return "not"


def op_layers(irlint, path):
    """(id, type, how) of each layer other than Parameter, Const and Result."""
    layers = irlint_json(irlint, ["infer", path, "--all"]).get("layers", [])
    return [(layer["id"], layer["type"], how_checked(layer), layer.get("status")) for layer in layers
            if layer["type"] not in IR_OWN_TYPES]


def plant_one(irlint, path, text, layer_id, layer_type, rng, work, misses):
    """True when a +1 planted on LAYER_ID is found on it; None when the layer has no static dim to plant on."""
    planted = realir_planted_test.plant(text, layer_id, rng)
    if not planted:
        return None
    target = os.path.join(work, "planted.xml")
    with open(target, "w", encoding="utf-8") as f:
        f.write(planted[0])
    bin_path = path[:-4] + ".bin"
    if os.path.exists(bin_path):
        shutil.copyfile(bin_path, target[:-4] + ".bin")
    report = irlint_json(irlint, ["check", target, "--min-severity", "warning"])
    diagnostics = report.get("files", [{}])[0].get("diagnostics", []) if report.get("files") else []
    for name in os.listdir(work):
        os.remove(os.path.join(work, name))
    found = any(d.get("rule") == "output-shape-mismatch" and d.get("layer_id") == layer_id for d in diagnostics)
    if not found and misses is not None:
        elsewhere = sorted({f"{d.get('rule')} on {d.get('layer_id')}" for d in diagnostics})
        misses.append(f"{os.path.basename(path)}: {layer_type} layer {layer_id} port {planted[1]} dim {planted[2]}: "
                      f"found {', '.join(elsewhere) or 'nothing'}")
    return found


def plant_types(irlint, path, layers, rng, work, tally, misses):
    """One plant per op type with inference; counted in TALLY[type] = [planted, found]."""
    by_type = collections.defaultdict(list)
    for layer_id, layer_type, _, status in layers:
        if status != "unsupported":
            by_type[layer_type].append(layer_id)
    with open(path, encoding="utf-8") as f:
        text = f.read()
    for layer_type in sorted(by_type):
        found = plant_one(irlint, path, text, rng.choice(by_type[layer_type]), layer_type, rng, work,
                           misses)
        if found is None:
            continue
        tally[layer_type][0] += 1
        tally[layer_type][1] += found


def xml_files(dirs):
    for d in dirs:
        for name in sorted(os.listdir(d)):
            if name.endswith(".xml"):
                yield os.path.join(d, name)


def measure(args):
    """counts[mode][type][how], plants[mode][type] = [planted, found], files[mode]."""
    counts = {m: collections.defaultdict(collections.Counter) for m in MODES}
    plants = {m: collections.defaultdict(lambda: [0, 0]) for m in MODES}
    files = collections.Counter()
    misses = {m: [] if args.misses else None for m in MODES}
    with tempfile.TemporaryDirectory(prefix="irlint-coverage-") as tmp:
        alone_dir, work = os.path.join(tmp, "alone"), os.path.join(tmp, "work")
        os.makedirs(alone_dir)
        os.makedirs(work)
        for path in xml_files(args.dirs):
            alone = os.path.join(alone_dir, os.path.basename(path))
            shutil.copyfile(path, alone)
            runs = [("without .bin", alone)]
            if os.path.exists(path[:-4] + ".bin"):
                runs.insert(0, ("with .bin", path))
            for mode, target in runs:
                files[mode] += 1
                layers = op_layers(args.irlint, target)
                for _, layer_type, how, _ in layers:
                    counts[mode][layer_type][how] += 1
                if args.plant:
                    rng = random.Random(f"{args.seed}:{mode}:{os.path.basename(path)}")
                    plant_types(args.irlint, target, layers, rng, work, plants[mode], misses[mode])
            os.remove(alone)
    return counts, plants, files, misses


def percent(n, total):
    return f"{100.0 * n / total:.1f} %" if total else "-"


def print_table(header, rows, markdown):
    if markdown:
        print("| " + " | ".join(header) + " |")
        print("|" + "---|" * len(header))
        for row in rows:
            print("| " + " | ".join(str(c) for c in row) + " |")
        return
    widths = [max(len(str(r[c])) for r in [header, *rows]) for c in range(len(header))]
    for row in [header, *rows]:
        print("  ".join(str(c).ljust(w) if i == 0 else str(c).rjust(w) for i, (c, w) in enumerate(zip(row, widths))))


def report(counts, plants, files, args):
    types = sorted({t for m in MODES for t in counts[m]}, key=lambda t: -sum(counts[MODES[1]][t].values()))
    header = ["type"]
    for m in MODES:
        header += [f"{m}: full", "invariants", "not"] + (["planted found"] if args.plant else [])
    rows = []
    for t in types:
        row = [t]
        for m in MODES:
            row += [counts[m][t][h] for h in HOW]
            if args.plant:
                planted, found = plants[m].get(t, (0, 0))
                row.append(f"{found}/{planted}" if planted else "-")
        rows.append(row)
    print_table(header, rows, args.markdown)
    print()
    for m in MODES:
        total = collections.Counter()
        for c in counts[m].values():
            total.update(c)
        n = sum(total.values())
        line = (f"{m}: {files[m]} files, {n} op layers: {total['full']} checked fully ({percent(total['full'], n)}), "
                f"{total['invariants']} by invariants ({percent(total['invariants'], n)}), {total['not']} not "
                f"checked ({percent(total['not'], n)}); checked in all {percent(total['full'] + total['invariants'], n)}")
        if args.plant:
            planted = sum(p[0] for p in plants[m].values())
            found = sum(p[1] for p in plants[m].values())
            line += f"; planted +1 found on its layer: {found} of {planted} ({percent(found, planted)})"
        print(line)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--irlint", required=True)
    ap.add_argument("dirs", nargs="+")
    ap.add_argument("--plant", action="store_true", help="plant a +1 on one layer of each op type per file")
    ap.add_argument("--seed", type=int, default=41)
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--misses", action="store_true", help="list each planted dim not found on its layer")
    args = ap.parse_args()
    args.irlint = os.path.abspath(args.irlint)
    counts, plants, files, misses = measure(args)
    report(counts, plants, files, args)
    for m in MODES if args.misses else ():
        print(f"\nplanted and not found on its layer, {m}:")
        for line in misses[m]:
            print("  " + line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
