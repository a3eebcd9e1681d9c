#!/usr/bin/python3
"""Differential test of irlint against ONNX Runtime (for Node, from npm) on generated single-node models.

Every opset of AveragePool, MaxPool, GlobalAveragePool and GlobalMaxPool that ONNX Runtime implements, over
1D/2D/3D inputs, the element types it has kernels for, ceil_mode, dilations, pads, the four auto_pad values,
count_include_pad and storage_order. For each model:
  - `irlint check` must reject exactly the models ONNX Runtime refuses (session creation or run fails);
  - `irlint run` must give ONNX Runtime's outputs (shape, type, values within the contract's tolerance),
except where irlint follows the ONNX standard and reports the difference as a `runtime-divergence` warning that
names ONNX Runtime (docs/onnx.md). Such a warning's claim is checked in turn: a refusal it announces must
happen, and the spatial dims it says ONNX Runtime gives must be the ones it gives.

A missing ONNX Runtime fails the test, unless IRLINT_SKIP_ORT=1 says to skip it (exit 77).
"""

import argparse
import json
import os
import random
import re
import subprocess
import sys
import tempfile

import numpy as np
import onnx
from onnx import TensorProto, helper

SKIP = 77
# How ONNX Runtime says it has no kernel for a version and type (for float16 it first tries to insert Casts
# to float, which fails on these ops).
NO_KERNEL = ("Could not find an implementation", "InsertedPrecisionFreeCast")
TYPES = {
    "f32": (TensorProto.FLOAT, np.float32, "float32"),
    "f16": (TensorProto.FLOAT16, np.float16, "float16"),
    "f64": (TensorProto.DOUBLE, np.float64, "float64"),
    "i8": (TensorProto.INT8, np.int8, "int8"),
    "u8": (TensorProto.UINT8, np.uint8, "uint8"),
}
TOLERANCE = {"f32": (1e-6, 1e-5), "f64": (1e-6, 1e-5), "f16": (1e-3, 1e-3), "i8": (0, 0), "u8": (0, 0)}
VERSIONS = {
    "AveragePool": [7, 10, 11, 19, 22],  # ONNX Runtime has no AveragePool-1
    "MaxPool": [1, 8, 10, 11, 12, 22],
    "GlobalAveragePool": [1, 22],
    "GlobalMaxPool": [1, 22],
}
INPUTS = {1: [[1, 2, 7], [2, 1, 4]], 2: [[1, 2, 5, 6], [1, 2, 2, 7]], 3: [[1, 1, 4, 5, 3]]}


def has_attr(op, version, attr):
    first = {
        ("AveragePool", "count_include_pad"): 7, ("AveragePool", "ceil_mode"): 10,
        ("AveragePool", "dilations"): 19, ("MaxPool", "storage_order"): 8,
        ("MaxPool", "ceil_mode"): 10, ("MaxPool", "dilations"): 10,
    }.get((op, attr))
    return first is not None and version >= first


def types_for(op, version):
    """The element types ONNX Runtime 1.30 has CPU kernels for (the rest fail with "Could not find an
    implementation"): AveragePool f32/f16, MaxPool-1 f32, MaxPool-8 and later f32/f16/f64 (12 and later also
    i8/u8), the global pools f32 (22 also f16)."""
    if op == "MaxPool":
        return ["f32"] if version < 8 else ["f32", "f16", "f64"] + (["i8", "u8"] if version >= 12 else [])
    if op == "AveragePool":
        return ["f32", "f16"]
    return ["f32", "f16"] if version >= 22 else ["f32"]


class Case:
    def __init__(self, op, version, shape, dtype, attrs, indices=False, note=""):
        self.op, self.version, self.shape, self.dtype = op, version, shape, dtype
        self.attrs, self.indices, self.note = attrs, indices, note
        self.id = ""

    def describe(self):
        attrs = ",".join(f"{k}={v}" for k, v in sorted(self.attrs.items()))
        return f"{self.op}-{self.version} {self.dtype} {self.shape} {attrs}{' +indices' if self.indices else ''}"


