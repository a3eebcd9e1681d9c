#!/usr/bin/python3
"""Transcribes ONNX's backend node tests into one JSON line per test: the facts shape inference is judged on.

    transcribe_onnx_node_tests.py --onnx-repo ONNX_GIT_DIR --commit COMMIT -o cases.jsonl.gz

ONNX_GIT_DIR is a clone of the onnx/onnx repository (bare or not); the tests are read from
onnx/backend/test/data/node at COMMIT with git, never from a work tree. Each test's model.onnx and
test_data_set_0 become one line: the model's graph (inputs, initializers, nodes with their attributes,
subgraphs recursively, outputs), its model-local functions, the inputs the test feeds that are small enough
to be shape-like (integers, or a few floating-point numbers), and each expected output's element type and dims. The format is described in
testdata/onnx-node-tests/README.md. Output is sorted by test name and gzipped with mtime 0, so the same
commit always gives the same bytes. Needs python3-onnx (1.12 or later) and python3-numpy.
"""
import argparse
import gzip
import io
import json
import math
import os
import subprocess
import sys

import numpy as np
import onnx
from onnx import numpy_helper

NODE_DIR = "onnx/backend/test/data/node"
# Tensors of up to this many elements keep their values: shapes, axes, pads, sizes, k, repeats...
SMALL = 64
# Floating-point inputs of up to this many elements are fed as initializers too (scales, roi, Range's bounds).
SMALL_REAL = 8
INTEGER_TYPES = {2, 3, 4, 5, 6, 7, 12, 13}  # u8 i8 u16 i16 i32 i64 u32 u64
FLOAT_TYPES = {1, 10, 11, 16}  # f32 f16 f64 bf16
COMPLEX_TYPES = {14, 15}
ATTR_KINDS = {
    onnx.AttributeProto.FLOAT: "float", onnx.AttributeProto.INT: "int", onnx.AttributeProto.STRING: "string",
    onnx.AttributeProto.TENSOR: "tensor", onnx.AttributeProto.GRAPH: "graph",
    onnx.AttributeProto.SPARSE_TENSOR: "sparse_tensor", onnx.AttributeProto.TYPE_PROTO: "type_proto",
    onnx.AttributeProto.FLOATS: "floats", onnx.AttributeProto.INTS: "ints", onnx.AttributeProto.STRINGS: "strings",
    onnx.AttributeProto.TENSORS: "tensors", onnx.AttributeProto.GRAPHS: "graphs",
    onnx.AttributeProto.SPARSE_TENSORS: "sparse_tensors", onnx.AttributeProto.TYPE_PROTOS: "type_protos",
}


