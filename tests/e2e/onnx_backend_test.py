#!/usr/bin/python3
"""ONNX's backend node tests as the oracle of irlint's ONNX shape inference.

    onnx_backend_test.py --irlint build/irlint --cases testdata/onnx-node-tests/cases.jsonl.gz
                         [--filter GLOB]... [--table FILE.md] [--both-ways] [--min-agree-fraction F] [--verbose]

Each case of the transcription (testdata/onnx-node-tests/README.md) becomes an .onnx model: the test's graph
with its inputs as declared, its graph outputs declared by name alone, so that irlint has to infer their dims
and element types. With --both-ways a second model "NAME+init" is built for each case that feeds small integer
tensors or a few floating-point numbers: those inputs become initializers holding the fed values, as real
models carry Reshape's shape, axes, pads and sizes, Resize's scales and Range's bounds. `irlint infer MODEL --all --format json` runs on every model, and the node producing each graph
output is compared with the output the test expects. Each model is then:
  agree        every output's dims and element type are the expected ones;
  partial      some dims or types are not inferred (dynamic, an interval, a rank or type left open), none wrong;
  disagree     a static dim, a rank or an element type differs from the expected one;
  unsupported  nothing wrong, and irlint reports an op it does not infer (unsupported-op, or a node whose status
               is "unsupported" with nothing inferred);
  foreign      nothing wrong, and an expected output has a type irlint has no name for (complex, map, a
               sequence of sequences): it can never be "agree";
  error        irlint crashed, exited with 2, ran out of time or printed no readable JSON.
Where the model's ai.onnx opset is at most 17, ONNX's own shape inference (python's onnx) is asked too, for the
libonnx-agree column only.

Prints a line per disagree and error model, a table per op and the totals; --table writes the table as Markdown.
Exits 1 when a model is disagree or error and not listed in EXPECTED_FAILURES, when a listed model no longer
fails, when fewer than --min-agree-fraction of the ai.onnx models that are not foreign agree, or when no model
was checked at all (a missing cases file included); with --both-ways and no --filter, also when a test of an op
irlint infers agrees in none of its models and is not in DATA_DEPENDENT (outputs no static inference can
know), or is listed there and agrees; 77 when numpy or onnx cannot be imported.
"""
import argparse
import concurrent.futures
import fnmatch
import gzip
import json
import math
import os
import subprocess
import sys
import tempfile
import time

try:
    import numpy as np
    import onnx
except ImportError:
    print("onnx_backend_test: numpy or onnx cannot be imported: skipped")
    sys.exit(77)

TIMEOUT_SECONDS = 20
# The opsets python's onnx (1.12) knows; past them its shape inference has nothing to say.
LIBONNX_MAX_OPSET = 17
CLASSES = ["agree", "partial", "disagree", "unsupported", "foreign", "error"]

# Models allowed to be "disagree" or "error", each with the reason. A listed model that stops failing is a
# failure too, so that the list stays true.
EXPECTED_FAILURES = {
}

