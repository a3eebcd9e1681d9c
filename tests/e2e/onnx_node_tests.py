#!/usr/bin/python3
"""Runs ONNX's backend test cases for the pooling ops through `irlint run`.

    onnx_node_tests.py --irlint build/irlint --data /usr/share/libonnx-testdata/data

DATA is the test-data root of ONNX (Debian package libonnx-testdata): the cases are node/test_averagepool_*,
node/test_maxpool_*, node/test_globalaveragepool*, node/test_globalmaxpool*, pytorch-converted/test_*Pool* and
pytorch-operator/test_operator_*pool*. Each case's pooling node becomes a one-layer OpenVINO IR (the layer the
ONNX frontend of OpenVINO would create), its inputs and outputs .npy files; `irlint check` must find nothing and
`irlint run` must match ONNX's outputs. Unsqueeze/Squeeze around the node are applied to the data instead.

Every case must be listed below: in PASSES (must match) or in SKIPS (OpenVINO's semantics differ; the case still
runs and must differ exactly in the outputs named there, so an entry that stops being true is noticed).
Prints one line per failure and a summary; exits 1 on any failure. Needs python3-onnx and python3-numpy.
"""
import argparse
import fnmatch
import glob
import json
import os
import sys
import tempfile
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field

import numpy as np
import onnx
from onnx import helper, numpy_helper

import irlint_process

TIMEOUT_SECONDS = 300

SUITES = {
    "node": ["test_averagepool_*", "test_maxpool_*", "test_globalaveragepool*", "test_globalmaxpool*"],
    "pytorch-converted": ["test_*Pool*"],
    "pytorch-operator": ["test_operator_*pool*"],
}

PASSES = {
    "node/test_averagepool_1d_default",
    "node/test_averagepool_2d_ceil",
    "node/test_averagepool_2d_default",
    "node/test_averagepool_2d_pads",
    "node/test_averagepool_2d_pads_count_include_pad",
    "node/test_averagepool_2d_precomputed_pads",
    "node/test_averagepool_2d_precomputed_pads_count_include_pad",
    "node/test_averagepool_2d_precomputed_same_upper",
    "node/test_averagepool_2d_precomputed_strides",
    "node/test_averagepool_2d_same_lower",
    "node/test_averagepool_2d_same_upper",
    "node/test_averagepool_2d_strides",
    "node/test_averagepool_3d_default",
    "node/test_globalaveragepool",
    "node/test_globalaveragepool_precomputed",
    "node/test_globalmaxpool",
    "node/test_globalmaxpool_precomputed",
    "node/test_maxpool_1d_default",
    "node/test_maxpool_2d_ceil",
    "node/test_maxpool_2d_default",
    "node/test_maxpool_2d_dilations",
    "node/test_maxpool_2d_pads",
    "node/test_maxpool_2d_precomputed_pads",
    "node/test_maxpool_2d_precomputed_same_upper",
    "node/test_maxpool_2d_precomputed_strides",
    "node/test_maxpool_2d_same_lower",
    "node/test_maxpool_2d_same_upper",
    "node/test_maxpool_2d_strides",
    "node/test_maxpool_2d_uint8",
    "node/test_maxpool_3d_default",
    "node/test_maxpool_with_argmax_2d_precomputed_pads",
    "pytorch-converted/test_AvgPool1d",
    "pytorch-converted/test_AvgPool1d_stride",
    "pytorch-converted/test_AvgPool2d",
    "pytorch-converted/test_AvgPool2d_stride",
    "pytorch-converted/test_AvgPool3d",
    "pytorch-converted/test_AvgPool3d_stride",
    "pytorch-converted/test_AvgPool3d_stride1_pad0_gpu_input",
    "pytorch-converted/test_MaxPool1d",
    "pytorch-converted/test_MaxPool1d_stride",
    "pytorch-converted/test_MaxPool1d_stride_padding_dilation",
    "pytorch-converted/test_MaxPool2d",
    "pytorch-converted/test_MaxPool2d_stride_padding_dilation",
    "pytorch-converted/test_MaxPool3d",
    "pytorch-converted/test_MaxPool3d_stride",
    "pytorch-converted/test_MaxPool3d_stride_padding",
    "pytorch-operator/test_operator_maxpool",
}

