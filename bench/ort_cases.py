#!/usr/bin/python3
"""Writes one single-node ONNX model per kernel case of DIR/cases.tsv (written by kernel_cases.py), with the
same input file, for ONNX Runtime to time: DIR/<case>.onnx, and DIR/ort_cases.tsv (name, model, input).

    ort_cases.py DIR

IR attributes map onto ONNX's: AvgPool with exclude-pad=false is AveragePool with count_include_pad=1;
MaxPool-8, which always computes indices, has MaxPool's second output; AdaptiveAvgPool from 28 to 7 is AveragePool k4 s4 (the
windows are the same when the size divides).
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper

ONNX_TYPES = {np.dtype(np.float32): TensorProto.FLOAT, np.dtype(np.float16): TensorProto.FLOAT16,
              np.dtype(np.int8): TensorProto.INT8}


def ints(text):
    return [int(v) for v in text.split(",")]


def node_for(op, attrs, shape, output_size):
    spatial = len(shape) - 2
    if op.startswith("AdaptiveAvgPool"):
        kernel = [shape[2 + i] // output_size[i] for i in range(spatial)]
        return helper.make_node("AveragePool", ["x"], ["y"], kernel_shape=kernel, strides=kernel), 1
    pads = ints(attrs["pads_begin"]) + ints(attrs["pads_end"])
    common = dict(kernel_shape=ints(attrs["kernel"]), strides=ints(attrs["strides"]), pads=pads)
    if op.startswith("AvgPool"):
        include = 1 if attrs.get("exclude-pad", "false") == "false" else 0
        return helper.make_node("AveragePool", ["x"], ["y"], count_include_pad=include, **common), 1
    if "dilations" in attrs:
        common["dilations"] = ints(attrs["dilations"])
    outputs = ["y", "i"] if op == "MaxPool-8" else ["y"]  # MaxPool-8 always computes its indices too
    return helper.make_node("MaxPool", ["x"], outputs, **common), len(outputs)


def main():
    directory = sys.argv[1]
    rows = []
    for line in open(os.path.join(directory, "cases.tsv")):
        name, op, attr_text, input_file, output_size = line.rstrip("\n").split("\t")
        attrs = dict(kv.split("=", 1) for kv in attr_text.split(";") if kv)
        x = np.load(os.path.join(directory, input_file), mmap_mode="r")
        node, outputs = node_for(op, attrs, list(x.shape), ints(output_size) if output_size != "-" else [])
        elem = ONNX_TYPES[x.dtype]
        graph_outputs = [helper.make_tensor_value_info("y", elem, None)]
        if outputs == 2:
            graph_outputs.append(helper.make_tensor_value_info("i", TensorProto.INT64, None))
        graph = helper.make_graph([node], name, [helper.make_tensor_value_info("x", elem, list(x.shape))],
                                  graph_outputs)
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 12)])
        model.ir_version = 7
        path = os.path.join(directory, name + ".onnx")
        onnx.save(model, path)
        rows.append(f"{name}\t{path}\t{os.path.join(directory, input_file)}")
    with open(os.path.join(directory, "ort_cases.tsv"), "w") as f:
        f.write("\n".join(rows) + "\n")


if __name__ == "__main__":
    main()
