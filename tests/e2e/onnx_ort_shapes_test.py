#!/usr/bin/python3
"""irlint's ONNX inference against ONNX Runtime's, on every node output of real-looking models.

    onnx_ort_shapes_test.py --irlint BUILD/irlint --ort-dir BUILD/ort [--node node] [--keep DIR] [MODEL.onnx ...]

The corpus, made here: the models tests/e2e/torch_corpus_test.py exports with PyTorch's TorchScript exporter,
and the models of onnx_real_models.py (a dynamo-style opset-18 CNN with local functions, a QDQ block, transformer
blocks, RMSNormalization and RotaryEmbedding, com.microsoft ops). Models given on the command line are compared
instead of the corpus.

ONNX Runtime (for Node, from npm) is the oracle. It loads a copy of each model with graph optimisation off and
writes the model it loaded (ort_shapes.js); every value listed in the written graph's value_info carries the
type and dims its inference found. Two things make that copy tell ONNX Runtime's inference and nothing else:
  - the copy's value_info names every node output, with no type (ONNX Runtime writes only the values listed
    there), and the graph outputs lose their dims (else a declared dim would pass for an inferred one);
  - ONNX Runtime writes the graph it read, as read, unless a transformation changed it, and with optimisation
    off none does. So the copy gets one more node: a float16 Sin on an input of its own, which has no float16
    kernel on the CPU, so ONNX Runtime inserts Casts around it and writes the graph it built.

Per node output (graph node i is `irlint infer --all`'s layer i) where ONNX Runtime knows the rank:
  - equal: every dim ONNX Runtime knows, irlint has the same;
  - unknown: no dim differs, but irlint lacks one ONNX Runtime knows (an op irlint does not infer yet);
  - different: the ranks differ, a static dim differs or lies outside irlint's interval, or the element types
    differ. A difference fails the test unless EXPECTED lists it with the reason.
Exits 77 when onnx or ONNX Runtime for Node is missing, 1 on an unexpected difference, a model ONNX Runtime or
irlint cannot load, or a run that compared nothing.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

from irlint_process import run

SKIP = 77
TIMEOUT = 120
try:
    import onnx
    from onnx import TensorProto, helper
    import onnx_real_models
except ImportError as e:
    print(f"SKIP: {e} (install python3-onnx)")
    sys.exit(SKIP)

# (model, output name) -> why irlint and ONNX Runtime give different dims or types there.
EXPECTED = {}

# ONNX element types by irlint's names (complex has none).
TYPE_NAMES = {
    TensorProto.FLOAT: "f32", TensorProto.UINT8: "u8", TensorProto.INT8: "i8", TensorProto.UINT16: "u16",
    TensorProto.INT16: "i16", TensorProto.INT32: "i32", TensorProto.INT64: "i64", TensorProto.STRING: "string",
    TensorProto.BOOL: "boolean", TensorProto.FLOAT16: "f16", TensorProto.DOUBLE: "f64", TensorProto.UINT32: "u32",
    TensorProto.UINT64: "u64", TensorProto.BFLOAT16: "bf16", 17: "f8e4m3", 18: "f8e4m3fnuz", 19: "f8e5m2",
    20: "f8e5m2fnuz", 21: "u4", 22: "i4", 23: "f4e2m1", 24: "f8e8m0", 25: "u2", 26: "i2",
}


def shown(name):
    """A name from a model, safe to print: control and non-ASCII characters escaped, long names cut."""
    text = name.encode("unicode_escape").decode("ascii")
    return "'" + (text if len(text) <= 120 else text[:117] + "...") + "'"


def dims_text(dims):
    if dims is None:
        return "[...]"
    return "[" + ",".join("?" if d is None else str(d) for d in dims) + "]"


# --- the corpus -----------------------------------------------------------------------------------------------

def torch_models(directory):
    """The TorchScript exports of torch_corpus_test.py: ({id: path}, the exports that failed); none without
    PyTorch."""
    try:
        import torch
        import torch_corpus_test as corpus
    except (ImportError, SystemExit) as e:
        print(f"note: no PyTorch exports ({e})")
        return {}, []
    torch.set_num_threads(1)
    paths, failed = {}, []
    for seed, (name, (cls, shape, _)) in enumerate(corpus.ARCHITECTURES.items()):
        model = corpus.build(cls, seed)
        x = torch.randn(*shape, generator=torch.Generator().manual_seed(100 + seed))
        for opset in corpus.OPSETS:
            path = os.path.join(directory, f"torch-{name}-opset{opset}.onnx")
            try:
                corpus.export(model, x, opset, path)
                paths[f"torch-{name}-opset{opset}"] = path
            except Exception as e:  # one failed export fails the test, the other models still run
                failed.append(f"{name} opset {opset}: {type(e).__name__}: {str(e)[:300]}")
    return paths, failed


def corpus_models(directory):
    paths, failed = torch_models(directory)
    paths.update(onnx_real_models.write_models(directory))
    return paths, failed


# --- ONNX Runtime's inference ---------------------------------------------------------------------------------

def unused_name(names, base):
    name, n = base, 0
    while name in names:
        n += 1
        name = f"{base}_{n}"
    return name


def copy_for_ort(model):
    """The model with every node output listed in value_info, the graph outputs without dims and the float16
    node that makes ONNX Runtime write the graph it built (see the module's doc)."""
    copy = onnx.ModelProto()
    copy.CopyFrom(model)
    graph = copy.graph
    outputs = {o.name for o in graph.output}
    del graph.value_info[:]
    names = set(outputs) | {i.name for i in graph.input}
    for node in graph.node:
        for name in node.output:
            names.add(name)
            if name and name not in outputs:
                graph.value_info.add().name = name
    for output in graph.output:
        if output.type.HasField("tensor_type"):
            output.type.tensor_type.ClearField("shape")
    source, sink = unused_name(names, "irlint_ort_sync"), unused_name(names, "irlint_ort_sync_out")
    graph.input.append(helper.make_tensor_value_info(source, TensorProto.FLOAT16, [1]))
    graph.output.append(helper.make_tensor_value_info(sink, TensorProto.FLOAT16, [1]))
    graph.node.append(helper.make_node("Sin", [source], [sink]))
    if not any(o.domain in ("", "ai.onnx") for o in copy.opset_import):
        copy.opset_import.append(helper.make_opsetid("", 17))
    return copy


def value_dims(value):
    """(dims with None for an unknown dim, or None for an unknown rank; ONNX element type or 0)."""
    if not value.type.HasField("tensor_type"):
        return None, 0
    tensor = value.type.tensor_type
    if not tensor.HasField("shape"):
        return None, tensor.elem_type
    return [d.dim_value if d.HasField("dim_value") else None for d in tensor.shape.dim], tensor.elem_type


def ort_inference(node_exe, package, work, models):
    """{id: ({value name: (dims, type)}, None) or (None, why not)} and ONNX Runtime's version."""
    cases, found = [], {}
    for case_id, path in models.items():
        try:
            copy = copy_for_ort(onnx.load(path))
        except Exception as e:  # an unreadable model (external data missing, say) fails alone
            found[case_id] = (None, f"onnx cannot read the model: {type(e).__name__}: {e}")
            continue
        onnx.save(copy, os.path.join(work, f"{case_id}.ort-in.onnx"))
        cases.append({"id": case_id, "model": f"{case_id}.ort-in.onnx", "written": f"{case_id}.ort-out.onnx"})
    manifest, results = os.path.join(work, "ort-manifest.json"), os.path.join(work, "ort-results.json")
    with open(manifest, "w") as f:
        json.dump({"cases": cases}, f)
    proc = subprocess.run([node_exe, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "ort",
                                                  "ort_shapes.js"), package, manifest, results],
                          capture_output=True, text=True, errors="replace", timeout=600)
    if proc.returncode != 0:
        sys.exit(f"FAIL: ONNX Runtime: {proc.stderr.strip()[:2000]}")
    with open(results) as f:
        loaded = json.load(f)
    for c in cases:
        result = loaded["cases"][c["id"]]
        if not result["created"]:
            found[c["id"]] = (None, f"ONNX Runtime refuses the model: {result.get('error', '')}")
            continue
        graph = onnx.load(os.path.join(work, c["written"])).graph
        found[c["id"]] = ({v.name: value_dims(v) for v in list(graph.value_info) + list(graph.output)}, None)
    return found, loaded["version"]