# case -> (why OpenVINO cannot reproduce it, the output indices that must differ; the others must match)
SKIPS = {
    "node/test_maxpool_with_argmax_2d_precomputed_strides": (
        "storage_order=1 asks for column-major indices (w*H + h); MaxPool-8 only numbers row-major "
        "(h*W + w), e.g. the max at (1,3) of the 5x5 input is 16 in ONNX and 8 in OpenVINO; the values match",
        {1},
    ),
}

# numpy dtype -> (IR element type, port precision)
IR_TYPES = {
    "float16": ("f16", "FP16"),
    "float32": ("f32", "FP32"),
    "float64": ("f64", "FP64"),
    "int8": ("i8", "I8"),
    "uint8": ("u8", "U8"),
    "int32": ("i32", "I32"),
    "int64": ("i64", "I64"),
}

AUTO_PAD = {"": "explicit", "NOTSET": "explicit", "SAME_UPPER": "same_upper", "SAME_LOWER": "same_lower",
            "VALID": "valid"}


class CaseError(Exception):
    pass


@dataclass
class Layer:
    """The pooling layer of a generated IR: everything but the input."""
    type: str
    version: str
    attrs: dict
    output_types: list  # numpy dtypes, one per output port
    const: np.ndarray = None  # the second input of an adaptive pool
    label: str = ""  # tells apart the layers one case is run with


@dataclass
class Case:
    name: str
    node: onnx.NodeProto
    opset: int
    data_sets: list = field(default_factory=list)  # [(input, [outputs])], as the pooling node sees them


# --- ONNX side --------------------------------------------------------------------------------------------


def find_cases(root):
    """Returns {case name: directory} for every pooling case under root."""
    cases = {}
    for suite, patterns in SUITES.items():
        suite_dir = os.path.join(root, suite)
        if not os.path.isdir(suite_dir):
            continue
        for entry in sorted(os.listdir(suite_dir)):
            if any(fnmatch.fnmatchcase(entry, p) for p in patterns):
                cases[f"{suite}/{entry}"] = os.path.join(suite_dir, entry)
    return cases


def attributes(node):
    return {a.name: helper.get_attribute_value(a) for a in node.attribute}


def reshapers(nodes):
    """The (op, axes) steps of a chain of Unsqueeze/Squeeze nodes; they only reshape, so the data takes them."""
    fns = []
    for node in nodes:
        axes = attributes(node).get("axes")
        if node.op_type not in ("Unsqueeze", "Squeeze") or axes is None or len(node.input) != 1:
            raise CaseError(f"cannot fold the {node.op_type} node around the pooling node")
        fns.append((node.op_type, tuple(axes)))
    return fns


def apply_reshape(fns, array, inverse=False):
    """Applies the folded Unsqueeze/Squeeze nodes forwards, or undoes them from the last one back."""
    for op, axes in (reversed(fns) if inverse else fns):
        if (op == "Unsqueeze") != inverse:
            array = np.expand_dims(array, axes)
        else:
            array = np.squeeze(array, axes)
    return array


def load_tensors(directory, prefix):
    paths = sorted(glob.glob(os.path.join(directory, f"{prefix}_*.pb")),
                   key=lambda p: int(p.rsplit("_", 1)[1].split(".")[0]))
    return [numpy_helper.to_array(onnx.load_tensor(p)) for p in paths]


def load_case(name, directory):
    model = onnx.load(os.path.join(directory, "model.onnx"))
    nodes = list(model.graph.node)
    pools = [i for i, n in enumerate(nodes) if n.op_type.endswith("Pool")]
    if len(pools) != 1:
        raise CaseError(f"expected one pooling node, found {len(pools)}")
    at = pools[0]
    before, after = reshapers(nodes[:at]), reshapers(nodes[at + 1:])
    opset = max(o.version for o in model.opset_import if o.domain in ("", "ai.onnx"))
    case = Case(name, nodes[at], opset)
    for data_dir in sorted(glob.glob(os.path.join(directory, "test_data_set_*"))):
        inputs, outputs = load_tensors(data_dir, "input"), load_tensors(data_dir, "output")
        if len(inputs) != 1 or not outputs:
            raise CaseError(f"{os.path.basename(data_dir)}: {len(inputs)} inputs, {len(outputs)} outputs")
        # only the first graph output passes the trailing nodes; others (indices) leave the pool directly
        outputs[0] = apply_reshape(after, outputs[0], inverse=True)
        case.data_sets.append((apply_reshape(before, inputs[0]), outputs))
    if not case.data_sets:
        raise CaseError("no test_data_set_* directory")
    return case


