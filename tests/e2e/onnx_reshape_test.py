#!/usr/bin/python3
"""End-to-end checks of `irlint infer` and `irlint infer --reshape` on ONNX models.

    onnx_reshape_test.py --irlint build/irlint [--hostile testdata/hostile] [--data /usr/share/libonnx-testdata/data]

Small models are written with onnx.helper into a temporary directory:
- infer --all: the model at a glance (IR version, producer, opsets, inputs and outputs) and every node with its
  declared and inferred dims.
- conv_pool (Conv, Relu, MaxPool, Flatten, Gemm, declared value_info): identity gives every declared dim back;
  batch 1 -> 4 changes every node, -o writes a model that checks clean and holds the new dims; a 4x4 input breaks
  the 8x8 MaxPool with irlint's arithmetic (reshape-incompatible, exit 1) and -o writes nothing.
- two_breaks: a Reshape with a hard-coded target and a MatMul after a flattening Reshape both break at once:
  both are reported, with the element counts and with the K dims; the Relu after the first is not.
- dynamic: `?` makes the input dim open, and the written model has it without a value (its symbol kept when the
  file had one); a wrong input name and a malformed shape are usage errors.
With --hostile: identity reshape of every .onnx there (no crash, no finding the model as given lacks).
With --data: `infer --all` on every backend test model and identity reshape of those whose inputs are static.
Prints one line per failure and a closing line; exits 1 on any failure, 77 when onnx cannot be imported.
"""
import argparse
import concurrent.futures
import json
import os
import subprocess
import sys
import tempfile
import threading

try:
    import numpy as np
    import onnx
    from onnx import TensorProto, helper, numpy_helper
except ImportError:
    print("onnx_reshape_test: numpy or onnx cannot be imported: skipped")
    sys.exit(77)

IRLINT = None
FAILURES = []
OPEN = [0]  # declared static outputs that identity reshape infers with open dims
LOCK = threading.Lock()


def run(*args, timeout=120):
    return subprocess.run([IRLINT, *[str(a) for a in args]], capture_output=True, text=True, timeout=timeout)


def expect(cond, message):
    if not cond:
        FAILURES.append(message)
    return cond


def value(name, dims, elem=TensorProto.FLOAT):
    return helper.make_tensor_value_info(name, elem, dims)


def save(model, directory, name, infer_value_info=True):
    if infer_value_info:
        model = onnx.shape_inference.infer_shapes(model)
    path = os.path.join(directory, name)
    onnx.save(model, path)
    return path


def conv_pool(directory):
    w = numpy_helper.from_array(np.zeros((8, 3, 3, 3), dtype=np.float32), "w")
    g = numpy_helper.from_array(np.zeros((10, 8 * 25 * 25), dtype=np.float32), "g")
    nodes = [
        helper.make_node("Conv", ["x", "w"], ["c"], name="conv", pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["c"], ["r"], name="relu"),
        helper.make_node("MaxPool", ["r"], ["p"], name="pool", kernel_shape=[8, 8]),
        helper.make_node("Flatten", ["p"], ["f"], name="flatten"),
        helper.make_node("Gemm", ["f", "g"], ["y"], name="fc", transB=1),
    ]
    graph = helper.make_graph(nodes, "conv_pool", [value("x", [1, 3, 32, 32])], [value("y", [1, 10])], [w, g])
    model = helper.make_model(graph, producer_name="onnx_reshape_test", producer_version="1",
                              opset_imports=[helper.make_opsetid("", 13)])
    return save(model, directory, "conv_pool.onnx")


def two_breaks(directory):
    fixed = numpy_helper.from_array(np.array([1, 192], dtype=np.int64), "fixed")
    flat = numpy_helper.from_array(np.array([1, -1], dtype=np.int64), "flat")
    w = numpy_helper.from_array(np.zeros((192, 10), dtype=np.float32), "w")
    nodes = [
        helper.make_node("Reshape", ["x", "fixed"], ["a"], name="fixed_reshape"),
        helper.make_node("Relu", ["a"], ["a2"], name="after_fixed"),
        helper.make_node("Reshape", ["x", "flat"], ["b"], name="flat_reshape"),
        helper.make_node("MatMul", ["b", "w"], ["m"], name="matmul"),
    ]
    graph = helper.make_graph(nodes, "two_breaks", [value("x", [1, 3, 8, 8])],
                              [value("a2", [1, 192]), value("m", [1, 10])], [fixed, flat, w])
    return save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]), directory, "two_breaks.onnx")