# Tests whose outputs no static inference can know, by the reason, each test by name. Every other test whose op
# irlint infers must agree in one of its models (as the test feeds it, or with its small inputs as
# initializers); a test listed here that comes to agree is a failure too, so that the list stays true.
DATA_DEPENDENT = {
    "the count depends on the values of an input the test feeds as data (a bool condition or mask, scores, "
    "the values themselves)": [
        "test_compress_0", "test_compress_1", "test_compress_default_axis", "test_compress_negative_axis",
        "test_nonzero_example",
        "test_nonmaxsuppression_center_point_box_format", "test_nonmaxsuppression_flipped_coordinates",
        "test_nonmaxsuppression_identical_boxes", "test_nonmaxsuppression_limit_output_size",
        "test_nonmaxsuppression_suppress_by_IOU", "test_nonmaxsuppression_suppress_by_IOU_and_scores",
        "test_nonmaxsuppression_two_batches", "test_nonmaxsuppression_two_classes",
        "test_unique_sorted_with_axis", "test_unique_sorted_with_axis_3d", "test_unique_sorted_with_negative_axis",
    ],
    "the loop's condition is a bool the test feeds: the trip count is bounded, not known": [
        "test_loop11", "test_loop13_seq", "test_loop16_seq_none",
    ],
    "the dims are in the string or image bytes fed": [
        "test_image_decoder_decode_bmp_rgb", "test_image_decoder_decode_jpeg2k_rgb",
        "test_image_decoder_decode_jpeg_bgr", "test_image_decoder_decode_jpeg_grayscale",
        "test_image_decoder_decode_jpeg_rgb", "test_image_decoder_decode_png_rgb",
        "test_image_decoder_decode_pnm_rgb", "test_image_decoder_decode_tiff_rgb",
        "test_image_decoder_decode_webp_rgb",
        "test_string_split_basic", "test_string_split_consecutive_delimiters",
        "test_string_split_empty_string_delimiter", "test_string_split_empty_tensor", "test_string_split_maxsplit",
        "test_string_split_no_delimiter",
        "test_strnormalizer_export_monday_casesensintive_lower",
        "test_strnormalizer_export_monday_casesensintive_nochangecase",
        "test_strnormalizer_export_monday_casesensintive_upper", "test_strnormalizer_export_monday_empty_output",
        "test_strnormalizer_export_monday_insensintive_upper_twodim",
    ],
    "a sequence whose elements differ in dims (the input's, or split by a fed length): a sequence type holds "
    "what its elements share": [
        "test_identity_sequence", "test_sequence_insert_at_back", "test_sequence_insert_at_front",
        "test_split_to_sequence_2",
        "test_sequence_map_add_1_sequence_1_tensor", "test_sequence_map_add_2_sequences",
        "test_sequence_map_identity_1_sequence", "test_sequence_map_identity_2_sequences",
        "test_sequence_map_identity_1_sequence_1_tensor",
        "test_sequence_map_add_1_sequence_1_tensor_expanded", "test_sequence_map_add_2_sequences_expanded",
        "test_sequence_map_extract_shapes_expanded", "test_sequence_map_identity_1_sequence_expanded",
        "test_sequence_map_identity_2_sequences_expanded", "test_sequence_map_identity_1_sequence_1_tensor_expanded",
    ],
}

# ONNX's TensorProto data types by irlint's names; a type missing here has no irlint name.
IRLINT_TYPES = {
    1: "f32", 2: "u8", 3: "i8", 4: "u16", 5: "i16", 6: "i32", 7: "i64", 8: "string", 9: "boolean", 10: "f16",
    11: "f64", 12: "u32", 13: "u64", 16: "bf16", 17: "f8e4m3", 18: "f8e4m3fnuz", 19: "f8e5m2", 20: "f8e5m2fnuz",
    21: "u4", 22: "i4", 23: "f4e2m1", 24: "f8e8m0", 25: "u2", 26: "i2",
}
NUMPY_TYPES = {
    1: "<f4", 2: "u1", 3: "i1", 4: "<u2", 5: "<i2", 6: "<i4", 7: "<i8", 9: "?", 10: "<f2", 11: "<f8", 12: "<u4",
    13: "<u8", 14: "<c8", 15: "<c16",
}
# Bits per element of the types numpy lacks, for tensors whose values were too many to transcribe.
OTHER_BITS = {16: 16, 17: 8, 18: 8, 19: 8, 20: 8, 21: 4, 22: 4, 23: 4, 24: 8, 25: 2, 26: 2}
A = onnx.AttributeProto
ATTR_TYPES = {
    "float": A.FLOAT, "int": A.INT, "string": A.STRING, "tensor": A.TENSOR, "graph": A.GRAPH,
    "sparse_tensor": A.SPARSE_TENSOR, "type_proto": A.TYPE_PROTO, "floats": A.FLOATS, "ints": A.INTS,
    "strings": A.STRINGS, "tensors": A.TENSORS, "graphs": A.GRAPHS, "sparse_tensors": A.SPARSE_TENSORS,
    "type_protos": A.TYPE_PROTOS,
}


