#!/usr/bin/python3
"""`irlint run` on ONNX models goes the same way as on IR: a mismatching output gets its map (text and JSON),
the conventions that explain it, a --map-png heatmap and an HTML --report, for one node and for --data DIR
with TensorProto .pb dumps. The models and data are generated here with the onnx package."""

import argparse
import json
import os
import struct
import sys
import tempfile

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from irlint_process import run as run_irlint

failures = []


def expect(condition, what):
    if not condition:
        failures.append(what)


def save_model(path, op, attrs, shape, opset, name, indices=False):
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, shape)
    outs = [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)]
    if indices:
        outs.append(helper.make_tensor_value_info("i", TensorProto.INT64, None))
    node = helper.make_node(op, ["x"], [o.name for o in outs], name=name, **attrs)
    m = helper.make_model(helper.make_graph([node], "g", [x], outs), opset_imports=[helper.make_opsetid("", opset)])
    m.ir_version = 8
    onnx.save(m, path)
    return path


def png_size(path):
    with open(path, "rb") as f:
        head = f.read(24)
    if head[:8] != b"\x89PNG\r\n\x1a\n" or head[12:16] != b"IHDR":
        return None
    return struct.unpack(">II", head[16:24])


# AveragePool 2x2 stride 2 with one pad on every side, count_include_pad=0 (ONNX's default), on a [1,2,5,5]
# input; the expected data divides by all four taps (PyTorch's count_include_pad=True). Only the windows of
# the first row and the first column hold padding: 5 of the 9 positions of each channel differ.
AVG_ATTRS = {"kernel_shape": [2, 2], "strides": [2, 2], "pads": [1, 1, 1, 1]}
AVG_INPUT = (np.arange(50, dtype=np.float32) + 1).reshape(1, 2, 5, 5)


def avg_counting_pads(x):
    padded = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)))
    return (padded[:, :, :6, :6].reshape(1, 2, 3, 2, 3, 2).sum(axis=(3, 5)) / 4).astype(np.float32)


EXPECTED_CELLS = [[2, 2, 2], [2, 0, 0], [2, 0, 0]]
EXPECTED_BANDS = {"first_row": 6, "last_row": 2, "first_column": 2, "last_column": 0, "first_plane": 0,
                  "last_plane": 0, "interior": 0}
PAD_CONVENTIONS = ["exclude-pad-false", "avg-divisor-clipped"]


def test_one_node(irlint, work):
    model = save_model(os.path.join(work, "avg.onnx"), "AveragePool", AVG_ATTRS, [1, 2, 5, 5], 19, "<b>pool</b>")
    x, y = os.path.join(work, "x.npy"), os.path.join(work, "y.npy")
    np.save(x, AVG_INPUT)
    np.save(y, avg_counting_pads(AVG_INPUT))
    png, html = os.path.join(work, "map.png"), os.path.join(work, "run.html")
    args = ["run", model, "--layer", "<b>pool</b>", "--input", x, "--expect", y]

    code, out, err = run_irlint(irlint, args + ["--format", "json", "--map-png", png, "--report", html], 60)
    expect(code == 1, f"one node: exit {code}: {err}")
    doc = json.loads(out) if out else {}
    o = (doc.get("outputs") or [{}])[0]
    m = o.get("map") or {}
    expect(o.get("mismatches") == 10 and m.get("mismatches") == 10, f"one node: mismatches {o.get('mismatches')}")
    expect(m.get("plane") == [3, 3] and m.get("block") == [1, 1], f"one node: plane {m.get('plane')}")
    expect(m.get("cells") == EXPECTED_CELLS, f"one node: cells {m.get('cells')}")
    expect(m.get("channels") == [5, 5], f"one node: channels {m.get('channels')}")
    expect(m.get("bands") == EXPECTED_BANDS, f"one node: bands {m.get('bands')}")
    got = [e["convention"] for e in o.get("explanations", [])]
    expect(got == PAD_CONVENTIONS, f"one node: explanations {got}")
    # A 3x3 map is drawn 16 pixels a cell.
    expect(os.path.exists(png) and png_size(png) == (48, 48), "one node: --map-png not written as a 48x48 PNG")
    page = open(html, encoding="utf-8").read() if os.path.exists(html) else ""
    expect("W (column index)" in page, "one node: --report has no heatmap")
    expect("AveragePool-19" in page and "exclude-pad-false" in page, "one node: --report lacks the op or the why")
    expect("&lt;b&gt;pool&lt;/b&gt;" in page and "<b>pool</b>" not in page, "one node: node name not escaped in HTML")

    code, text, err = run_irlint(irlint, args, 60)
    expect(code == 1, f"one node, text: exit {code}: {err}")
    expect("where: all 10 mismatches on the border: first row 6, last row 2, first column 2" in text,
           f"one node: no text map: {text}")
    expect("channels: 2 of 2 with mismatches, 5 each" in text, f"one node: no channel line: {text}")
    expect("exclude-pad-false: exclude-pad=false" in text and "avg-divisor-clipped: " in text,
           f"one node: no text explanation: {text}")

    os.remove(png)
    np.save(os.path.join(work, "same.npy"), avg_exclude_pads(AVG_INPUT))
    code, out, err = run_irlint(irlint, ["run", model, "--layer", "0", "--input", x, "--expect",
                                         os.path.join(work, "same.npy"), "--format", "json", "--map-png", png], 60)
    o = (json.loads(out).get("outputs") or [{}])[0] if out else {}
    expect(code == 0 and (o.get("map") or {}).get("mismatches") == 0 and o.get("explanations") == [],
           f"matching node: exit {code}, {o.get('map')}, {err}")
    expect(not os.path.exists(png), "matching node: a PNG was written")