class GitBlobs:
    """Reads files at one commit through a single `git cat-file --batch` process."""

    def __init__(self, repo, commit):
        self.commit = commit
        self.proc = subprocess.Popen(["git", "-C", repo, "cat-file", "--batch"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE)

    def read(self, path):
        self.proc.stdin.write(f"{self.commit}:{path}\n".encode())
        self.proc.stdin.flush()
        header = self.proc.stdout.readline().split()
        if len(header) != 3:
            raise FileNotFoundError(f"{self.commit}:{path}")
        data = self.proc.stdout.read(int(header[2]))
        self.proc.stdout.read(1)
        return data

    def close(self):
        self.proc.stdin.close()
        self.proc.wait()


def list_files(repo, commit):
    out = subprocess.run(["git", "-C", repo, "ls-tree", "-r", "--name-only", commit, NODE_DIR],
                         check=True, capture_output=True, text=True).stdout
    tests = {}
    for path in out.splitlines():
        rest = path[len(NODE_DIR) + 1:]
        name, _, file = rest.partition("/")
        tests.setdefault(name, []).append(file)
    return tests


def text(b):
    try:
        return b.decode("utf-8")
    except UnicodeDecodeError:
        return {"hex": b.hex()}


def number(x):
    """A float as the shortest decimal that gives the same value back; JSON has no NaN or infinity."""
    if isinstance(x, (np.floating, float)):
        if math.isnan(x):
            return "nan"
        if math.isinf(x):
            return "inf" if x > 0 else "-inf"
        return float(str(x)) if isinstance(x, np.floating) else float(x)
    return x


def f32(x):
    return number(np.float32(x))


def dims_of_shape(shape):
    out = []
    for d in shape.dim:
        which = d.WhichOneof("value")
        out.append(d.dim_value if which == "dim_value" else d.dim_param if which == "dim_param" else None)
    return out


def type_of(t):
    which = t.WhichOneof("value")
    if which == "tensor_type" or which == "sparse_tensor_type":
        tt = getattr(t, which)
        out = {"elem": tt.elem_type}
        if which == "sparse_tensor_type":
            out["sparse"] = True
        if tt.HasField("shape"):
            out["dims"] = dims_of_shape(tt.shape)
        return out
    if which == "sequence_type":
        return {"seq": type_of(t.sequence_type.elem_type)}
    if which == "optional_type":
        return {"opt": type_of(t.optional_type.elem_type)}
    if which == "map_type":
        return {"map": [t.map_type.key_type, type_of(t.map_type.value_type)]}
    return {}


def value_of(v):
    return {"name": v.name, "type": type_of(v.type)} if v.HasField("type") else {"name": v.name}


def element_count(dims):
    n = 1
    for d in dims:
        n *= d
    return n


def tensor_values(t):
    """The values of a small tensor, or None where this onnx cannot decode its type."""
    if t.data_type == 8:
        return [text(s) for s in t.string_data]
    try:
        a = numpy_helper.to_array(t)
    except Exception:
        return None
    if t.data_type in COMPLEX_TYPES:
        return [[number(np.float64(v.real)), number(np.float64(v.imag))] for v in a.flatten()]
    flat = a.flatten()
    if t.data_type in FLOAT_TYPES:
        return [number(v) for v in flat]
    return flat.tolist()


def tensor_of(t, with_name=True):
    out = {"name": t.name} if with_name and t.name else {}
    out.update({"elem": t.data_type, "dims": list(t.dims)})
    if element_count(t.dims) <= SMALL:
        values = tensor_values(t)
        if values is not None:
            out["data"] = values
        elif t.raw_data:
            out["raw"] = t.raw_data.hex()
        elif t.int32_data:
            out["int32_data"] = list(t.int32_data)
    return out


def sparse_of(s):
    return {"dims": list(s.dims), "values": tensor_of(s.values), "indices": tensor_of(s.indices)}


def attr_value(a, kind):
    if kind == "float":
        return f32(a.f)
    if kind == "int":
        return a.i
    if kind == "string":
        return text(a.s)
    if kind == "tensor":
        return tensor_of(a.t)
    if kind == "graph":
        return graph_of(a.g)
    if kind == "sparse_tensor":
        return sparse_of(a.sparse_tensor)
    if kind == "type_proto":
        return type_of(a.tp)
    if kind == "floats":
        return [f32(x) for x in a.floats]
    if kind == "ints":
        return list(a.ints)
    if kind == "strings":
        return [text(s) for s in a.strings]
    if kind == "tensors":
        return [tensor_of(t) for t in a.tensors]
    if kind == "graphs":
        return [graph_of(g) for g in a.graphs]
    if kind == "sparse_tensors":
        return [sparse_of(s) for s in a.sparse_tensors]
    return [type_of(t) for t in a.type_protos]


def attr_of(a):
    kind = ATTR_KINDS.get(a.type, str(a.type))
    if a.ref_attr_name:
        return {"ref": a.ref_attr_name, "type": kind}
    return {kind: attr_value(a, kind)}


def node_of(n):
    out = {"op": n.op_type}
    if n.domain:
        out["domain"] = n.domain
    if n.name:
        out["name"] = n.name
    out["inputs"] = list(n.input)
    out["outputs"] = list(n.output)
    if n.attribute:
        out["attrs"] = {a.name: attr_of(a) for a in n.attribute}
    return out


def graph_of(g):
    out = {"inputs": [value_of(v) for v in g.input]}
    if g.initializer:
        out["initializers"] = [tensor_of(t) for t in g.initializer]
    if g.sparse_initializer:
        out["sparse_initializers"] = [sparse_of(s) for s in g.sparse_initializer]
    out["nodes"] = [node_of(n) for n in g.node]
    out["outputs"] = [value_of(v) for v in g.output]
    return out


def opsets_of(imports):
    return {o.domain: o.version for o in imports}


def function_of(f):
    return {"name": f.name, "domain": f.domain, "inputs": list(f.input), "outputs": list(f.output),
            "attrs": list(f.attribute), "opsets": opsets_of(f.opset_import), "nodes": [node_of(n) for n in f.node]}


def parse_value(data, type_json):
    """Parses an input or output .pb by the graph's declared type: a tensor, a sequence or an optional."""
    if "seq" in type_json:
        proto = onnx.SequenceProto()
    elif "opt" in type_json:
        proto = onnx.OptionalProto()
    elif "map" in type_json:
        proto = onnx.MapProto()
    else:
        proto = onnx.TensorProto()
    proto.ParseFromString(data)
    return proto


def shape_of_value(proto):
    """An expected output: its element type and dims, a sequence's list of them, or an optional's content."""
    if isinstance(proto, onnx.TensorProto):
        out = {"elem": proto.data_type, "dims": list(proto.dims)}
        if proto.data_type in INTEGER_TYPES and element_count(proto.dims) <= SMALL:
            out["data"] = tensor_values(proto)
        return out
    if isinstance(proto, onnx.SequenceProto):
        return {"seq": [shape_of_value(t) for t in proto.tensor_values]}
    if isinstance(proto, onnx.OptionalProto):
        if proto.elem_type == onnx.OptionalProto.TENSOR:
            return {"opt": shape_of_value(proto.tensor_value)}
        if proto.elem_type == onnx.OptionalProto.SEQUENCE:
            return {"opt": shape_of_value(proto.sequence_value)}
        return {"opt": None}
    return {"map": True}


def numbered(files, prefix):
    paths = [f for f in files if f.startswith(f"test_data_set_0/{prefix}_")]
    return sorted(paths, key=lambda p: int(p.rsplit("_", 1)[1].split(".")[0]))


def is_shape_like(proto):
    """Whether a fed tensor may be what real models hold as an initializer: a small integer tensor (a shape,
    axes, pads, sizes, k), or a few floating-point numbers (Resize's scales and roi, Range's bounds, a depth)."""
    n = element_count(proto.dims)
    return (proto.data_type in INTEGER_TYPES and n <= SMALL) or (proto.data_type in FLOAT_TYPES and n <= SMALL_REAL)


def transcribe(blobs, name, files):
    model = onnx.ModelProto()
    model.ParseFromString(blobs.read(f"{NODE_DIR}/{name}/model.onnx"))
    case = {"name": name, "ir_version": model.ir_version, "opsets": opsets_of(model.opset_import),
            "graph": graph_of(model.graph)}
    if model.functions:
        case["functions"] = [function_of(f) for f in model.functions]
    initialized = {t.name for t in model.graph.initializer}
    fed = [v for v in case["graph"]["inputs"] if v["name"] not in initialized]
    feeds = []
    for path, value in zip(numbered(files, "input"), fed, strict=True):
        proto = parse_value(blobs.read(f"{NODE_DIR}/{name}/{path}"), value.get("type", {}))
        if isinstance(proto, onnx.TensorProto) and is_shape_like(proto):
            feeds.append({"name": value["name"], **tensor_of(proto, with_name=False)})
    case["feeds"] = feeds
    outputs = case["graph"]["outputs"]
    case["expected"] = [shape_of_value(parse_value(blobs.read(f"{NODE_DIR}/{name}/{path}"), value.get("type", {})))
                        for path, value in zip(numbered(files, "output"), outputs, strict=True)]
    return case


def write_gzip(path, lines):
    raw = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0, compresslevel=9) as gz:
        for line in lines:
            gz.write(line.encode("utf-8") + b"\n")
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(raw.getvalue())
    os.replace(tmp, path)
    return len(raw.getvalue())


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--onnx-repo", required=True, help="a git clone of onnx/onnx")
    parser.add_argument("--commit", required=True, help="the commit whose node tests to read")
    parser.add_argument("-o", "--output", required=True, help="the .jsonl.gz to write")
    args = parser.parse_args()
    tests = list_files(args.onnx_repo, args.commit)
    if not tests:
        sys.exit(f"transcribe: no tests under {NODE_DIR} at {args.commit!r}")
    blobs = GitBlobs(args.onnx_repo, args.commit)
    lines = []
    for name in sorted(tests):
        case = transcribe(blobs, name, tests[name])
        lines.append(json.dumps(case, separators=(",", ":"), ensure_ascii=True, allow_nan=False))
    blobs.close()
    size = write_gzip(args.output, lines)
    print(f"transcribe: {len(lines)} tests, {sum(map(len, lines))} bytes of JSON, {size} bytes gzipped")


if __name__ == "__main__":
    main()