# --- ONNX node -> OpenVINO layer ---------------------------------------------------------------------------


def window_attrs(a, rank):
    """The attributes AvgPool and MaxPool share, from an AveragePool/MaxPool node's attributes."""
    pads = a.get("pads", [0] * 2 * rank)
    auto_pad = a.get("auto_pad", b"NOTSET").decode()
    if auto_pad not in AUTO_PAD:
        raise CaseError(f"auto_pad={auto_pad} has no OpenVINO counterpart")
    return {
        "auto_pad": AUTO_PAD[auto_pad],
        "kernel": a["kernel_shape"],
        "strides": a.get("strides", [1] * rank),
        "pads_begin": pads[:rank],
        "pads_end": pads[rank:],
        "rounding_type": "ceil" if a.get("ceil_mode", 0) else "floor",
    }


def average_pool(case, dtype):
    a = attributes(case.node)
    rank = len(a["kernel_shape"])
    attrs = window_attrs(a, rank)
    attrs["exclude-pad"] = "false" if a.get("count_include_pad", 0) else "true"
    dilations = a.get("dilations", [1] * rank)
    if any(d != 1 for d in dilations):
        return [Layer("AvgPool", "opset16", {**attrs, "dilations": dilations}, [dtype])]
    return [Layer("AvgPool", "opset1", attrs, [dtype])]


def max_pool(case, dtype):
    """MaxPool-1 before ONNX opset 8 and MaxPool-8 since, as OpenVINO's ONNX frontend converts it."""
    a = attributes(case.node)
    rank = len(a["kernel_shape"])
    attrs = window_attrs(a, rank)
    if case.opset < 8:
        return [Layer("MaxPool", "opset1", attrs, [dtype])]
    attrs.update(dilations=a.get("dilations", [1] * rank), axis=0, index_element_type="i64")
    return [Layer("MaxPool", "opset8", attrs, [dtype, np.dtype("int64")])]


def global_pool(case, dtype, spatial, average):
    """A global pool has no layer of its own; it runs in two forms, the adaptive pool to 1x..x1 and a pool
    whose kernel is the whole input."""
    rank = len(spatial)
    ones = np.ones(rank, "<i8")
    window = {"auto_pad": "explicit", "kernel": list(spatial), "strides": [1] * rank, "pads_begin": [0] * rank,
              "pads_end": [0] * rank, "rounding_type": "floor"}
    if average:
        return [Layer("AdaptiveAvgPool", "opset8", {}, [dtype], ones, "AdaptiveAvgPool-8"),
                Layer("AvgPool", "opset1", {**window, "exclude-pad": "true"}, [dtype], label="AvgPool-1")]
    return [Layer("AdaptiveMaxPool", "opset8", {"index_element_type": "i64"}, [dtype, np.dtype("int64")], ones,
                  "AdaptiveMaxPool-8"),
            Layer("MaxPool", "opset1", window, [dtype], label="MaxPool-1")]


def layers_for(case, input_array):
    """The OpenVINO layers that compute the case's pooling node."""
    op, dtype, spatial = case.node.op_type, input_array.dtype, input_array.shape[2:]
    if op == "AveragePool":
        return average_pool(case, dtype)
    if op == "MaxPool":
        return max_pool(case, dtype)
    if op in ("GlobalAveragePool", "GlobalMaxPool"):
        return global_pool(case, dtype, spatial, op == "GlobalAveragePool")
    raise CaseError(f"{op} is not a pooling op irlint runs")


# --- IR writing --------------------------------------------------------------------------------------------


def ir_type(dtype):
    if dtype.name not in IR_TYPES:
        raise CaseError(f"element type {dtype.name} has no IR counterpart here")
    return IR_TYPES[dtype.name]


def text(value):
    return ",".join(map(str, value)) if isinstance(value, (list, tuple)) else str(value)


def add_port(parent, port_id, dtype, shape):
    port = ET.SubElement(parent, "port", id=str(port_id), precision=ir_type(dtype)[1])
    for d in shape:
        ET.SubElement(port, "dim").text = str(d)


def add_layer(layers, layer_id, name, type_, version, data=None):
    layer = ET.SubElement(layers, "layer", id=str(layer_id), name=name, type=type_, version=version)
    if data is not None:
        ET.SubElement(layer, "data", {k: text(v) for k, v in data.items()})
    return layer