def avg_exclude_pads(x):
    """ONNX's count_include_pad=0: each window divided by its taps on the input."""
    padded = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)))
    ones = np.pad(np.ones_like(x), ((0, 0), (0, 0), (1, 1), (1, 1)))
    sums = padded[:, :, :6, :6].reshape(1, 2, 3, 2, 3, 2).sum(axis=(3, 5))
    taps = ones[:, :, :6, :6].reshape(1, 2, 3, 2, 3, 2).sum(axis=(3, 5))
    return (sums / taps).astype(np.float32)


# MaxPool 2x2 stride 2 on [1,2,4,4] with its Indices output: ONNX numbers them over the whole tensor, the
# expected ones (PyTorch's return_indices) within each channel, so channel 1's four indices are off by 16.
def test_data_dir(irlint, work):
    dumps = os.path.join(work, "dumps")
    os.makedirs(dumps)
    model = save_model(os.path.join(work, "max.onnx"), "MaxPool", {"kernel_shape": [2, 2], "strides": [2, 2]},
                       [1, 2, 4, 4], 12, "mp", indices=True)
    x = np.arange(32, dtype=np.float32).reshape(1, 2, 4, 4)
    values = x.reshape(1, 2, 2, 2, 2, 2).max(axis=(3, 5))
    per_plane = np.array([5, 7, 13, 15] * 2, dtype=np.int64).reshape(1, 2, 2, 2)

    def pb(name, array):
        with open(os.path.join(dumps, name), "wb") as f:
            f.write(numpy_helper.from_array(array).SerializeToString())

    pb("0.in0.pb", x)
    pb("0.out0.pb", values)
    pb("0.out1.pb", per_plane)
    png, html = os.path.join(work, "dir.png"), os.path.join(work, "dir.html")
    code, out, err = run_irlint(irlint, ["run", model, "--data", dumps, "--format", "json", "--map-png", png,
                                         "--report", html], 60)
    expect(code == 1, f"--data: exit {code}: {err}")
    runs = json.loads(out).get("runs", []) if out else []
    outputs = runs[0].get("outputs", []) if runs else []
    expect(len(outputs) == 2, f"--data: outputs {outputs}")
    if len(outputs) == 2:
        expect(outputs[0].get("mismatches") == 0 and outputs[0].get("explanations") == []
               and (outputs[0].get("map") or {}).get("mismatches") == 0,
               f"--data: the values should match: {outputs[0]}")
        m = outputs[1].get("map") or {}
        expect(m.get("mismatches") == 4 and m.get("channels") == [0, 4], f"--data: indices map {m}")
        expect(m.get("cells") == [[1, 1], [1, 1]], f"--data: indices cells {m.get('cells')}")
        got = [e["convention"] for e in outputs[1].get("explanations", [])]
        expect(got == ["indices-per-plane"], f"--data: explanations {got}")
    # A 2x2 map is drawn 16 pixels a cell; only the mismatching output has a panel.
    expect(os.path.exists(png) and png_size(png) == (32, 32), "--data: --map-png not written as a 32x32 PNG")
    page = open(html, encoding="utf-8").read() if os.path.exists(html) else ""
    expect("indices-per-plane" in page and "W (column index)" in page, "--data: --report lacks the map or the why")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--irlint", required=True)
    irlint = ap.parse_args().irlint
    with tempfile.TemporaryDirectory(prefix="irlint-onnxrun-") as work:
        test_one_node(irlint, work)
        test_data_dir(irlint, work)
    for f in failures:
        print("FAIL:", f)
    print(f"onnx run: {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