def dynamic(directory):
    nodes = [helper.make_node("Relu", ["x"], ["y"], name="relu")]
    graph = helper.make_graph(nodes, "dynamic", [value("x", ["N", 3, 4, 4])], [value("y", ["N", 3, 4, 4])])
    return save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]), directory, "dynamic.onnx")


def infer_json(path, *args):
    proc = run("infer", path, *args, "--format", "json")
    try:
        return proc, json.loads(proc.stdout)
    except json.JSONDecodeError:
        FAILURES.append(f"{path} {args}: not JSON (exit {proc.returncode}): {proc.stdout[:200]} {proc.stderr[:200]}")
        return proc, None


def dims_of(model, name):
    for v in [*model.graph.input, *model.graph.value_info, *model.graph.output]:
        if v.name == name:
            return [d.dim_value if d.HasField("dim_value") else (d.dim_param or "?")
                    for d in v.type.tensor_type.shape.dim]
    return None


def test_infer_all(conv):
    proc, report = infer_json(conv, "--all")
    if not report:
        return
    model = report["model"]
    expect(proc.returncode == 0, f"infer --all conv_pool: exit {proc.returncode}: {proc.stderr[:300]}")
    expect(model.get("producer") == "onnx_reshape_test 1", f"producer: {model.get('producer')}")
    expect(model.get("opsets") == [{"domain": "", "version": 13}], f"opsets: {model.get('opsets')}")
    expect([(v["name"], v["dims"], v["type"]) for v in model["inputs"]] == [("x", [1, 3, 32, 32], "f32")],
           f"inputs: {model['inputs']}")
    expect([(v["name"], v["dims"]) for v in model["outputs"]] == [("y", [1, 10])], f"outputs: {model['outputs']}")
    rows = {r["name"]: r for r in report["layers"]}
    expect(sorted(rows) == ["conv", "fc", "flatten", "pool", "relu"], f"rows: {sorted(rows)}")
    for name, dims in [("conv", [1, 8, 32, 32]), ("pool", [1, 8, 25, 25]), ("flatten", [1, 5000]), ("fc", [1, 10])]:
        row = rows.get(name, {})
        expect(row.get("declared") == [dims] and row.get("inferred") == [dims] and row.get("status") == "ok",
               f"infer --all {name}: {row}")
    text = run("infer", conv, "--all").stdout
    expect("written by onnx_reshape_test 1; opsets ai.onnx 13" in text and "input   x  [1,3,32,32]:f32" in text,
           f"infer text glance: {text[:300]}")


def test_conv_pool(conv, directory):
    proc, report = infer_json(conv, "--reshape", "x=1,3,32,32", "--all")
    if report:
        reshape = report["reshape"]
        expect(proc.returncode == 0 and reshape["changed_layers"] == 0 and reshape["unknown_layers"] == 0
               and not report["diagnostics"], f"identity conv_pool: exit {proc.returncode}, {reshape}, {proc.stderr[:300]}")
        for row in report["layers"]:
            expect(row["inferred"] == row["declared"], f"identity conv_pool {row['name']}: {row}")
    out = os.path.join(directory, "conv_pool_b4.onnx")
    proc, report = infer_json(conv, "--reshape", "4,3,32,32", "-o", out)
    if report:
        expect(proc.returncode == 0 and report["reshape"]["changed_layers"] == 5,
               f"batch 4: exit {proc.returncode}: {report['reshape']} {proc.stderr[:300]}")
        ends = {(e["kind"], e["name"]): (e["before"], e["after"]) for e in report["reshape"]["endpoints"]}
        expect(ends.get(("output", "y")) == ([1, 10], [4, 10]), f"batch 4 endpoints: {ends}")
    if expect(os.path.exists(out), "batch 4: -o wrote nothing"):
        written = onnx.load(out)
        expect(dims_of(written, "x") == [4, 3, 32, 32] and dims_of(written, "c") == [4, 8, 32, 32]
               and dims_of(written, "p") == [4, 8, 25, 25] and dims_of(written, "y") == [4, 10],
               f"batch 4 written dims: x {dims_of(written, 'x')} c {dims_of(written, 'c')} y {dims_of(written, 'y')}")
        onnx.checker.check_model(written, full_check=True)
        check = run("check", out, "--format", "json")
        errors = [d for d in json.loads(check.stdout)["files"][0]["diagnostics"] if d["severity"] != "note"]
        expect(check.returncode == 0 and not errors, f"batch 4: the written model does not check clean: {errors[:2]}")
    small = os.path.join(directory, "conv_pool_4x4.onnx")
    proc = run("infer", conv, "--reshape", "x=1,3,4,4", "-o", small)
    expect(proc.returncode == 1, f"4x4: exit {proc.returncode}, expected 1: {proc.stderr[:300]}")
    expect("[reshape-incompatible]" in proc.stderr and "'pool'" in proc.stderr and "floor((4+0+0-8)/1)+1 = -3" in proc.stderr,
           f"4x4: no reshape-incompatible pool with irlint's arithmetic: {proc.stderr[:500]}")
    expect("1 node cannot take the new shapes" in proc.stdout, f"4x4 summary: {proc.stdout[:400]}")
    expect(not os.path.exists(small), "4x4: -o wrote a model with a node that fails")