def build_ir(layer, input_array, output_shapes):
    """Returns (IR XML text, .bin bytes, id of the pooling layer): Parameter [+ Const] -> layer -> Results."""
    net = ET.Element("net", name="onnx_node_test", version="11")
    layers, edges = ET.SubElement(net, "layers"), ET.SubElement(net, "edges")

    def edge(src, src_port, dst, dst_port):
        ET.SubElement(edges, "edge", {"from-layer": str(src), "from-port": str(src_port), "to-layer": str(dst),
                                      "to-port": str(dst_port)})

    in_type, in_shape = input_array.dtype, input_array.shape
    param = add_layer(layers, 0, "input", "Parameter", "opset1",
                      {"shape": list(in_shape), "element_type": ir_type(in_type)[0]})
    add_port(ET.SubElement(param, "output"), 0, in_type, in_shape)

    inputs = [(in_type, in_shape)]
    blob = b""
    if layer.const is not None:
        blob = layer.const.tobytes()
        const = add_layer(layers, 1, "output_size", "Const", "opset1",
                          {"element_type": ir_type(layer.const.dtype)[0], "shape": list(layer.const.shape),
                           "offset": 0, "size": len(blob)})
        add_port(ET.SubElement(const, "output"), 0, layer.const.dtype, layer.const.shape)
        inputs.append((layer.const.dtype, layer.const.shape))

    pool_id = len(inputs)
    pool = add_layer(layers, pool_id, "pool", layer.type, layer.version, layer.attrs)
    pool_in, pool_out = ET.SubElement(pool, "input"), ET.SubElement(pool, "output")
    for port, (dtype, shape) in enumerate(inputs):
        add_port(pool_in, port, dtype, shape)
        edge(port, 0, pool_id, port)  # the Parameter is layer 0, the Const layer 1
    for i, (dtype, shape) in enumerate(zip(layer.output_types, output_shapes)):
        out_port, result_id = len(inputs) + i, pool_id + 1 + i
        add_port(pool_out, out_port, dtype, shape)
        result = add_layer(layers, result_id, f"output{i}", "Result", "opset1")
        add_port(ET.SubElement(result, "input"), 0, dtype, shape)
        edge(pool_id, out_port, result_id, 0)
    ET.indent(net, space="\t")
    return '<?xml version="1.0"?>\n' + ET.tostring(net, encoding="unicode") + "\n", blob, pool_id


def write_run_files(directory, layer, input_array, outputs):
    """Writes model.xml (and .bin), in.npy and out<i>.npy; returns (model path, layer id, expect paths)."""
    if len(outputs) > len(layer.output_types):
        raise CaseError(f"{len(outputs)} outputs, the {layer.type} layer has {len(layer.output_types)}")
    os.makedirs(directory)
    # an output ONNX did not give (the indices of a MaxPool-8) takes the values' shape
    shapes = [outputs[min(i, len(outputs) - 1)].shape for i in range(len(layer.output_types))]
    xml, blob, pool_id = build_ir(layer, input_array, shapes)
    model = os.path.join(directory, "model.xml")
    with open(model, "w") as f:
        f.write(xml)
    if blob:
        with open(os.path.join(directory, "model.bin"), "wb") as f:
            f.write(blob)
    np.save(os.path.join(directory, "in.npy"), input_array)
    expects = []
    for i, out in enumerate(outputs):
        if out.dtype != layer.output_types[i]:
            raise CaseError(f"output {i} is {out.dtype}, the layer gives {layer.output_types[i]}")
        expects.append(os.path.join(directory, f"out{i}.npy"))
        np.save(expects[-1], out)
    return model, pool_id, expects


# --- running -----------------------------------------------------------------------------------------------


def irlint(binary, args):
    code, out, err = irlint_process.run(binary, args, TIMEOUT_SECONDS)
    if code is None:
        raise CaseError(f"`irlint {args[0]}` did not finish within {TIMEOUT_SECONDS}s")
    if code < 0:
        raise CaseError(f"`irlint {args[0]}` was killed by signal {-code}")
    return code, out, err


def check_ir(binary, model):
    code, out, err = irlint(binary, ["check", model, "--fail-on", "warning"])
    if code != 0:
        raise CaseError(f"`irlint check` of the generated IR: exit {code}: {(out + err).strip()[:400]}")


