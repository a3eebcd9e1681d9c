#!/usr/bin/python3
"""`irlint run --data` on the pooling layers of real OpenVINO IR files (the shared realir/ corpus).

    realir_run_test.py --irlint build/irlint --dir ../shared/realir

For every .xml in DIR whose pooling layers `irlint infer` finds consistent, with static input dims of at most
MAX_ELEMENTS elements: a random input of the declared shape and precision is written as DIR/<layer-id>.in0.npy,
and the expected outputs come from irlint's own reference (`run --layer ID --input ... --save ...`). The indices
of MaxPool-8 layers are dumped for every other layer only, so a layer with two output ports is run both with and
without its .out1.npy. Then, per file:
  - `run --data` runs exactly the dumped layers, every one ok (exit 0); each output is compared exactly when
    its file is there ("compared": false otherwise), and a layer reports as many outputs as it declares ports;
  - one element of one layer's expected output (the indices, where that layer has them dumped) is changed:
    exactly that layer mismatches, at that element, and every other layer is ok (exit 1).
Prints one line per failure, a table of the files run and `N files, M failures`; exits 1 on any failure.
"""
import argparse
import json
import os
import shutil
import sys
import tempfile
import xml.etree.ElementTree as ET

import numpy as np

import irlint_process

POOL_TYPES = ("AvgPool", "MaxPool", "AdaptiveAvgPool", "AdaptiveMaxPool")
MAX_ELEMENTS = 1 << 22  # the larger 5D layers of i3d would add hundreds of MB of dumps
MIN_FILES, MIN_LAYERS = 10, 60
PRECISIONS = {"FP32": np.float32, "F32": np.float32, "FP16": np.float16, "F16": np.float16,
              "FP64": np.float64, "F64": np.float64}
TIMEOUT = 120
FAILURES = []


def check(name, condition, detail=""):
    if not condition:
        FAILURES.append(f"{name}: {detail}")
    return condition


def irlint_json(irlint, args):
    code, out, err = irlint_process.run(irlint, args + ["--format", "json"], TIMEOUT)
    try:
        return code, json.loads(out), err
    except (TypeError, ValueError):
        return code, None, err


def input_precisions(path):
    """layer id -> the element type of its first input, for the pooling layers of the file: the port's
    precision, else (IR v10 ports may have none) the producer's output port or its element_type."""
    root = ET.parse(path).getroot()
    layers = {layer.get("id"): layer for layer in root.iter("layer")}
    edges = {(e.get("to-layer"), e.get("to-port")): (e.get("from-layer"), e.get("from-port")) for e in root.iter("edge")}

    def producer_precision(lid, pid):
        source = edges.get((lid, pid))
        producer = layers.get(source[0]) if source else None
        if producer is None:
            return "FP32"
        for out in producer.iterfind("output/port"):
            if out.get("id") == source[1] and out.get("precision"):
                return out.get("precision")
        data = producer.find("data")
        return data.get("element_type", "f32") if data is not None else "FP32"

    found = {}
    for lid, layer in layers.items():
        if layer.get("type") not in POOL_TYPES:
            continue
        port = layer.find("input/port")
        if port is not None:
            found[lid] = (port.get("precision") or producer_precision(lid, port.get("id"))).upper()
    return found


def runnable_layers(irlint, path):
    """The pooling layers to dump: consistent (status ok), static input dims, a known precision, small enough."""
    code, report, err = irlint_json(irlint, ["infer", path])
    if report is None or report.get("status") == "error":  # not an IR irlint reads (realir_test.py checks those)
        return None, None if code == 1 and err.strip() else f"infer: exit {code} {err.strip()[:200]}"
    precisions = input_precisions(path)
    layers = []
    for layer in report["layers"]:
        if layer["type"] not in POOL_TYPES or layer["status"] != "ok" or not layer["inputs"]:
            continue
        dims = layer["inputs"][0]
        dtype = PRECISIONS.get(precisions.get(layer["id"], ""))
        if dtype is None or not all(isinstance(d, int) and d >= 0 for d in dims) or np.prod(dims) > MAX_ELEMENTS:
            continue
        layers.append(dict(layer, dims=dims, dtype=dtype, outputs=len(layer["declared"])))
    return layers, None


def dump(irlint, path, layers, data_dir, rng):
    """Writes the inputs and the reference outputs; returns {layer id: the output files written}."""
    written = {}
    indices_seen = 0
    for layer in layers:
        lid = layer["id"]
        x = rng.standard_normal(layer["dims"]).astype(layer["dtype"])
        np.save(os.path.join(data_dir, f"{lid}.in0.npy"), x)
        saves = [os.path.join(data_dir, f"{lid}.out{k}.npy") for k in range(layer["outputs"])]
        args = ["run", path, "--layer", lid, "--input", os.path.join(data_dir, f"{lid}.in0.npy")]
        for s in saves:
            args += ["--save", s]
        code, report, err = irlint_json(irlint, args)
        if not check(f"{os.path.basename(path)} layer {lid}: --save", code == 0 and report and report["status"] == "not-compared",
                     f"exit {code} {err.strip()[:200]} {report and report.get('error')}"):
            continue
        files = len(saves)
        if files > 1:  # every other layer with indices keeps them: the rest run without .out1.npy
            if indices_seen % 2:
                os.remove(saves[1])
                files = 1
            indices_seen += 1
        written[lid] = files
    return written