# --- irlint's inference ---------------------------------------------------------------------------------------

def irlint_layers(irlint, path):
    """`infer --all`'s layers, or None and why not."""
    code, out, err = run(irlint, ["infer", path, "--all", "--format", "json"], TIMEOUT)
    if code not in (0, 1):
        return None, f"irlint infer exits {code}: {err.strip()[:300]}"
    try:
        return json.loads(out)["layers"], None
    except (ValueError, KeyError) as e:
        return None, f"irlint infer's JSON: {e}"


def interval(dim):
    """irlint's dim as (lo, hi), hi None for no bound; -1 is (0, None)."""
    if isinstance(dim, int):
        return (dim, dim) if dim >= 0 else (0, None)
    lo, hi = dim.split("..")
    return int(lo or 0), int(hi) if hi else None


def compare_dims(ort, ours):
    """'equal', 'unknown' or 'different' for one output whose rank ONNX Runtime knows."""
    if not isinstance(ours, list):
        return "unknown"
    if len(ours) != len(ort):
        return "different"
    verdict = "equal"
    for want, dim in zip(ort, ours):
        if want is None:
            continue
        lo, hi = interval(dim)
        if want < lo or (hi is not None and want > hi):
            return "different"
        if lo != hi:
            verdict = "unknown"
    return verdict