def windowed_cases(op, version, rng):
    """A deterministic sample of the attribute space, plus the corners that matter."""
    cases = []
    for rank, shapes in INPUTS.items():
        for k in range(14):
            shape = shapes[k % len(shapes)]
            spatial = shape[2:]
            attrs = {"kernel_shape": [rng.choice([1, 2, 3]) for _ in spatial]}
            if rng.random() < 0.7:
                attrs["strides"] = [rng.choice([1, 2, 3]) for _ in spatial]
            auto_pad = rng.choice(["NOTSET", "NOTSET", "NOTSET", "SAME_UPPER", "SAME_LOWER", "VALID"])
            if auto_pad != "NOTSET":
                attrs["auto_pad"] = auto_pad
            elif rng.random() < 0.7:
                kernel = attrs["kernel_shape"]
                # Mostly pads below the kernel: ONNX Runtime refuses the others (a documented divergence).
                top = [k if rng.random() < 0.1 else k - 1 for k in kernel]
                attrs["pads"] = [rng.randint(0, top[i % len(top)]) for i in range(2 * len(spatial))]
            if has_attr(op, version, "dilations") and rng.random() < 0.5:
                attrs["dilations"] = [rng.choice([1, 2, 3]) for _ in spatial]
            if has_attr(op, version, "ceil_mode") and rng.random() < 0.5:
                attrs["ceil_mode"] = 1
            if has_attr(op, version, "count_include_pad") and rng.random() < 0.5:
                attrs["count_include_pad"] = 1
            indices = op == "MaxPool" and version >= 8 and rng.random() < 0.6
            if indices and has_attr(op, version, "storage_order") and rng.random() < 0.5:
                attrs["storage_order"] = 1
            types = types_for(op, version)
            cases.append(Case(op, version, shape, types[k % len(types)], attrs, indices))
    # The kernel after dilation larger than the padded input (issue's torch export), windows wholly in
    # padding, and attributes the version does not have, in every case where the version allows it.
    if has_attr(op, version, "dilations") and has_attr(op, version, "ceil_mode"):
        cases.append(Case(op, version, [1, 2, 2, 7], "f32", {"kernel_shape": [2, 2], "strides": [2, 1],
                     "pads": [1, 0, 1, 0], "dilations": [4, 2], "ceil_mode": 1}, op == "MaxPool", "dilated-past"))
    if has_attr(op, version, "dilations"):
        cases.append(Case(op, version, [1, 1, 5], "f32", {"kernel_shape": [2], "strides": [2], "dilations": [5]},
                          False, "kernel-one-past-input"))
        if has_attr(op, version, "ceil_mode"):
            cases.append(Case(op, version, [1, 1, 1], "f32", {"kernel_shape": [2], "strides": [3], "dilations": [4],
                              "ceil_mode": 1}, False, "ceil-kernel-past-input"))
    cases.append(Case(op, version, [1, 1, 3, 3], "f32", {"kernel_shape": [2, 2], "strides": [3, 3],
                 "pads": [2, 2, 2, 2]}, op == "MaxPool" and version >= 8, "window-in-padding"))
    cases.append(Case(op, version, [1, 1, 3], "f32", {"kernel_shape": [5]}, False, "kernel-past-input"))
    cases.append(Case(op, version, [1, 1, 4, 4], "f32", {"kernel_shape": [2, 2], "pads": [1, 1, 1, 1],
                 "auto_pad": "SAME_UPPER"}, False, "pads-with-auto-pad"))
    if has_attr(op, version, "ceil_mode"):
        cases.append(Case(op, version, [1, 1, 5], "f32", {"kernel_shape": [2], "strides": [2], "pads": [1, 1],
                     "ceil_mode": 1}, False, "ceil-window-in-right-padding"))
        cases.append(Case(op, version, [1, 1, 6], "f32", {"kernel_shape": [3], "strides": [2], "pads": [1, 1],
                     "ceil_mode": 1, **({"count_include_pad": 1} if has_attr(op, version, "count_include_pad")
                                         else {})}, False, "ceil-overhang"))
    if not has_attr(op, version, "dilations"):
        cases.append(Case(op, version, [1, 1, 6], "f32", {"kernel_shape": [2], "dilations": [2]}, False,
                          "attribute-before-its-version"))
    return cases


def global_cases(op, version):
    cases = []
    for shape in ([1, 2, 7], [2, 3, 4, 5], [1, 2, 3, 2, 4]):
        for dtype in types_for(op, version):
            cases.append(Case(op, version, shape, dtype, {}))
    return cases


def all_cases():
    rng = random.Random(14)
    cases = []
    for op, versions in VERSIONS.items():
        for version in versions:
            if op.startswith("Global"):
                cases += global_cases(op, version)
            else:
                cases += windowed_cases(op, version, rng)
    for i, c in enumerate(cases):
        c.id = f"c{i:04d}"
    return cases


def build_model(c):
    elem, _, _ = TYPES[c.dtype]
    x = helper.make_tensor_value_info("x", elem, c.shape)
    outputs = [helper.make_tensor_value_info("y", elem, None)]
    if c.indices:
        outputs.append(helper.make_tensor_value_info("i", TensorProto.INT64, None))
    node = helper.make_node(c.op, ["x"], [o.name for o in outputs], name="pool", **c.attrs)
    graph = helper.make_graph([node], "g", [x], outputs)
    opset = c.version
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = 10 if opset >= 21 else 8
    return model


