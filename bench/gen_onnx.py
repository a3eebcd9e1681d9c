#!/usr/bin/python3
"""Writes a large ONNX model of the shape real CNN exports have, for bench/onnx_check_speed.sh.

    gen_onnx.py --nodes 20000 --out bench.onnx [--seed 1]

Blocks of Conv (3x3, pads 1, from an initializer of 8x8x3x3 weights) -> Relu -> Add (a residual) -> Mul by a
scalar, every eighth block followed by the PyTorch flatten pattern Shape -> Gather -> Unsqueeze -> Concat ->
Reshape back to the same dims, on a [1,8,16,16] f32 input. Every value is declared in value_info, as exporters
with shape inference write them, so that the file is clean and the benchmark times the checks, not findings.
"""
import argparse
import random

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

SHAPE = [1, 8, 16, 16]


class Graph:
    def __init__(self):
        self.nodes, self.inits, self.infos, self.count = [], [], [], 0

    def name(self, stem):
        self.count += 1
        return f"{stem}_{self.count}"

    def node(self, op, inputs, dims, elem=TensorProto.FLOAT, **attrs):
        out = self.name(op.lower())
        self.nodes.append(helper.make_node(op, inputs, [out], name=out + "_node", **attrs))
        self.infos.append(helper.make_tensor_value_info(out, elem, dims))
        return out

    def init(self, array):
        name = self.name("w")
        self.inits.append(numpy_helper.from_array(array, name))
        return name


def conv_block(g, x, rng, weights, scale):
    bias = g.init(rng.standard_normal(8).astype(np.float32))
    c = g.node("Conv", [x, weights, bias], SHAPE, kernel_shape=[3, 3], pads=[1, 1, 1, 1])
    r = g.node("Relu", [c], SHAPE)
    a = g.node("Add", [r, x], SHAPE)
    return g.node("Mul", [a, scale], SHAPE)


def flatten_back(g, x, target):
    s = g.node("Shape", [x], [4], TensorProto.INT64)
    zero = g.init(np.array(0, dtype=np.int64))
    axes = g.init(np.array([0], dtype=np.int64))
    batch = g.node("Gather", [s, zero], [], TensorProto.INT64, axis=0)
    b1 = g.node("Unsqueeze", [batch, axes], [1], TensorProto.INT64)
    shape = g.node("Concat", [b1, target], [4], TensorProto.INT64, axis=0)
    return g.node("Reshape", [x, shape], SHAPE)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--nodes", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    rng = np.random.default_rng(args.seed)
    random.seed(args.seed)
    g = Graph()
    weights = g.init(rng.standard_normal((8, 8, 3, 3)).astype(np.float32))
    scale = g.init(np.array(0.5, dtype=np.float32))
    target = g.init(np.array(SHAPE[1:], dtype=np.int64))
    x = "x"
    block = 0
    while len(g.nodes) < args.nodes:
        x = conv_block(g, x, rng, weights, scale)
        block += 1
        if block % 8 == 0:
            x = flatten_back(g, x, target)
    graph = helper.make_graph(g.nodes, "bench", [helper.make_tensor_value_info("x", TensorProto.FLOAT, SHAPE)],
                              [helper.make_tensor_value_info(x, TensorProto.FLOAT, SHAPE)], g.inits,
                              value_info=g.infos[:-1])
    model = helper.make_model(graph, producer_name="irlint-bench", opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.save(model, args.out)


if __name__ == "__main__":
    main()