def compare_type(ort_type, ours):
    want = TYPE_NAMES.get(ort_type)
    return want is None or ours in (None, "dynamic") or ours == want


# --- one model ------------------------------------------------------------------------------------------------

class Tally:
    def __init__(self):
        self.known = self.equal = self.unknown = self.different = self.layers = self.checked = 0
        self.differences, self.unknown_ops, self.problems = [], {}, []


def compare_node(tally, model_id, index, node, layer, ort):
    inferred, types = layer.get("inferred", []), layer.get("inferred_types", [])
    for k, name in enumerate(node.output):
        if not name or name not in ort or ort[name][0] is None:
            continue
        dims, elem = ort[name]
        ours = inferred[k] if k < len(inferred) else None
        ours_type = types[k] if k < len(types) else None
        verdict = compare_dims(dims, ours)
        if verdict != "different" and not compare_type(elem, ours_type):
            verdict = "different"
        tally.known += 1
        if verdict == "equal":
            tally.equal += 1
        elif verdict == "unknown":
            tally.unknown += 1
            tally.unknown_ops[node.op_type] = tally.unknown_ops.get(node.op_type, 0) + 1
        else:
            tally.different += 1
            ours_text = dims_text(ours) if isinstance(ours, list) else str(ours)
            tally.differences.append((
                (model_id, name),
                f"node {index} ({shown(node.op_type)}) output {shown(name)}: ONNX Runtime {dims_text(dims)} "
                f"{TYPE_NAMES.get(elem, elem)}, irlint {ours_text} {ours_type}"))


def compare_model(irlint, model_id, path, ort):
    tally = Tally()
    layers, why = irlint_layers(irlint, path)
    if layers is None:
        tally.problems.append(why)
        return tally
    nodes = onnx.load(path, load_external_data=False).graph.node
    if len(layers) != len(nodes):
        tally.problems.append(f"irlint lists {len(layers)} layers for {len(nodes)} nodes")
        return tally
    tally.layers, tally.checked = len(layers), sum(1 for layer in layers if layer.get("checked"))
    for index, (node, layer) in enumerate(zip(nodes, layers)):
        if layer.get("type") != node.op_type:
            tally.problems.append(f"layer {index} is a {shown(str(layer.get('type')))}, node {index} a "
                                  f"{shown(node.op_type)}")
            return tally
        compare_node(tally, model_id, index, node, layer, ort)
    if tally.known == 0 and nodes:
        tally.problems.append("ONNX Runtime wrote the dims of no node output")
    return tally