def input_data(c, rng):
    _, np_type, _ = TYPES[c.dtype]
    n = int(np.prod(c.shape))
    if c.dtype in ("i8", "u8"):
        info = np.iinfo(np_type)
        return rng.integers(info.min, info.max, size=c.shape, endpoint=True).astype(np_type)
    # Distinct values: no ties, so every maximum has one index.
    return (rng.permutation(n).reshape(c.shape) / 4.0 - n / 8.0).astype(np_type)


def write_cases(cases, work):
    rng = np.random.default_rng(14)
    manifest = {"cases": []}
    for c in cases:
        onnx.save(build_model(c), os.path.join(work, f"{c.id}.onnx"))
        x = input_data(c, rng)
        np.save(os.path.join(work, f"{c.id}.in.npy"), x)
        x.tofile(os.path.join(work, f"{c.id}.in.bin"))
        manifest["cases"].append({"id": c.id, "model": f"{c.id}.onnx",
                                  "input": {"file": f"{c.id}.in.bin", "dims": c.shape, "type": TYPES[c.dtype][2]}})
    with open(os.path.join(work, "manifest.json"), "w") as f:
        json.dump(manifest, f)


def run_ort(node, ort_dir, work):
    results = os.path.join(work, "ort.json")
    proc = subprocess.run([node, os.path.join(os.path.dirname(__file__), "ort_runner.js"), ort_dir,
                           os.path.join(work, "manifest.json"), results], capture_output=True, text=True, timeout=600)
    if proc.returncode != 0:
        sys.exit(f"FAIL: ONNX Runtime runner: {proc.stderr.strip()}")
    with open(results) as f:
        return json.load(f)


def irlint_check(irlint, work, cases):
    proc = subprocess.run([irlint, "check", "--format", "json", "--fail-on", "never"] +
                          [os.path.join(work, f"{c.id}.onnx") for c in cases],
                          capture_output=True, text=True, timeout=300)
    if proc.returncode != 0:
        sys.exit(f"FAIL: irlint check exited {proc.returncode}: {proc.stderr.strip()}")
    report = json.loads(proc.stdout)
    return {os.path.basename(f["path"])[:-5]: f["diagnostics"] for f in report["files"]}


def irlint_run(irlint, work, c):
    saves = [os.path.join(work, f"{c.id}.irlint{i}.npy") for i in range(2 if c.indices else 1)]
    args = [irlint, "run", os.path.join(work, f"{c.id}.onnx"), "--layer", "pool",
            "--input", os.path.join(work, f"{c.id}.in.npy"), "--format", "json"]
    for s in saves:
        args += ["--save", s]
    proc = subprocess.run(args, capture_output=True, text=True, timeout=60)
    if proc.returncode not in (0, 1):
        return None, f"irlint run exited {proc.returncode}: {proc.stderr.strip()}"
    try:
        report = json.loads(proc.stdout)
    except json.JSONDecodeError:
        return None, f"irlint run gave no JSON: {proc.stderr.strip()}"
    if report.get("status") == "error" or not all(os.path.exists(s) for s in saves):
        return None, f"irlint run failed: {report.get('error', proc.stderr.strip())}"
    return [np.load(s) for s in saves], ""


ORT_NUMPY = {"float32": np.float32, "float64": np.float64, "float16": np.float16, "int8": np.int8,
             "uint8": np.uint8, "int64": np.int64}


def ort_outputs(work, result):
    outs = []
    for o in result["outputs"]:
        data = np.fromfile(os.path.join(work, o["file"]), dtype=ORT_NUMPY[o["type"]])
        outs.append(data.reshape(o["dims"]))
    return outs


def compare(c, ours, theirs):
    """The first difference between irlint's and ONNX Runtime's outputs, or ''."""
    atol, rtol = TOLERANCE[c.dtype]
    for i, (a, b) in enumerate(zip(ours, theirs)):
        if a.dtype != b.dtype:
            return f"output {i}: irlint {a.dtype}, ONNX Runtime {b.dtype}"
        if a.shape != b.shape:
            return f"output {i}: irlint shape {list(a.shape)}, ONNX Runtime {list(b.shape)}"
        if a.size == 0:
            continue
        if i == 0 and c.dtype not in ("i8", "u8"):
            a64, b64 = a.astype(np.float64), b.astype(np.float64)
            ok = (np.abs(a64 - b64) <= atol + rtol * np.abs(b64)) | (np.isnan(a64) & np.isnan(b64)) | (a64 == b64)
        else:
            ok = a == b
        if not ok.all():
            where = tuple(int(v) for v in np.argwhere(~ok)[0])
            return f"output {i} at {list(where)}: irlint {a[where]}, ONNX Runtime {b[where]}"
    return ""


def errors_of(diags):
    return [d for d in diags if d["severity"] == "error"]


def ort_divergences(diags):
    return [d for d in diags if d["rule"] == "runtime-divergence" and "ONNX Runtime" in d["message"]]


