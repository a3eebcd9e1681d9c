#!/usr/bin/python3
"""ONNX's backend node tests for the pooling operators, read directly: `irlint check` and `infer` on each
model.onnx, then `irlint run` of its pooling node on every test_data_set_*/input_0.pb against output_*.pb.

A pooling node fed by another node (PyTorch's 1D pools are Unsqueeze -> AveragePool -> Squeeze) gets its
input and expected output through NumPy, from the Unsqueeze axes; that needs the onnx Python module."""

import argparse
import glob
import json
import os
import subprocess
import sys
import tempfile

POOL_TYPES = {"AveragePool", "MaxPool", "GlobalAveragePool", "GlobalMaxPool"}


def run(irlint, *args):
    p = subprocess.run([irlint, *args], capture_output=True, text=True, timeout=120)
    return p.returncode, p.stdout, p.stderr


def case_dirs(data):
    node = sorted(glob.glob(os.path.join(data, "node", "test_*pool*")))
    torch = sorted(glob.glob(os.path.join(data, "pytorch-converted", "test_*Pool*")))
    return [d for d in node + torch if os.path.isfile(os.path.join(d, "model.onnx"))]


def check_model(irlint, model):
    code, out, err = run(irlint, "check", model, "--format", "json")
    if code != 0:
        return f"check exit {code}: {out[-400:]} {err[-400:]}"
    report = json.loads(out)
    diags = report["files"][0]["diagnostics"]
    if report["summary"]["errors"] or any(d["rule"] == "onnx-shape-inference-mismatch" for d in diags):
        return f"check findings: {diags}"
    if report["files"][0]["checked"] < 1:
        return "check found no pooling node"
    return None


def pool_layer(irlint, model):
    code, out, err = run(irlint, "infer", model, "--format", "json")
    if code != 0:
        return None, f"infer exit {code}: {out[-400:]} {err[-400:]}"
    layers = [l for l in json.loads(out)["layers"] if l["type"] in POOL_TYPES]
    bad = [l for l in layers if l["status"] != "ok"]
    if not layers or bad:
        return None, f"infer: {layers}"
    return layers[0], None


def unsqueeze_axes(model_path, pool_index):
    """The axes of the Unsqueeze feeding the pool (and of the Squeeze after it), or None."""
    try:
        import onnx
    except ImportError:
        return None
    graph = onnx.load(model_path).graph
    pool = graph.node[pool_index]
    for n in graph.node:
        if n.op_type == "Unsqueeze" and n.output[0] == pool.input[0] and n.input[0] == graph.input[0].name:
            for a in n.attribute:
                if a.name == "axes":
                    return list(a.ints)
    return None


def through_unsqueeze(pb_path, axes, out_path):
    import numpy as np
    import onnx
    from onnx import numpy_helper

    t = onnx.TensorProto()
    with open(pb_path, "rb") as f:
        t.ParseFromString(f.read())
    a = numpy_helper.to_array(t)
    for axis in sorted(axes):
        a = np.expand_dims(a, axis)
    np.save(out_path, a)
    return out_path


def data_sets(case):
    return sorted(glob.glob(os.path.join(case, "test_data_set_*")))


def run_case(irlint, case, tmp):
    """None when it passed, ("skip", why) or ("fail", why)."""
    model = os.path.join(case, "model.onnx")
    problem = check_model(irlint, model)
    if problem:
        return ("fail", problem)
    layer, problem = pool_layer(irlint, model)
    if problem:
        return ("fail", problem)
    index = int(layer["id"])
    axes = None
    if index != 0:
        axes = unsqueeze_axes(model, index)
        if axes is None:
            return ("skip", "the pooling node is not fed by the graph input (and no onnx module to unsqueeze it)")
    for ds in data_sets(case):
        inp = os.path.join(ds, "input_0.pb")
        expects = sorted(glob.glob(os.path.join(ds, "output_*.pb")))
        if axes is not None:
            name = os.path.basename(case) + "_" + os.path.basename(ds)
            inp = through_unsqueeze(inp, axes, os.path.join(tmp, name + "_in.npy"))
            expects = [through_unsqueeze(e, axes, os.path.join(tmp, f"{name}_out{i}.npy")) for i, e in enumerate(expects)]
        args = ["run", model, "--layer", str(index), "--input", inp, "--format", "json"]
        for e in expects:
            args += ["--expect", e]
        code, out, err = run(irlint, *args)
        if code != 0:
            return ("fail", f"{os.path.basename(ds)}: run exit {code}: {out[-600:]} {err[-400:]}")
        result = json.loads(out)
        if result["status"] != "ok" or len(result["outputs"]) != len(expects):
            return ("fail", f"{os.path.basename(ds)}: {out[-600:]}")
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--irlint", required=True)
    ap.add_argument("--data", required=True, help="ONNX's test-data root, holding node/ and pytorch-converted/")
    args = ap.parse_args()
    cases = case_dirs(args.data)
    if not cases:
        print("no ONNX pooling test cases found", file=sys.stderr)
        return 1
    passed, skipped, failed = [], [], []
    with tempfile.TemporaryDirectory() as tmp:
        for case in cases:
            name = os.path.relpath(case, args.data)
            if "maxunpool" in name:
                skipped.append((name, "MaxUnpool is not a pooling operator irlint checks"))
                continue
            outcome = run_case(args.irlint, case, tmp)
            if outcome is None:
                passed.append(name)
            elif outcome[0] == "skip":
                skipped.append((name, outcome[1]))
            else:
                failed.append((name, outcome[1]))
    for name, why in skipped:
        print(f"SKIP {name}: {why}")
    for name, why in failed:
        print(f"FAIL {name}: {why}")
    print(f"{len(cases)} cases: {len(passed)} passed, {len(skipped)} skipped, {len(failed)} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