def esc(text):
    """Untrusted text made printable: control and non-ASCII characters escaped."""
    return str(text).encode("unicode_escape").decode("ascii")


# ---- building a model from a transcribed case

def to_bytes(s):
    return bytes.fromhex(s["hex"]) if isinstance(s, dict) else s.encode("utf-8")


def to_float(x):
    return float(x) if isinstance(x, str) else x


def element_count(dims):
    return math.prod(dims)


def raw_values(elem, data):
    if elem == 16:  # bfloat16: the upper half of the float32, exact for values that came from bfloat16
        return (np.array([to_float(x) for x in data], dtype="<f4").view("<u4") >> 16).astype("<u2").tobytes()
    if elem in (14, 15):
        return np.array([complex(to_float(re), to_float(im)) for re, im in data], dtype=NUMPY_TYPES[elem]).tobytes()
    return np.array([to_float(x) for x in data], dtype=NUMPY_TYPES[elem]).tobytes()


def zero_bytes(elem, count):
    bits = np.dtype(NUMPY_TYPES[elem]).itemsize * 8 if elem in NUMPY_TYPES else OTHER_BITS.get(elem, 8)
    return bytes((count * bits + 7) // 8)


def tensor_proto(j):
    t = onnx.TensorProto(data_type=j["elem"], dims=j["dims"])
    if "name" in j:
        t.name = j["name"]
    count = element_count(j["dims"])
    if j["elem"] == 8:
        t.string_data.extend(to_bytes(s) for s in j.get("data", [""] * count))
    elif "data" in j:
        t.raw_data = raw_values(j["elem"], j["data"])
    elif "raw" in j:
        t.raw_data = bytes.fromhex(j["raw"])
    elif "int32_data" in j:
        t.int32_data.extend(j["int32_data"])
    else:  # too many values to transcribe: the shape is what matters
        t.raw_data = zero_bytes(j["elem"], count)
    return t


def sparse_proto(j):
    s = onnx.SparseTensorProto(dims=j["dims"])
    s.values.CopyFrom(tensor_proto(j["values"]))
    s.indices.CopyFrom(tensor_proto(j["indices"]))
    return s


def type_proto(j):
    t = onnx.TypeProto()
    if "seq" in j:
        t.sequence_type.elem_type.CopyFrom(type_proto(j["seq"]))
    elif "opt" in j:
        t.optional_type.elem_type.CopyFrom(type_proto(j["opt"]))
    elif "map" in j:
        t.map_type.key_type = j["map"][0]
        t.map_type.value_type.CopyFrom(type_proto(j["map"][1]))
    elif "elem" in j:
        tensor = t.sparse_tensor_type if j.get("sparse") else t.tensor_type
        tensor.elem_type = j["elem"]
        if "dims" in j:
            tensor.shape.SetInParent()
            for d in j["dims"]:
                dim = tensor.shape.dim.add()
                if isinstance(d, int):
                    dim.dim_value = d
                elif isinstance(d, str):
                    dim.dim_param = d
    return t


def value_info(j):
    v = onnx.ValueInfoProto(name=j["name"])
    if "type" in j:
        v.type.CopyFrom(type_proto(j["type"]))
    return v


def set_attr_value(a, kind, v):
    if kind == "float":
        a.f = to_float(v)
    elif kind == "int":
        a.i = v
    elif kind == "string":
        a.s = to_bytes(v)
    elif kind == "tensor":
        a.t.CopyFrom(tensor_proto(v))
    elif kind == "graph":
        a.g.CopyFrom(graph_proto(v))
    elif kind == "sparse_tensor":
        a.sparse_tensor.CopyFrom(sparse_proto(v))
    elif kind == "type_proto":
        a.tp.CopyFrom(type_proto(v))
    elif kind == "floats":
        a.floats.extend(to_float(x) for x in v)
    elif kind == "ints":
        a.ints.extend(v)
    elif kind == "strings":
        a.strings.extend(to_bytes(s) for s in v)
    elif kind == "tensors":
        a.tensors.extend(tensor_proto(t) for t in v)
    elif kind == "graphs":
        a.graphs.extend(graph_proto(g) for g in v)
    elif kind == "sparse_tensors":
        a.sparse_tensors.extend(sparse_proto(s) for s in v)
    else:
        a.type_protos.extend(type_proto(t) for t in v)


def attribute(name, j):
    a = onnx.AttributeProto(name=name)
    if "ref" in j:
        a.ref_attr_name = j["ref"]
        a.type = ATTR_TYPES[j["type"]]
        return a
    (kind, v), = j.items()
    a.type = ATTR_TYPES[kind]
    set_attr_value(a, kind, v)
    return a


def node_proto(j):
    n = onnx.NodeProto(op_type=j["op"], input=j["inputs"], output=j["outputs"])
    if "domain" in j:
        n.domain = j["domain"]
    if "name" in j:
        n.name = j["name"]
    n.attribute.extend(attribute(k, v) for k, v in j.get("attrs", {}).items())
    return n


def graph_proto(j, name="g", typed_outputs=True, constants=()):
    g = onnx.GraphProto(name=name)
    constant_names = {c["name"] for c in constants}
    g.input.extend(value_info(v) for v in j["inputs"] if v["name"] not in constant_names)
    g.initializer.extend(tensor_proto(t) for t in list(j.get("initializers", [])) + list(constants))
    g.sparse_initializer.extend(sparse_proto(s) for s in j.get("sparse_initializers", []))
    g.node.extend(node_proto(n) for n in j["nodes"])
    g.output.extend(value_info(v) if typed_outputs else onnx.ValueInfoProto(name=v["name"]) for v in j["outputs"])
    return g


def function_proto(j):
    f = onnx.FunctionProto(name=j["name"], domain=j["domain"], input=j["inputs"], output=j["outputs"],
                           attribute=j["attrs"])
    f.opset_import.extend(onnx.OperatorSetIdProto(domain=d, version=v) for d, v in j["opsets"].items())
    f.node.extend(node_proto(n) for n in j["nodes"])
    return f


def model_proto(case, constants=()):
    """The case's model with its graph outputs untyped; `constants` (fed tensors) become initializers."""
    # An initializer outside the graph inputs needs IR version 4.
    ir_version = max(case["ir_version"], 4) if constants else case["ir_version"]
    m = onnx.ModelProto(ir_version=ir_version, producer_name="onnx_backend_test")
    m.opset_import.extend(onnx.OperatorSetIdProto(domain=d, version=v) for d, v in case["opsets"].items())
    m.graph.CopyFrom(graph_proto(case["graph"], name=case["name"], typed_outputs=False, constants=constants))
    m.functions.extend(function_proto(f) for f in case.get("functions", []))
    return m


# ---- comparing an inferred output with the expected one

def onnx_opset(case):
    return max(case["opsets"].get("", 0), case["opsets"].get("ai.onnx", 0))


def is_foreign(expected):
    """Whether irlint has no name for what an expected output is: a map, a sequence of sequences, a type
    without a name (complex)."""
    if "map" in expected:
        return True
    if "seq" in expected:
        return any("seq" in e or "opt" in e or is_foreign(e) for e in expected["seq"])
    if "opt" in expected:
        return expected["opt"] is not None and ("opt" in expected["opt"] or is_foreign(expected["opt"]))
    return expected["elem"] not in IRLINT_TYPES


def dim_verdict(want, got):
    if isinstance(got, bool):
        raise ValueError(f"unreadable dim {got!r}")
    if isinstance(got, int):
        return "unknown" if got < 0 else "agree" if got == want else "wrong"
    if isinstance(got, str) and ".." in got:
        lo, hi = got.split("..", 1)
        lo, hi = int(lo) if lo else 0, int(hi) if hi else math.inf
        if not lo <= want <= hi:
            return "wrong"
        return "agree" if lo == hi else "unknown"
    raise ValueError(f"unreadable dim {got!r}")


def worst(verdicts):
    verdicts = list(verdicts)
    for v in ("wrong", "unknown"):
        if v in verdicts:
            return v
    return "agree"


def tensor_verdict(expected, got):
    """got: {"dims": list or None, "type": name or None}, a tensor as irlint or python's onnx infers it."""
    if "seq" in got or "opt" in got:
        return "wrong"
    want_type = IRLINT_TYPES.get(expected["elem"], f"onnx:{expected['elem']}")
    type_verdict = "unknown" if got["type"] is None else "agree" if got["type"] == want_type else "wrong"
    dims = got["dims"]
    if dims is None:
        return worst([type_verdict, "unknown"])
    if len(dims) != len(expected["dims"]):
        return "wrong"
    return worst([type_verdict] + [dim_verdict(w, g) for w, g in zip(expected["dims"], dims)])


def verdict(expected, got):
    """agree, unknown or wrong: an expected output (transcribed) against an inferred one."""
    if got is None:
        return "unknown"
    if "seq" in expected:
        if "seq" not in got:
            return "unknown" if got.get("dims") is None and got.get("type") is None else "wrong"
        return worst(verdict(e, got["seq"]) for e in expected["seq"])
    if "opt" in expected:
        inner = got.get("opt", got)
        if expected["opt"] is None:
            return "agree" if "opt" in got else "unknown"
        return verdict(expected["opt"], inner)
    if "map" in expected:
        return "unknown"
    return tensor_verdict(expected, got)


def shown(expected):
    if "seq" in expected:
        return "seq(" + ",".join(shown(e) for e in expected["seq"]) + ")"
    if "opt" in expected:
        return "opt(" + ("" if expected["opt"] is None else shown(expected["opt"])) + ")"
    if "map" in expected:
        return "map"
    return "[" + ",".join(map(str, expected["dims"])) + "]:" + IRLINT_TYPES.get(expected["elem"],
                                                                                 f"onnx:{expected['elem']}")


def shown_got(got):
    if got is None:
        return "-"
    if "seq" in got:
        return "seq(" + shown_got(got["seq"]) + ")"
    if "opt" in got:
        return "opt(" + shown_got(got["opt"]) + ")"
    dims = "[...]" if got["dims"] is None else "[" + ",".join(esc(d) for d in got["dims"]) + "]"
    return dims + ":" + ("?" if got["type"] is None else esc(got["type"]))


# ---- irlint's answer

def producers(case):
    """Each graph output's (node index, output index), or None where no node of the graph gives it."""
    where = {}
    for i, n in enumerate(case["graph"]["nodes"]):
        for k, name in enumerate(n["outputs"]):
            where[name] = (i, k)
    return [where.get(o["name"]) for o in case["graph"]["outputs"]]


def irlint_output(layer, k):
    inferred, types = layer.get("inferred", []), layer.get("inferred_types", [])
    kinds = layer.get("inferred_kinds", [])
    dims = inferred[k] if k < len(inferred) else None
    if isinstance(dims, str) or dims is None:
        dims = None
    elif not isinstance(dims, list):
        raise ValueError(f"unreadable dims {dims!r}")
    held = {"dims": dims, "type": types[k] if k < len(types) else None}
    kind = kinds[k] if k < len(kinds) else "tensor"
    if kind == "sequence":
        return {"seq": held}
    if kind == "optional":
        return {"opt": held}
    if kind == "optional sequence":
        return {"opt": {"seq": held}}
    if kind != "tensor":
        raise ValueError(f"unreadable kind {kind!r}")
    return held


def infers_nothing(layer):
    return all(d is None or isinstance(d, str) for d in layer.get("inferred", [])) and \
        all(t is None for t in layer.get("inferred_types", []))


def unsupported(doc):
    if any(d.get("rule") in ("unsupported-op", "values-unknown") for d in doc.get("diagnostics", [])):
        return True
    return any(layer.get("status") == "unsupported" and infers_nothing(layer) for layer in doc["layers"])


def judge_irlint(model, rc, stdout, stderr):
    """(class, detail lines) of one irlint run on a model."""
    if rc is None:
        return "error", [f"no answer within {TIMEOUT_SECONDS} s"]
    if rc not in (0, 1):
        first = stderr.strip().splitlines()[:1]
        return "error", [f"exit code {rc}: {esc(first[0]) if first else '(nothing on stderr)'}"]
    try:
        doc = json.loads(stdout)
        layers = {layer["id"]: layer for layer in doc["layers"]}
        got = [None if p is None or str(p[0]) not in layers else irlint_output(layers[str(p[0])], p[1])
               for p in model["producers"]]
        verdicts = [verdict(e, g) for e, g in zip(model["expected"], got)]
    except (ValueError, KeyError, TypeError, AttributeError) as e:
        return "error", [f"unreadable JSON: {esc(e)}"]
    shortfall = "wrong" if "wrong" in verdicts else "unknown"
    details = [f"output {o!r}: expected {shown(e)}, irlint {shown_got(g)}"
               for o, e, g, v in zip(model["outputs"], model["expected"], got, verdicts) if v == shortfall]
    if shortfall == "wrong":
        return "disagree", details
    if all(v == "agree" for v in verdicts):
        return "agree", []
    if any(is_foreign(e) for e in model["expected"]):
        return "foreign", details
    return ("unsupported" if unsupported(doc) else "partial"), details


# ---- python's onnx as a second opinion

def from_type_proto(t):
    which = t.WhichOneof("value")
    if which == "tensor_type":
        tt = t.tensor_type
        elem = IRLINT_TYPES.get(tt.elem_type, f"onnx:{tt.elem_type}") if tt.elem_type else None
        dims = [d.dim_value if d.HasField("dim_value") else -1 for d in tt.shape.dim] \
            if tt.HasField("shape") else None
        return {"dims": dims, "type": elem}
    if which == "sequence_type":
        return {"seq": from_type_proto(t.sequence_type.elem_type)}
    if which == "optional_type":
        return {"opt": from_type_proto(t.optional_type.elem_type)}
    return None


def libonnx_agrees(proto, expected):
    """Whether python's onnx infers every expected output, dims and element type."""
    try:
        inferred = onnx.shape_inference.infer_shapes(proto, strict_mode=False, data_prop=True)
    except Exception:
        return False
    types = {v.name: v.type for v in list(inferred.graph.value_info) + list(inferred.graph.output)
             if v.type.WhichOneof("value")}
    got = [from_type_proto(types[o.name]) if o.name in types else None for o in proto.graph.output]
    return all(verdict(e, g) == "agree" for e, g in zip(expected, got))


# ---- the run

def load_cases(path):
    with gzip.open(path, "rt", encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def op_key(case, by_name):
    """The op a case tests: its node's, or for a function's expansion the op of the test it expands."""
    nodes = case["graph"]["nodes"]
    if len(nodes) == 1:
        n = nodes[0]
        return (n["domain"] + ":" if n.get("domain") else "") + n["op"]
    base = by_name.get(case["name"].split("_expanded")[0])
    if base and len(base["graph"]["nodes"]) == 1:
        return op_key(base, by_name) + " (expanded)"
    return "(graph)"


def is_default_domain(case):
    def domains(graph):
        for n in graph["nodes"]:
            yield n.get("domain", "")
            for a in n.get("attrs", {}).values():
                for g in a.get("graphs", [a["graph"]] if "graph" in a else []):
                    yield from domains(g)
    return all(d in ("", "ai.onnx") for d in domains(case["graph"]))


def build_models(cases, by_name, both_ways, directory):
    models = []
    for case in cases:
        variants = [("", ())]
        if both_ways and case["feeds"]:
            variants.append(("+init", case["feeds"]))
        for suffix, constants in variants:
            proto = model_proto(case, constants)
            path = os.path.join(directory, f"m{len(models):05d}.onnx")
            with open(path, "wb") as f:
                f.write(proto.SerializeToString())
            models.append({"name": case["name"] + suffix, "path": path, "op": op_key(case, by_name),
                           "ai_onnx": is_default_domain(case), "expected": case["expected"],
                           "outputs": [o["name"] for o in case["graph"]["outputs"]],
                           "producers": producers(case), "opset": onnx_opset(case), "proto": proto})
    return models


def run_irlint(irlint, path):
    try:
        proc = subprocess.run([irlint, "infer", path, "--all", "--format", "json"], capture_output=True,
                              text=True, errors="replace", timeout=TIMEOUT_SECONDS)
    except subprocess.TimeoutExpired:
        return None, "", ""
    return proc.returncode, proc.stdout, proc.stderr


def check_models(irlint, models, jobs):
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        runs = [pool.submit(run_irlint, irlint, m["path"]) for m in models]
        for m in models:  # meanwhile, in this thread
            asked = m["opset"] and m["opset"] <= LIBONNX_MAX_OPSET and m["ai_onnx"]
            m["libonnx"] = libonnx_agrees(m["proto"], m["expected"]) if asked else None
            del m["proto"]
        for m, run in zip(models, runs):
            m["class"], m["details"] = judge_irlint(m, *run.result())


# ---- the report

def tally(models):
    rows = {}
    for m in models:
        row = rows.setdefault(m["op"], dict.fromkeys(["tests"] + CLASSES + ["libonnx", "asked"], 0))
        row["tests"] += 1
        row[m["class"]] += 1
        row["asked"] += m["libonnx"] is not None
        row["libonnx"] += m["libonnx"] is True
    total = dict.fromkeys(["tests"] + CLASSES + ["libonnx", "asked"], 0)
    for row in rows.values():
        for k in total:
            total[k] += row[k]
    return sorted(rows.items()), total


def cells(op, row):
    libonnx = f"{row['libonnx']}/{row['asked']}" if row["asked"] else "-"
    return [op, str(row["tests"])] + [str(row[c]) for c in CLASSES] + [libonnx]


HEADER = ["op", "tests"] + CLASSES + ["libonnx-agree"]


def text_table(rows, total):
    lines = [HEADER] + [cells(esc(op), row) for op, row in rows] + [cells("total", total)]
    widths = [max(len(line[i]) for line in lines) for i in range(len(HEADER))]
    return "\n".join("  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(line, widths)))
                     for line in lines)


def markdown_table(rows, total):
    def line(c):
        return "| " + " | ".join(c) + " |"
    out = ["# irlint's ONNX shape inference against ONNX's backend node tests", "",
           "One row per op; a model per test (and `+init` models whose small shape-like inputs are initializers). "
           "libonnx-agree: models where python's onnx (opset 17 at most) infers the expected outputs too.", "",
           line(HEADER), line(["---"] + ["---:"] * (len(HEADER) - 1))]
    out += [line(cells(esc(op).replace("|", "\\|"), row)) for op, row in rows]
    out.append(line(["**total**"] + cells("", total)[1:]))
    return "\n".join(out) + "\n"


def write_atomically(path, text):
    tmp = f"{path}.tmp{os.getpid()}"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, path)


def verdict_problems(models, all_names):
    problems = []
    for m in models:
        failing = m["class"] in ("disagree", "error")
        if failing and m["name"] not in EXPECTED_FAILURES:
            problems.append(f"{m['class']} and not in EXPECTED_FAILURES: {m['name']!r}")
        elif not failing and m["name"] in EXPECTED_FAILURES:
            problems.append(f"listed in EXPECTED_FAILURES but {m['class']}: {m['name']!r}")
    problems += [f"EXPECTED_FAILURES names no model: {n!r}" for n in EXPECTED_FAILURES if n not in all_names]
    return problems


def test_problems(models):
    """Per test: agree in one of its models, or listed in DATA_DEPENDENT, or an op irlint does not infer."""
    listed = {name for names in DATA_DEPENDENT.values() for name in names}
    by_test = {}
    for m in models:
        by_test.setdefault(m["name"].removesuffix("+init"), []).append(m["class"])
    problems, counts = [], dict.fromkeys(["agree", "data-dependent", "unsupported", "other"], 0)
    for name, classes in sorted(by_test.items()):
        kind = ("agree" if "agree" in classes else "unsupported" if "unsupported" in classes
                else "data-dependent" if name in listed else "other")
        counts[kind] += 1
        if kind == "other":
            problems.append(f"{name!r} agrees in none of its models ({', '.join(classes)}) and is not in DATA_DEPENDENT")
        elif kind == "agree" and name in listed:
            problems.append(f"{name!r} is in DATA_DEPENDENT but agrees")
    problems += [f"DATA_DEPENDENT names no test: {n!r}" for n in sorted(listed - set(by_test))]
    return problems, counts


def agree_fraction(models):
    counted = [m for m in models if m["ai_onnx"] and not any(is_foreign(e) for e in m["expected"])]
    return sum(m["class"] == "agree" for m in counted) / len(counted) if counted else None


def report(models, args, all_names, seconds):
    for m in models:
        if m["class"] in ("disagree", "error") or args.verbose:
            print(f"{m['class']:<11} {m['name']!r} ({esc(m['op'])})" + "".join(f"\n    {d}" for d in m["details"]))
    rows, total = tally(models)
    print(text_table(rows, total))
    if args.table:
        write_atomically(args.table, markdown_table(rows, total))
    problems = verdict_problems(models, all_names)
    fraction = agree_fraction(models)
    if fraction is not None and fraction < args.min_agree_fraction:
        problems.append(f"{fraction:.3f} of the ai.onnx models agree, below --min-agree-fraction "
                        f"{args.min_agree_fraction}")
    per_test, counts = test_problems(models)
    if args.both_ways and not args.filter:
        problems += per_test
    for p in problems:
        print("FAIL:", p)
    print(f"onnx_backend_test: {sum(counts.values())} tests: {counts['agree']} agree in one of their models, "
          f"{counts['data-dependent']} have data-dependent outputs (DATA_DEPENDENT), {counts['unsupported']} have "
          f"an op of a domain irlint does not infer, {counts['other']} other")
    print(f"onnx_backend_test: {len(models)} models in {seconds:.1f} s: " +
          ", ".join(f"{total[c]} {c}" for c in CLASSES) +
          ("" if fraction is None else f"; agree fraction (ai.onnx, not foreign) {fraction:.3f}"))
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--irlint", help="the irlint binary (required unless --write-models)")
    parser.add_argument("--write-models", metavar="DIR", help="only build the models into DIR (for benchmarks)")
    parser.add_argument("--cases", required=True, help="the transcription, cases.jsonl.gz")
    parser.add_argument("--filter", action="append", default=[], help="only the cases whose name matches GLOB")
    parser.add_argument("--table", help="also write the table as Markdown to FILE.md")
    parser.add_argument("--both-ways", action="store_true", help="also a model with the fed integer inputs as "
                                                                 "initializers")
    parser.add_argument("--min-agree-fraction", type=float, default=0.0)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--verbose", action="store_true", help="a line for every model")
    args = parser.parse_args()
    start = time.monotonic()
    try:
        cases = load_cases(args.cases)
    except (OSError, ValueError) as e:
        print(f"onnx_backend_test: cannot read the cases: {esc(e)}")
        return 1
    by_name = {c["name"]: c for c in cases}
    all_names = set(by_name) | {c["name"] + "+init" for c in cases if c["feeds"]}
    if args.filter:
        cases = [c for c in cases if any(fnmatch.fnmatchcase(c["name"], g) for g in args.filter)]
    if args.write_models:
        os.makedirs(args.write_models, exist_ok=True)
        return 0 if build_models(cases, by_name, args.both_ways, args.write_models) else 1
    if not args.irlint:
        parser.error("--irlint is required")
    with tempfile.TemporaryDirectory(prefix="onnx_backend_test.") as directory:
        models = build_models(cases, by_name, args.both_ways, directory)
        check_models(args.irlint, models, args.jobs)
    if not models:
        print("onnx_backend_test: no model checked")
        return 1
    return 1 if report(models, args, all_names, time.monotonic() - start) else 0


if __name__ == "__main__":
    sys.exit(main())