def claimed_dims(diags):
    """The spatial dims a runtime-divergence says ONNX Runtime gives, or None."""
    for d in ort_divergences(diags):
        m = re.search(r"ONNX Runtime gives the spatial dims \[([0-9,]*)\]", d["message"])
        if m:
            return [int(v) for v in m.group(1).split(",")]
    return None


def claims_rejection(diags):
    """True or False where irlint says whether ONNX Runtime refuses the node; None where it says it may."""
    if any("some of its kernels fail" in d["message"] for d in ort_divergences(diags)):
        return None
    return any("ONNX Runtime rejects" in d["message"] for d in ort_divergences(diags))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--irlint", required=True)
    ap.add_argument("--ort-dir", required=True, help="the folder npm installed onnxruntime-node into")
    ap.add_argument("--node", default="node")
    ap.add_argument("--keep", help="write the models and results here instead of a temporary folder")
    args = ap.parse_args()

    package = os.path.join(args.ort_dir, "node_modules", "onnxruntime-node")
    if not os.path.exists(os.path.join(package, "package.json")):
        message = (f"ONNX Runtime for Node is not installed in {args.ort_dir}: run scripts/setup_ort.sh "
                   f"{args.ort_dir} (needs npm)")
        if os.environ.get("IRLINT_SKIP_ORT") == "1":
            print(f"SKIP: {message} (IRLINT_SKIP_ORT=1)")
            return SKIP
        print(f"FAIL: {message}; set IRLINT_SKIP_ORT=1 to skip this test on purpose")
        return 1

    if args.keep:
        os.makedirs(args.keep, exist_ok=True)
        return differential(args, args.keep)
    with tempfile.TemporaryDirectory(prefix="irlint-ort-") as work:
        return differential(args, work)


def differential(args, work):
    cases = all_cases()
    write_cases(cases, work)
    package = os.path.join(args.ort_dir, "node_modules", "onnxruntime-node")
    ort = run_ort(args.node, package, work)
    checks = irlint_check(args.irlint, work, cases)

    failures = []
    no_kernel = set()
    counts = {"models": len(cases), "both accept": 0, "both reject": 0, "acceptance differs, documented": 0,
              "outputs compared": 0, "outputs equal": 0, "outputs differ, documented": 0, "no kernel": 0}
    for c in cases:
        result = ort["cases"][c.id]
        diags = checks.get(c.id, [])
        if not result["ran"] and any(m in result.get("error", "") for m in NO_KERNEL):
            counts["no kernel"] += 1  # ONNX Runtime has no kernel for this version and type: nothing to compare
            no_kernel.add(f"{c.op}-{c.version} {c.dtype}")
            continue
        errors = errors_of(diags)
        claim = claims_rejection(diags)
        if claim is not None and claim == result["ran"] and not (errors and not result["ran"]):
            failures.append(f"{c.id} {c.describe()}: irlint says ONNX Runtime "
                            f"{'rejects' if result['ran'] else 'runs'} it, it does not")
            continue
        dims = claimed_dims(diags)
        if result["ran"] and dims is not None and dims != result["outputs"][0]["dims"][2:]:
            failures.append(f"{c.id} {c.describe()}: irlint says ONNX Runtime gives the spatial dims {dims}, "
                            f"it gives {result['outputs'][0]['dims'][2:]}")
            continue
        if bool(errors) == result["ran"]:
            if ort_divergences(diags):
                counts["acceptance differs, documented"] += 1
            elif result["ran"]:
                failures.append(f"{c.id} {c.describe()}: irlint rejects, ONNX Runtime runs it: {errors[0]['message']}")
            else:
                failures.append(f"{c.id} {c.describe()}: irlint accepts, ONNX Runtime fails: {result['error']}")
            continue
        if not result["ran"]:
            counts["both reject"] += 1
            continue
        counts["both accept"] += 1
        ours, error = irlint_run(args.irlint, work, c)
        if ours is None:
            failures.append(f"{c.id} {c.describe()}: {error}")
            continue
        theirs = ort_outputs(work, result)
        counts["outputs compared"] += len(ours)
        difference = compare(c, ours, theirs)
        if not difference:
            counts["outputs equal"] += len(ours)
        elif ort_divergences(diags):
            counts["outputs differ, documented"] += 1
        else:
            failures.append(f"{c.id} {c.describe()}: {difference}")

    print(f"ONNX Runtime {ort['version']}: " + ", ".join(f"{k} {v}" for k, v in counts.items()))
    if no_kernel:
        print("no ONNX Runtime kernel:", ", ".join(sorted(no_kernel)))
    for f in failures:
        print("FAIL:", f)
    if counts["both accept"] < 200 or counts["outputs equal"] < 250:
        failures.append("too few models ran")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