def test_two_breaks(path):
    proc, report = infer_json(path, "--reshape", "x=1,3,9,8")
    if not report:
        return
    expect(proc.returncode == 1, f"two_breaks: exit {proc.returncode}")
    found = {d["layer_name"]: d for d in report["diagnostics"] if d["rule"] == "reshape-incompatible"}
    expect(sorted(found) == ["fixed_reshape", "matmul"], f"two_breaks: the failing nodes: {sorted(found)}")
    expect("input has 216 elements, target [1,192] has 192" in found.get("fixed_reshape", {}).get("message", ""),
           f"two_breaks: the element counts: {found.get('fixed_reshape')}")
    expect("the K dims differ: A [1,216] has 216 at dim 1, B [192,10] has 192" in found.get("matmul", {}).get("message", ""),
           f"two_breaks: the K dims: {found.get('matmul')}")


def test_dynamic(path, directory):
    out = os.path.join(directory, "dynamic_open.onnx")
    proc, report = infer_json(path, "--reshape", "x=?,3,8,8", "-o", out)
    if report:
        ends = {(e["kind"], e["name"]): e["after"] for e in report["reshape"]["endpoints"]}
        expect(proc.returncode == 0 and ends.get(("input", "x")) == [-1, 3, 8, 8] and
               ends.get(("output", "y")) == [-1, 3, 8, 8], f"dynamic: exit {proc.returncode}: {ends}")
    if expect(os.path.exists(out), "dynamic: -o wrote nothing"):
        written = onnx.load(out)
        expect(dims_of(written, "x") == ["N", 3, 8, 8], f"dynamic: written input {dims_of(written, 'x')}")
    bad = run("infer", path, "--reshape", "nope=1,2")
    expect(bad.returncode == 2 and "no graph input named 'nope'; its inputs: x" in bad.stderr, bad.stderr)
    bad = run("infer", path, "--reshape", "x=1,x")
    expect(bad.returncode == 2 and "cannot parse dimension 'x'" in bad.stderr, bad.stderr)


def static_inputs(path):
    try:
        model = onnx.load(path)
    except Exception:  # a hostile file need not parse here
        return None
    inits = {i.name for i in model.graph.initializer}
    args = []
    for v in model.graph.input:
        if v.name in inits:
            continue
        t = v.type.tensor_type if v.type.HasField("tensor_type") else None
        if t is None or not t.HasField("shape"):
            return None
        dims = [d.dim_value if d.HasField("dim_value") else None for d in t.shape.dim]
        if any(d is None or d < 0 for d in dims):
            return None
        args += ["--reshape", f"{v.name}={','.join(map(str, dims))}" if dims else f"{v.name}=[]"]
    return args or None