def check_run(irlint, name, path, data_dir, layers, written):
    code, report, err = irlint_json(irlint, ["run", path, "--data", data_dir])
    if not check(f"{name}: run --data", code == 0 and report is not None,
                 f"exit {code} {err.strip()[:200]} "
                 f"{report and [(r['layer']['id'], r.get('error') or r['status']) for r in report['runs']][:4]}"):
        return 0
    n = len(written)
    check(f"{name}: summary", report["summary"] == {"layers": n, "ok": n, "mismatch": 0, "error": 0,
                                                               "not_compared": 0}, report["summary"])
    ports = {layer["id"]: layer["outputs"] for layer in layers}
    for r in report["runs"]:
        lid = r["layer"]["id"]
        if not check(f"{name}: layer {lid} dumped", lid in written, "run without dumps"):
            continue
        compared = [o["compared"] for o in r["outputs"]]
        check(f"{name}: layer {lid} outputs", len(compared) == ports[lid], f"{len(compared)}, declared {ports[lid]}")
        check(f"{name}: layer {lid} compared", compared == [k < written[lid] for k in range(ports[lid])], compared)
    return len(report["runs"])


def check_planted(irlint, name, path, data_dir, written, work):
    """One element changed in one layer's expected output: only that layer mismatches, at that element."""
    planted_dir = os.path.join(work, "planted")
    shutil.copytree(data_dir, planted_dir)
    ids = list(written)
    lid = ids[len(ids) // 2]
    k = written[lid] - 1  # the indices where they are dumped, else the values
    target = os.path.join(planted_dir, f"{lid}.out{k}.npy")
    expected = np.load(target)
    position = np.unravel_index(expected.size * 2 // 3, expected.shape)
    expected[position] += 1 if k == 1 else 1 + abs(expected[position])
    np.save(target, expected)
    code, report, err = irlint_json(irlint, ["run", path, "--data", planted_dir])
    if not check(f"{name}: planted run", code == 1 and report is not None, f"exit {code} {err.strip()[:200]}"):
        return
    statuses = {r["layer"]["id"]: r["status"] for r in report["runs"]}
    check(f"{name}: planted statuses", statuses == {i: "mismatch" if i == lid else "ok" for i in written},
          {i: s for i, s in statuses.items() if s != "ok"})
    hit = next((r for r in report["runs"] if r["layer"]["id"] == lid), None)
    if check(f"{name}: planted layer", hit and len(hit["outputs"]) > k, hit and (hit.get("error") or hit["status"])):
        out = hit["outputs"][k]
        check(f"{name}: planted count", out["mismatches"] == 1, out["mismatches"])
        check(f"{name}: planted position", out["first_mismatch"] and
              out["first_mismatch"]["index"] == [int(p) for p in position], out["first_mismatch"])
        others = [o["mismatches"] for j, o in enumerate(hit["outputs"]) if j != k]
        check(f"{name}: planted layer's other outputs", all(m == 0 for m in others), others)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--irlint", required=True)
    ap.add_argument("--dir", required=True, help="directory of real IR .xml files")
    args = ap.parse_args()
    irlint = os.path.abspath(args.irlint)
    rng = np.random.default_rng(19)
    table = []
    with tempfile.TemporaryDirectory(prefix="irlint-realir-run-") as work:
        for name in sorted(n for n in os.listdir(args.dir) if n.endswith(".xml")):
            path = os.path.join(args.dir, name)
            try:
                layers, problem = runnable_layers(irlint, path)
                check(name, problem is None, problem)
                if not layers:
                    continue
                file_work = os.path.join(work, name)
                data_dir = os.path.join(file_work, "data")
                os.makedirs(data_dir)
                written = dump(irlint, path, layers, data_dir, rng)
                if not written:
                    continue
                ran = check_run(irlint, name, path, data_dir, layers, written)
                check_planted(irlint, name, path, data_dir, written, file_work)
                shutil.rmtree(file_work)
            except Exception as e:  # a problem with one file fails it, the others still run
                check(name, False, f"{type(e).__name__}: {e}")
                continue
            kinds = sorted({f"{layer['type']}-{layer['version']}" for layer in layers if layer["id"] in written})
            table.append((name, ran, len(layers), ", ".join(kinds)))
    print(f"{'file':<48} {'layers run':>10}  ops")
    for name, ran, _, kinds in table:
        print(f"{name:<48} {ran:>10}  {kinds}")
    total = sum(row[1] for row in table)
    check("corpus", len(table) >= MIN_FILES and total >= MIN_LAYERS,
          f"{len(table)} files, {total} layers run; expected at least {MIN_FILES} and {MIN_LAYERS}")
    for f in FAILURES:
        print("FAIL", f)
    print(f"{len(table)} files, {total} layers run, {len(FAILURES)} failures")
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