def report(model_id, tally):
    """Prints the model's counts and differences; returns how many of them fail the test."""
    print(f"{model_id}: ONNX Runtime knows {tally.known}, irlint equal {tally.equal}, unknown {tally.unknown}, "
          f"different {tally.different}; layers checked {tally.checked} of {tally.layers}")
    if tally.unknown_ops:
        ops = ", ".join(f"{shown(op)} {n}" for op, n in sorted(tally.unknown_ops.items()))
        print(f"  not inferred: {ops}")
    failures = len(tally.problems)
    for problem in tally.problems:
        print(f"  FAIL {problem}")
    for key, text in tally.differences:
        if key in EXPECTED:
            print(f"  expected: {text} ({EXPECTED[key]})")
        else:
            print(f"  FAIL {text}")
            failures += 1
    return failures


def compare_all(args, work):
    models, failed = {os.path.basename(p): os.path.abspath(p) for p in args.models}, []
    if not models:
        models, failed = corpus_models(work)
    for failure in failed:
        print(f"FAIL PyTorch export {failure}")
    ort, version = ort_inference(args.node, os.path.join(args.ort_dir, "node_modules", "onnxruntime-node"),
                                 work, models)
    failures, totals = len(failed), Tally()
    for model_id, path in models.items():
        found, why = ort[model_id]
        tally = Tally() if found is None else compare_model(args.irlint, model_id, path, found)
        if why:
            tally.problems.append(why)
        failures += report(shown(model_id), tally)
        for field in ("known", "equal", "unknown", "different", "layers", "checked"):
            setattr(totals, field, getattr(totals, field) + getattr(tally, field))
        for op, n in tally.unknown_ops.items():
            totals.unknown_ops[op] = totals.unknown_ops.get(op, 0) + n
    if totals.unknown_ops:
        most = sorted(totals.unknown_ops.items(), key=lambda item: (-item[1], item[0]))[:20]
        print("not inferred, the most frequent ops: " + ", ".join(f"{shown(op)} {n}" for op, n in most))
    print(f"{len(models)} models, ONNX Runtime {version} knows {totals.known} node outputs: irlint equal "
          f"{totals.equal}, unknown {totals.unknown}, different {totals.different}; layers checked "
          f"{totals.checked} of {totals.layers}")
    if totals.known == 0:
        print("FAIL: nothing compared")
        failures += 1
    return failures


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--irlint", required=True)
    ap.add_argument("--ort-dir", required=True, help="the folder npm installed onnxruntime-node into")
    ap.add_argument("--node", default="node")
    ap.add_argument("--keep", help="write the models and ONNX Runtime's copies here instead of a temporary folder")
    ap.add_argument("models", nargs="*", help="compare these models instead of the corpus")
    args = ap.parse_args()
    args.irlint = os.path.abspath(args.irlint)
    if not os.path.exists(os.path.join(args.ort_dir, "node_modules", "onnxruntime-node", "package.json")):
        print(f"SKIP: ONNX Runtime for Node is not installed in {args.ort_dir} (scripts/setup_ort.sh, needs npm)")
        return SKIP
    if not shutil.which(args.node):
        print(f"SKIP: no Node.js ({shown(args.node)}) to run ONNX Runtime for Node")
        return SKIP
    start = time.monotonic()
    work = args.keep or tempfile.mkdtemp(prefix="irlint-ort-shapes-")
    os.makedirs(work, exist_ok=True)
    try:
        failures = compare_all(args, work)
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    print(f"{time.monotonic() - start:.1f} s, {failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