def run_layer(binary, model, pool_id, in_path, expects):
    """Returns (exit code, the JSON report of `irlint run`)."""
    args = ["run", model, "--layer", str(pool_id), "--input", in_path, "--format", "json"]
    for path in expects:
        args += ["--expect", path]
    code, out, err = irlint(binary, args)
    try:
        return code, json.loads(out)
    except ValueError:
        raise CaseError(f"`irlint run`: exit {code}, no JSON report: {(out + err).strip()[:400]}")


def mismatch_text(report):
    parts = []
    for o in report.get("outputs", []):
        if o.get("mismatches"):
            parts.append(f"output {o.get('index')}: {o.get('mismatches')}/{o.get('total')} differ, "
                         f"max abs err {o.get('max_abs_err')}, first {o.get('first_mismatch')}")
    return "; ".join(parts) or json.dumps(report)[:400]


def verdict(code, report, expected_count, differing):
    """None when the run came out as expected (all outputs match, or exactly `differing` ones differ)."""
    status = report.get("status")
    outputs = report.get("outputs", [])
    uncompared = [i for i in range(expected_count) if i >= len(outputs) or not outputs[i].get("compared")]
    if uncompared:
        return f"outputs {uncompared} were given but not compared: {json.dumps(report)[:400]}"
    if not differing:
        if code == 0 and status == "ok":
            return None
        return f"exit {code}, status {status}: {mismatch_text(report)}"
    if code != 1 or status != "mismatch":
        return f"listed as a skip, but exit {code}, status {status} (expected a mismatch); update SKIPS"
    actual = {o.get("index") for o in outputs if o.get("mismatches")}
    if actual != differing:
        return f"expected outputs {sorted(differing)} to differ, got {sorted(actual)}: {mismatch_text(report)}"
    return None


def run_case(binary, case, workdir):
    """Runs every data set of the case with every layer form; returns (runs, failure messages)."""
    differing = SKIPS.get(case.name, (None, set()))[1]
    runs, failures = 0, []
    for set_index, (input_array, outputs) in enumerate(case.data_sets):
        for layer in layers_for(case, input_array):
            label = case.name + (f" [{layer.label}]" if layer.label else "")
            label += f" (data set {set_index})" if len(case.data_sets) > 1 else ""
            directory = os.path.join(workdir, f"{len(os.listdir(workdir))}")
            model, pool_id, expects = write_run_files(directory, layer, input_array, outputs)
            check_ir(binary, model)
            code, report = run_layer(binary, model, pool_id, os.path.join(directory, "in.npy"), expects)
            runs += 1
            problem = verdict(code, report, len(expects), differing)
            if problem:
                failures.append(f"{label}: {problem}")
    return runs, failures


def run_all(binary, found):
    """Runs every case found; returns (runs, passed, skipped, failure messages)."""
    runs = passed = skipped = 0
    failures = []
    with tempfile.TemporaryDirectory(prefix="irlint-onnx-") as workdir:
        for name, directory in sorted(found.items()):
            try:
                case_runs, case_failures = run_case(binary, load_case(name, directory), workdir)
            except CaseError as e:
                case_runs, case_failures = 0, [f"{name}: {e}"]
            runs += case_runs
            if name not in PASSES and name not in SKIPS:
                outcome = "; ".join(case_failures) or "it matches"
                failures.append(f"{name}: a case in neither PASSES nor SKIPS ({outcome}); list it")
            elif case_failures:
                failures += case_failures
            elif name in SKIPS:
                skipped += case_runs
            else:
                passed += case_runs
    return runs, passed, skipped, failures


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--irlint", required=True, help="the irlint binary")
    ap.add_argument("--data", required=True, help="ONNX's test-data root (holding node/, pytorch-converted/)")
    args = ap.parse_args()

    found = find_cases(args.data)
    if not found:
        print(f"FAIL no pooling case under {args.data}")
        return 1
    runs, passed, skipped, failures = run_all(os.path.abspath(args.irlint), found)
    for message in failures:
        print(f"FAIL {message}")
    for name in sorted((PASSES | set(SKIPS)) - set(found)):
        print(f"note: {name} is listed but not in {args.data}")
    print(f"{len(found)} cases: {runs} runs, {passed} passed, {skipped} skipped, {len(failures)} failed")
    for name, (reason, _) in sorted(SKIPS.items()):
        if name in found:
            print(f"skipped {name}: {reason}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