def identity(path, label):
    """Identity reshape: no finding the model as given lacks. True when it ran."""
    args = static_inputs(path)
    if args is None:
        return False
    proc, report = infer_json(path, *args)
    if report is None:
        return True
    incompatible = [d for d in report["diagnostics"] if d["rule"] == "reshape-incompatible"]
    expect(proc.returncode == 0 and not incompatible and report["reshape"]["changed_layers"] == 0,
           f"{label}: identity reshape exit {proc.returncode}, {report['reshape']['changed_layers']} changed: "
           f"{[d['message'][:200] for d in incompatible[:2]]} {proc.stderr[:200]}")
    disagree = []
    for row in report["layers"]:
        for declared, inferred in zip(row["declared"], row["inferred"]):
            static = isinstance(declared, list) and all(isinstance(d, int) and d >= 0 for d in declared)
            if not static or inferred == "...":
                continue
            # A dim that depends on data (NonZero's count, a Slice of graph-input starts) stays open or bounded.
            agree = len(inferred) == len(declared) and all(dim_admits(i, d) for i, d in zip(inferred, declared))
            if not agree:
                disagree.append((row["name"], declared, inferred))
            with LOCK:
                OPEN[0] += inferred != declared
    if disagree:
        # A node whose declared dims the file already gets wrong (a hostile model's) keeps that finding.
        check = run("check", path, "--format", "json")
        declared_wrong = {d.get("layer_name") for f in (json.loads(check.stdout)["files"] if check.stdout else [])
                          for d in f["diagnostics"] if d["rule"] == "output-shape-mismatch"}
        for name, declared, inferred in disagree:
            expect(name in declared_wrong,
                   f"{label}: identity reshape: node {name} declared {declared}, inferred again {inferred}")
    return True


def test_hostile(directory):
    done = 0
    for name in sorted(os.listdir(directory)):
        if name.endswith(".onnx"):
            done += identity(os.path.join(directory, name), f"hostile {name}")
    expect(done > 0, f"{directory}: no .onnx model with static inputs")
    print(f"onnx_reshape_test: identity reshape of {done} hostile .onnx models")


def dim_admits(inferred, declared):
    """Whether an inferred DIMS item (an int, -1, or "lo..hi" / "lo..") allows the declared length."""
    if isinstance(inferred, int):
        return inferred in (declared, -1)
    lo, _, hi = inferred.partition("..")
    return int(lo or 0) <= declared and (not hi or declared <= int(hi))


def backend_case(root, case):
    """(inferred, reshaped) for one backend test model: an identity reshape of a model with static inputs
    infers every node too; the others get infer --all."""
    path = os.path.join(root, case, "model.onnx")
    if not os.path.exists(path):
        return 0, 0
    if identity(path, case):
        return 1, 1
    proc, report = infer_json(path, "--all")
    if report is None:
        return 0, 0
    expect(proc.returncode in (0, 1) and len(report["layers"]) > 0,
           f"{case}: infer --all exit {proc.returncode}, {len(report['layers'])} rows: {proc.stderr[:200]}")
    return 1, 0


def test_backend(data, every):
    root = os.path.join(data, "node")
    cases = sorted(os.listdir(root))[::every]
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        counts = list(pool.map(lambda case: backend_case(root, case), cases))
    inferred = sum(c[0] for c in counts)
    reshaped = sum(c[1] for c in counts)
    expect(inferred > 900 // every, f"backend test data: only {inferred} of {len(cases)} models inferred")
    print(f"onnx_reshape_test: infer --all on {inferred} backend models; identity reshape of {reshaped} with static "
          f"inputs ({OPEN[0]} declared outputs inferred again with open dims)")


def main():
    global IRLINT
    parser = argparse.ArgumentParser()
    parser.add_argument("--irlint", required=True)
    parser.add_argument("--hostile")
    parser.add_argument("--data")
    parser.add_argument("--every", type=int, default=1, help="with --data: every Nth model only (slow builds)")
    args = parser.parse_args()
    IRLINT = args.irlint
    with tempfile.TemporaryDirectory() as directory:
        conv = conv_pool(directory)
        test_infer_all(conv)
        test_conv_pool(conv, directory)
        test_two_breaks(two_breaks(directory))
        test_dynamic(dynamic(directory), directory)
    if args.hostile:
        test_hostile(args.hostile)
    if args.data:
        test_backend(args.data, args.every)
    for f in FAILURES:
        print(f"FAIL: {f}")
    print(f"onnx_reshape_test: {len(FAILURES)} failures")
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
