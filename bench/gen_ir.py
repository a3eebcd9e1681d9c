#!/usr/bin/env python3
"""Generate a large, realistic, shape-consistent OpenVINO IR v11 .xml for benchmarking irlint.

The model is a CNN made of "towers". Each tower starts at the network input or at a feature map of an
earlier tower (so the graph branches), runs convolution / residual / inception-like blocks at one
resolution, downsamples with a strided pooling or convolution, and ends in a global AvgPool and a Result
once the spatial size is small. Every declared dim follows OpenVINO's shape rules (pooling:
q = floor((in + pb + pe - k) / s) or its ceil variants, out = q + 1), so a correct validator reports no
error on the file.

Layout follows the v11 serializer: layers with ids in topological order, written Parameters first and
Results last; ports numbered inputs 0..n-1 then outputs n..; precision on every port; edges sorted by
from-layer; a net-level <rt_info>. Const layers point into a .bin that is not written.

Output is deterministic for a given --layers and --seed. Standard library only.
"""

import argparse
import random
import sys
from xml.sax.saxutils import quoteattr

F32 = "FP32"
I64 = "I64"


def fmt_list(values):
    return ", ".join(str(v) for v in values)


def ceil_div(a, b):
    return -(-a // b)


def pool_out_dim(n, k, s, pb, pe, rounding="floor", auto_pad="explicit", d=1):
    """Output size of one spatial axis, as OpenVINO's pooling shape inference computes it."""
    kd = (k - 1) * d + 1
    if auto_pad in ("same_upper", "same_lower"):
        total = max(0, (ceil_div(n, s) - 1) * s + kd - n)
        pb, pe = total // 2, total - total // 2
        if auto_pad == "same_lower":
            pb, pe = pe, pb
    elif auto_pad == "valid":
        pb = pe = 0
    span = n + pb + pe - kd
    if span < 0:
        raise ValueError(f"kernel {kd} larger than padded input {n + pb + pe}")
    q = span // s if rounding == "floor" else ceil_div(span, s)
    if rounding == "ceil_torch" and q * s >= n + pb:
        return q
    return q + 1


class Tensor:
    """An output port of a layer: (layer id, port id, precision, dims)."""

    __slots__ = ("layer", "port", "precision", "dims")

    def __init__(self, layer, port, precision, dims):
        self.layer, self.port, self.precision, self.dims = layer, port, precision, list(dims)


class Layer:
    __slots__ = ("id", "name", "type", "version", "data", "rt_info", "inputs", "outputs")

    def __init__(self, lid, name, ltype, version, data, rt_info):
        self.id, self.name, self.type, self.version = lid, name, ltype, version
        self.data = data  # list of (attribute, value)
        self.rt_info = rt_info  # (attribute name, value) pairs, written as <attribute name version="0" value>
        self.inputs = []  # (port id, precision, dims)
        self.outputs = []  # (port id, precision, dims, names, port rt_info)


class Builder:
    def __init__(self, seed):
        self.rng = random.Random(seed)
        self.layers = []
        self.edges = []  # (from layer, from port, to layer, to port)
        self.bin_offset = 0
        self.tensor_names = 0

    # -- primitives ------------------------------------------------------------------------------------

    def add_layer(self, name, ltype, version, data, inputs, outputs, fused=False, names=None, port_rt=None):
        """inputs: Tensors; outputs: (precision, dims) pairs. Returns the output Tensors."""
        layer = Layer(len(self.layers), name, ltype, version, data, [("fused_names", name)] if fused else [])
        for i, t in enumerate(inputs):
            layer.inputs.append((i, t.precision, t.dims))
            self.edges.append((t.layer, t.port, layer.id, i))
        result = []
        for j, (precision, dims) in enumerate(outputs):
            pid = len(inputs) + j
            layer.outputs.append((pid, precision, dims, (names or {}).get(j), (port_rt or {}).get(j)))
            result.append(Tensor(layer.id, pid, precision, dims))
        self.layers.append(layer)
        return result

    def next_tensor_name(self, stem="input"):
        self.tensor_names += 1
        return f"{stem}.{self.tensor_names}"

    def parameter(self, name, dims):
        data = [("shape", fmt_list(dims)), ("element_type", "f32")]
        layout = {0: [("layout", "0", "layout", "[N,C,H,W]")]}
        return self.add_layer(name, "Parameter", "opset1", data, [], [(F32, dims)], fused=True, names={0: name},
                              port_rt=layout)[0]

    def const(self, name, dims):
        size = 4
        for d in dims:
            size *= d
        data = [("element_type", "f32"), ("shape", fmt_list(dims)), ("offset", str(self.bin_offset)),
                ("size", str(size))]
        self.bin_offset += size
        return self.add_layer(name, "Const", "opset1", data, [], [(F32, dims)])[0]

    def convolution(self, scope, x, co, k, s, p):
        n, ci, h, w = x.dims
        weights = self.const(f"self.{scope}.weight", [co, ci, k, k])
        oh = pool_out_dim(h, k, s, p, p)
        ow = pool_out_dim(w, k, s, p, p)
        data = [("strides", fmt_list([s, s])), ("dilations", "1, 1"), ("pads_begin", fmt_list([p, p])),
                ("pads_end", fmt_list([p, p])), ("auto_pad", "explicit")]
        return self.add_layer(f"__module.{scope}/aten::_convolution/Convolution", "Convolution", "opset1", data,
                              [x, weights], [(F32, [n, co, oh, ow])], fused=True)[0]

    def bias_add(self, scope, x):
        bias = self.const(f"self.{scope}.bias", [1, x.dims[1], 1, 1])
        return self.add_layer(f"__module.{scope}/aten::_convolution/Add", "Add", "opset1",
                              [("auto_broadcast", "numpy")], [x, bias], [(F32, x.dims)],
                              names={0: self.next_tensor_name()})[0]

    def add(self, scope, a, b):
        return self.add_layer(f"__module.{scope}/aten::add/Add", "Add", "opset1", [("auto_broadcast", "numpy")],
                              [a, b], [(F32, a.dims)], names={0: self.next_tensor_name()})[0]

    def relu(self, scope, x):
        return self.add_layer(f"__module.{scope}/aten::relu_/Relu", "ReLU", "opset1", [], [x], [(F32, x.dims)],
                              names={0: self.next_tensor_name()})[0]

    def result(self, x, label):
        self.add_layer(f"Result_{label}", "Result", "opset1", [], [x], [])

    def avg_pool(self, scope, x, k, s, p, rounding="floor", auto_pad="explicit", opset=1, exclude_pad=True):
        n, c, h, w = x.dims
        oh = pool_out_dim(h, k[0], s[0], p[0], p[0], rounding, auto_pad)
        ow = pool_out_dim(w, k[1], s[1], p[1], p[1], rounding, auto_pad)
        written_pads = p if auto_pad == "explicit" else [0, 0]
        data = [("strides", fmt_list(s)), ("pads_begin", fmt_list(written_pads)),
                ("pads_end", fmt_list(written_pads)), ("kernel", fmt_list(k)),
                ("exclude-pad", "true" if exclude_pad else "false"), ("auto_pad", auto_pad),
                ("rounding_type", rounding)]
        return self.add_layer(f"__module.{scope}/aten::avg_pool2d/AvgPool", "AvgPool", f"opset{opset}", data, [x],
                              [(F32, [n, c, oh, ow])], fused=True, names={0: self.next_tensor_name()})[0]

    def max_pool(self, scope, x, k, s, p, rounding="floor", auto_pad="explicit", opset=1):
        """MaxPool-1 returns [values]; MaxPool-8 returns [values, indices]."""
        n, c, h, w = x.dims
        oh = pool_out_dim(h, k[0], s[0], p[0], p[0], rounding, auto_pad)
        ow = pool_out_dim(w, k[1], s[1], p[1], p[1], rounding, auto_pad)
        out = [n, c, oh, ow]
        written_pads = p if auto_pad == "explicit" else [0, 0]
        if opset == 1:
            data = [("strides", fmt_list(s)), ("pads_begin", fmt_list(written_pads)),
                    ("pads_end", fmt_list(written_pads)), ("kernel", fmt_list(k)), ("rounding_type", rounding),
                    ("auto_pad", auto_pad)]
            outputs = [(F32, out)]
        else:
            data = [("strides", fmt_list(s)), ("dilations", "1, 1"), ("pads_begin", fmt_list(written_pads)),
                    ("pads_end", fmt_list(written_pads)), ("kernel", fmt_list(k)), ("rounding_type", rounding),
                    ("auto_pad", auto_pad), ("index_element_type", "i64"), ("axis", "0")]
            outputs = [(F32, out), (I64, out)]
        return self.add_layer(f"__module.{scope}/aten::max_pool2d/MaxPool", "MaxPool", f"opset{opset}", data, [x],
                              outputs, fused=True, names={0: self.next_tensor_name()})

    # -- blocks: each returns the new tensor; COST is the number of layers it adds ---------------------

    def conv_bias_relu(self, scope, x, co, k=3, s=1, p=1):
        y = self.convolution(scope, x, co, k, s, p)
        y = self.bias_add(scope, y)
        return self.relu(scope, y)

    def residual(self, scope, x):
        c = x.dims[1]
        y = self.conv_bias_relu(f"{scope}.conv1", x, c)
        y = self.convolution(f"{scope}.conv2", y, c, 3, 1, 1)
        y = self.bias_add(f"{scope}.conv2", y)
        y = self.add(scope, x, y)
        return self.relu(scope, y)

    def inception(self, scope, x):
        c = x.dims[1]
        a = self.conv_bias_relu(f"{scope}.branch1", x, c, k=1, p=0)
        if self.rng.random() < 0.5:
            b = self.max_pool(f"{scope}.branch2.pool", x, [3, 3], [1, 1], [1, 1], opset=self.rng.choice([1, 8]))[0]
        else:
            b = self.avg_pool(f"{scope}.branch2.pool", x, [3, 3], [1, 1], [1, 1], opset=self.rng.choice([1, 14]))
        b = self.conv_bias_relu(f"{scope}.branch2.conv", b, c, k=1, p=0)
        return self.add(scope, a, b)

    def same_pool(self, scope, x):
        kind = self.rng.randrange(4)
        if kind == 0:
            return self.max_pool(scope, x, [3, 3], [1, 1], [1, 1])[0]
        if kind == 1:
            return self.max_pool(scope, x, [3, 3], [1, 1], [0, 0], auto_pad="same_upper", opset=8)[0]
        if kind == 2:
            return self.avg_pool(scope, x, [3, 3], [1, 1], [1, 1], opset=14)
        return self.avg_pool(scope, x, [5, 5], [1, 1], [2, 2], auto_pad="same_lower", exclude_pad=False)

    def downsample(self, scope, x):
        """Halve (roughly) the spatial size. Returns (tensor, extra outputs to feed to Results)."""
        kind = self.rng.randrange(7)
        if kind == 0:
            return self.max_pool(scope, x, [2, 2], [2, 2], [0, 0]), []
        if kind == 1:
            vals, idx = self.max_pool(scope, x, [3, 3], [2, 2], [1, 1], rounding="ceil", opset=8)
            return [vals], [idx]
        if kind == 2:
            return self.max_pool(scope, x, [2, 2], [2, 2], [0, 0], auto_pad="same_upper", opset=8)[:1], []
        if kind == 3:
            return [self.avg_pool(scope, x, [3, 3], [2, 2], [1, 1], exclude_pad=True)], []
        if kind == 4:
            p = self.rng.choice([0, 1])  # with a pad, ceil_torch drops a last window that starts in padding
            return [self.avg_pool(scope, x, [2, 2], [2, 2], [p, p], rounding="ceil_torch", opset=14)], []
        if kind == 5:
            return [self.avg_pool(scope, x, [3, 3], [2, 2], [0, 0], auto_pad="valid", rounding="ceil")], []
        c = x.dims[1]
        return [self.conv_bias_relu(scope, x, min(2 * c, 256), k=3, s=2, p=1)], []


# Layers each step adds; a block is only started while the budget leaves room for the largest one + a head.
COST = {"conv": 5, "residual": 11, "inception": 12, "same_pool": 1, "down": 5, "head": 2, "stem": 6}
MAX_BLOCK = max(COST.values())


def generate(n_layers, seed):
    if n_layers < 4:
        raise ValueError("--layers must be at least 4 (two Parameters, AvgPool, Result)")
    b = Builder(seed)
    rng = b.rng
    # Two inputs: an even-sized one and an odd-sized one, so floor, ceil and ceil_torch rounding differ.
    inputs = [b.parameter("image", [1, 3, 224, 224]), b.parameter("image_hr", [1, 3, 321, 321])]
    taps = []  # feature maps that later towers branch from

    def remaining():
        return n_layers - len(b.layers)

    tower = 0
    while remaining() > 0:
        scope = f"t{tower}"
        if taps and rng.random() < 0.7:
            x = rng.choice(taps)
        else:
            x = inputs[tower % 2] if tower < 2 else rng.choice(inputs)
        if x in inputs and remaining() >= COST["stem"] + COST["head"]:
            x = b.conv_bias_relu(f"{scope}.stem", x, rng.choice([16, 24, 32]), k=3, s=2, p=1)
            x = b.max_pool(f"{scope}.stem.pool", x, [3, 3], [2, 2], [1, 1])[0]
        stage = 0
        while True:
            blocks = rng.randint(2, 6)
            for blk in range(blocks):
                if remaining() < MAX_BLOCK + COST["head"] + 1:
                    break
                s = f"{scope}.s{stage}.{blk}"
                kind = rng.random()
                if kind < 0.35:
                    x = b.residual(s, x)
                elif kind < 0.55:
                    x = b.inception(s, x)
                elif kind < 0.7:
                    x = b.conv_bias_relu(s, x, x.dims[1])
                else:
                    x = b.same_pool(s, x)
            if remaining() < MAX_BLOCK + COST["head"] + 1 or x.dims[2] <= 7:
                break
            if x.dims[2] >= 14 and len(taps) < 64:
                taps.append(x)
            outs, extra = b.downsample(f"{scope}.s{stage}.down", x)
            x = outs[0]
            for t in extra:
                if remaining() > MAX_BLOCK + COST["head"] + 1:
                    b.result(t, f"{scope}_indices{stage}")
            stage += 1
        # Pad with ReLUs so the layer count comes out exact, then the head.
        if remaining() < MAX_BLOCK + COST["head"] + 1:
            while remaining() > COST["head"]:
                x = b.relu(f"{scope}.pad{remaining()}", x)
        h, w = x.dims[2], x.dims[3]
        x = b.avg_pool(f"{scope}.head", x, [h, w], [1, 1], [0, 0])
        b.result(x, f"{scope}")
        tower += 1
    assert len(b.layers) == n_layers, (len(b.layers), n_layers)
    return b


def write_ir(b, out):
    w = out.append
    w('<?xml version="1.0"?>\n<net name="bench_towers" version="11">\n\t<layers>\n')
    params = [l for l in b.layers if l.type == "Parameter"]
    results = [l for l in b.layers if l.type == "Result"]
    middle = [l for l in b.layers if l.type not in ("Parameter", "Result")]

    def port(pid, precision, dims, names=None, rt=None, indent="\t\t\t\t"):
        attrs = f'id="{pid}" precision="{precision}"'
        if names:
            attrs += f" names={quoteattr(names)}"
        if not dims and not rt:
            w(f"{indent}<port {attrs} />\n")
            return
        w(f"{indent}<port {attrs}>\n")
        for d in dims:
            w(f"{indent}\t<dim>{d}</dim>\n")
        if rt:
            w(f"{indent}\t<rt_info>\n")
            for name, version, key, value in rt:
                w(f'{indent}\t\t<attribute name="{name}" version="{version}" {key}={quoteattr(value)} />\n')
            w(f"{indent}\t</rt_info>\n")
        w(f"{indent}</port>\n")

    for l in params + middle + results:
        w(f'\t\t<layer id="{l.id}" name={quoteattr(l.name)} type="{l.type}" version="{l.version}">\n')
        if l.data:
            attrs = " ".join(f"{k}={quoteattr(v)}" for k, v in l.data)
            w(f"\t\t\t<data {attrs} />\n")
        if l.rt_info:
            w("\t\t\t<rt_info>\n")
            for name, value in l.rt_info:
                w(f'\t\t\t\t<attribute name="{name}" version="0" value={quoteattr(value)} />\n')
            w("\t\t\t</rt_info>\n")
        if l.inputs:
            w("\t\t\t<input>\n")
            for pid, precision, dims in l.inputs:
                port(pid, precision, dims)
            w("\t\t\t</input>\n")
        if l.outputs:
            w("\t\t\t<output>\n")
            for pid, precision, dims, names, rt in l.outputs:
                port(pid, precision, dims, names, rt)
            w("\t\t\t</output>\n")
        w("\t\t</layer>\n")
    w("\t</layers>\n\t<edges>\n")
    for fl, fp, tl, tp in sorted(b.edges, key=lambda e: e[0]):
        w(f'\t\t<edge from-layer="{fl}" from-port="{fp}" to-layer="{tl}" to-port="{tp}" />\n')
    w("\t</edges>\n")
    w("\t<rt_info>\n"
      '\t\t<Runtime_version value="2024.4.0-16579-c3152d32c9c-releases/2024/4" />\n'
      "\t\t<conversion_parameters>\n"
      '\t\t\t<framework value="pytorch" />\n'
      '\t\t\t<is_python_object value="True" />\n'
      "\t\t</conversion_parameters>\n"
      "\t\t<model_info>\n"
      '\t\t\t<generator value="irlint bench/gen_ir.py" />\n'
      f'\t\t\t<layers value="{len(b.layers)}" />\n'
      "\t\t</model_info>\n"
      "\t</rt_info>\n</net>\n")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--layers", type=int, default=20000, help="number of <layer> elements (default 20000)")
    ap.add_argument("--out", required=True, help="path of the .xml to write")
    ap.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    args = ap.parse_args(argv)
    try:
        b = generate(args.layers, args.seed)
    except ValueError as e:
        ap.error(str(e))
    parts = []
    write_ir(b, parts)
    with open(args.out, "w", encoding="utf-8", newline="\n") as f:
        f.write("".join(parts))
    return 0


if __name__ == "__main__":
    sys.exit(main())
