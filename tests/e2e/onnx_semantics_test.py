#!/usr/bin/python3
"""ONNX judged by ONNX's rules, through the binary: a MaxPool whose dilated kernel is longer than the padded
input checks with runtime-divergence warnings only and runs to ONNX's shape; each ONNX Runtime divergence
is reported; `run` refuses an array whose shape or type differs from the declared graph input."""

import argparse
import json
import os
import sys
import tempfile

import numpy as np
import onnx
from onnx import TensorProto, helper

from irlint_process import run as run_irlint

failures = []


def expect(condition, what):
    if not condition:
        failures.append(what)


def model(path, op, attrs, shape, opset=14, indices=False):
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, shape)
    outs = [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)]
    if indices:
        outs.append(helper.make_tensor_value_info("i", TensorProto.INT64, None))
    node = helper.make_node(op, ["x"], [o.name for o in outs], name="pool", **attrs)
    m = helper.make_model(helper.make_graph([node], "g", [x], outs), opset_imports=[helper.make_opsetid("", opset)])
    m.ir_version = 8
    onnx.save(m, path)
    return path


def check(irlint, path):
    code, out, err = run_irlint(irlint, ["check", path, "--format", "json"], 30)
    report = json.loads(out)
    return code, report["files"][0]["diagnostics"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--irlint", required=True)
    irlint = ap.parse_args().irlint
    with tempfile.TemporaryDirectory(prefix="irlint-onnxsem-") as work:
        semantics(irlint, work)
    for f in failures:
        print("FAIL:", f)
    print(f"onnx semantics: {len(failures)} failures")
    return 1 if failures else 0


def semantics(irlint, work):

    # torch.onnx.export of MaxPool2d((2,2), stride=(2,1), padding=(1,0), dilation=(4,2), ceil_mode=True).
    torch_like = model(os.path.join(work, "dilated.onnx"), "MaxPool",
                       {"kernel_shape": [2, 2], "strides": [2, 1], "pads": [1, 0, 1, 0], "dilations": [4, 2],
                        "ceil_mode": 1}, [1, 2, 2, 7], indices=True)
    code, diags = check(irlint, torch_like)
    expect(code == 0, f"check of the dilated MaxPool exits {code}")
    expect(all(d["severity"] == "warning" and d["rule"] == "runtime-divergence" for d in diags),
           f"dilated MaxPool: only runtime-divergence warnings expected: {diags}")
    messages = " ".join(d["message"] for d in diags)
    expect("OpenVINO's ONNX import (MaxPool-8) rejects" in messages, "no OpenVINO divergence")
    expect("PyTorch -inf" in messages, "no PyTorch / ONNX Runtime divergence")
    x = np.arange(28, dtype=np.float32).reshape(1, 2, 2, 7)
    np.save(os.path.join(work, "x.npy"), x)
    code, out, err = run_irlint(irlint, ["run", torch_like, "--layer", "pool", "--input", os.path.join(work, "x.npy"),
                                         "--save", os.path.join(work, "y.npy"), "--save", os.path.join(work, "i.npy")],
                                30)
    expect(code == 0, f"run of the dilated MaxPool exits {code}: {err}{out}")
    if code == 0:
        y, i = np.load(os.path.join(work, "y.npy")), np.load(os.path.join(work, "i.npy"))
        expect(y.shape == (1, 2, 1, 5), f"dilated MaxPool output shape {y.shape}")
        expect((y == np.finfo(np.float32).min).all(), f"empty windows should hold the lowest float: {y}")
        expect(i[0, 0, 0, 0] == -8 and i[0, 1, 0, 0] == 14 - 8, f"empty-window indices {i.ravel()}")

    # Each ONNX Runtime divergence, by its message.
    cases = [
        ("pads.onnx", "MaxPool", {"kernel_shape": [2], "pads": [2, 0]}, [1, 1, 5], 12,
         "ONNX Runtime rejects the node: its pads must be smaller than the kernel"),
        ("same_neg.onnx", "AveragePool", {"kernel_shape": [1], "strides": [2], "auto_pad": "SAME_UPPER"}, [1, 1, 6], 11,
         "computes a negative SAME pad (-1)"),
        ("same_dil.onnx", "MaxPool", {"kernel_shape": [3], "dilations": [3], "auto_pad": "SAME_LOWER"}, [1, 1, 7], 12,
         "pads SAME by the kernel without its dilation"),
        ("ceil.onnx", "AveragePool", {"kernel_shape": [2], "strides": [2], "pads": [1, 1], "ceil_mode": 1},
         [1, 1, 5], 11, "in every version"),
        ("float.onnx", "MaxPool", {"kernel_shape": [2], "strides": [3], "dilations": [4], "ceil_mode": 1}, [1, 1, 1],
         22, "in float arithmetic"),
    ]
    for name, op, attrs, shape, opset, text in cases:
        code, diags = check(irlint, model(os.path.join(work, name), op, attrs, shape, opset))
        expect(code == 0, f"{name}: check exits {code}")
        expect(any(d["rule"] == "runtime-divergence" and text in d["message"] for d in diags),
               f"{name}: no runtime-divergence with '{text}': {diags}")
    code, diags = check(irlint, model(os.path.join(work, "both.onnx"), "MaxPool",
                                      {"kernel_shape": [2], "pads": [1, 1], "auto_pad": "SAME_UPPER"}, [1, 1, 4], 12))
    expect(code == 1 and any(d["rule"] == "attr-invalid" for d in diags) and
           any("ignoring pads" in d["message"] for d in diags), f"pads with auto_pad: {code} {diags}")

    # The array must fit the declared graph input.
    small = model(os.path.join(work, "small.onnx"), "MaxPool", {"kernel_shape": [2, 2]}, [1, 1, 4, 4])
    for array, text in ((np.zeros([1, 96, 55, 55], np.float32), "dim 1 is 96, not 1"),
                        (np.zeros([1, 1, 4], np.float32), "rank 3"),
                        (np.zeros([1, 1, 4, 4], np.float64), "holds f64 data")):
        np.save(os.path.join(work, "a.npy"), array)
        code, out, err = run_irlint(irlint, ["run", small, "--layer", "0", "--input", os.path.join(work, "a.npy")], 30)
        expect(code == 1 and text in out + err, f"run on a {array.shape} {array.dtype} array: exit {code}: {out}{err}")
    np.save(os.path.join(work, "a.npy"), np.zeros([1, 1, 4, 4], np.float32))
    code, out, err = run_irlint(irlint, ["run", small, "--layer", "0", "--input", os.path.join(work, "a.npy")], 30)
    expect(code == 0, f"run on the declared shape exits {code}: {out}{err}")


if __name__ == "__main__":
    sys.exit(main())
