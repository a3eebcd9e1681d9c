"""Small ONNX models built with onnx.helper in the shape of what modern exporters and quantizers write, where the
installed PyTorch (TorchScript exporter, opset 17 at most) cannot produce them:

    models = build_models()            # {name: ModelProto}
    paths = write_models(directory)    # {name: path of the written .onnx}

  - dynamo_cnn and dynamo_cnn_dynamic: a small CNN as PyTorch 2.x's dynamo exporter writes it at opset 18:
    onnxscript's model-local functions (their own opset imports, attributes passed down with ref_attr_name, one
    calling another), Constant nodes for shapes, ReduceMean-18's axes as an input, value_info for every value;
    the second with a symbolic batch;
  - qdq_conv: a QDQ-quantized conv block as ONNX Runtime's quantizer writes it at opset 21: QuantizeLinear /
    DequantizeLinear around Conv and MatMul, per-channel weights (axis), an int32 bias, int4 blocked weights;
  - transformer and transformer_dynamic: a pre-norm transformer block at opset 23 (LayerNormalization, a fused
    QKV MatMul and Split, Reshape targets built by Shape -> Gather -> Unsqueeze -> Concat, the decomposed
    attention, Attention-23, Gelu-20); the second with a symbolic batch and sequence;
  - rms_rotary: RMSNormalization-23 and RotaryEmbedding-23 (3D with position ids, 4D with per-token caches);
  - ms_contrib: ONNX Runtime's com.microsoft ops: SkipLayerNormalization, MatMulNBits, FastGelu, BiasGelu,
    QuickGelu, MultiHeadAttention, SkipSimplifiedLayerNormalization, SimplifiedLayerNormalization.

Weights are random (seeded) and tiny: every model is a few KB. Needs onnx and numpy; onnx 1.12 knows no opset
past 17, so nothing here runs onnx.checker on the newer models.
"""
import os

import numpy as np
from onnx import TensorProto, helper, numpy_helper

FLOAT = TensorProto.FLOAT
INT4 = 22  # TensorProto.INT4, which onnx 1.12 does not name
TORCH_LIB = "pkg.onnxscript.torch_lib"
TORCH_LIB_COMMON = "pkg.onnxscript.torch_lib.common"


class Builder:
    """Collects nodes and initializers; names nodes the way the exporters do (node_<Op>_<n>)."""

    def __init__(self, seed):
        self.rng = np.random.RandomState(seed)
        self.nodes, self.initializers, self.value_info = [], [], []

    def weight(self, name, shape, dtype=np.float32, scale=0.1):
        values = (self.rng.standard_normal(shape) * scale).astype(dtype)
        return self.tensor(name, values)

    def tensor(self, name, values):
        self.initializers.append(numpy_helper.from_array(np.asarray(values), name))
        return name

    def node(self, op, inputs, outputs, domain="", **attrs):
        name = f"node_{op}_{len(self.nodes)}"
        self.nodes.append(helper.make_node(op, inputs, outputs, name=name, domain=domain, **attrs))
        return outputs[0] if len(outputs) == 1 else outputs

    def constant(self, output, values):
        return self.node("Constant", [], [output], value=numpy_helper.from_array(np.asarray(values), output))

    def declare(self, name, elem_type, dims):
        """The exporter's own dims for a value, in value_info."""
        self.value_info.append(helper.make_tensor_value_info(name, elem_type, dims))

    def model(self, name, inputs, outputs, opsets, ir_version, functions=()):
        graph = helper.make_graph(self.nodes, name, inputs, outputs, initializer=self.initializers,
                                  value_info=self.value_info)
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid(d, v) for d, v in opsets],
                                  producer_name="irlint-tests")
        model.ir_version = ir_version
        model.functions.extend(functions)
        return model


def ref_attr(name, kind, ref=None):
    attr = helper.AttributeProto()
    attr.name, attr.ref_attr_name, attr.type = name, ref or name, kind
    return attr


def with_refs(node, refs):
    node.attribute.extend(refs)
    return node


def function(domain, name, inputs, outputs, nodes, opsets, attributes=()):
    return helper.make_function(domain, name, inputs, outputs, nodes,
                                [helper.make_opsetid(d, v) for d, v in opsets], list(attributes))


def torch_lib_functions():
    """The onnxscript functions the dynamo CNN calls: MaxPool, a convolution and a linear layer whose bias add
    is a function of another domain."""
    ints = helper.AttributeProto.INTS
    max_pool = function(TORCH_LIB, "_aten_max_pool_onnx", ["self"], ["result"], [
        with_refs(helper.make_node("MaxPool", ["self"], ["result"]), [
            ref_attr("kernel_shape", ints), ref_attr("strides", ints), ref_attr("pads", ints),
            ref_attr("dilations", ints), ref_attr("ceil_mode", helper.AttributeProto.INT)]),
    ], [("", 18)], ["kernel_shape", "strides", "pads", "dilations", "ceil_mode"])
    convolution = function(TORCH_LIB, "aten_convolution", ["input", "weight", "bias"], ["result"], [
        with_refs(helper.make_node("Conv", ["input", "weight", "bias"], ["result"]), [
            ref_attr("strides", ints, "stride"), ref_attr("pads", ints, "padding"),
            ref_attr("dilations", ints, "dilation"), ref_attr("group", helper.AttributeProto.INT, "groups")]),
    ], [("", 18)], ["stride", "padding", "dilation", "groups"])
    add = function(TORCH_LIB_COMMON, "_aten_add_bias", ["self", "other"], ["result"], [
        helper.make_node("Add", ["self", "other"], ["result"]),
    ], [("", 18)])
    linear = function(TORCH_LIB, "aten_linear", ["input", "weight", "bias"], ["result"], [
        helper.make_node("Transpose", ["weight"], ["weight_t"], perm=[1, 0]),
        helper.make_node("MatMul", ["input", "weight_t"], ["mul"]),
        helper.make_node("_aten_add_bias", ["mul", "bias"], ["result"], domain=TORCH_LIB_COMMON),
    ], [("", 18), (TORCH_LIB_COMMON, 1)])
    return [max_pool, convolution, add, linear]


def dynamo_cnn(batch=1):
    """With a symbolic batch ("s0"), the flatten's target shape comes from Shape and Concat, as torch.export
    writes it. Like the dynamo exporter, every value, the initializers too, has its dims in value_info."""
    b = Builder(1)
    pool = dict(domain=TORCH_LIB, kernel_shape=[2, 2], strides=[2, 2], pads=[0, 0, 0, 0], dilations=[1, 1],
                ceil_mode=0)
    b.node("Conv", ["x", b.weight("conv1.weight", (8, 3, 3, 3)), b.weight("conv1.bias", (8,))], ["conv2d"],
           pads=[1, 1, 1, 1], strides=[1, 1], dilations=[1, 1], group=1)
    b.node("Relu", ["conv2d"], ["relu"])
    b.node("_aten_max_pool_onnx", ["relu"], ["max_pool2d"], **pool)
    b.node("aten_convolution", ["max_pool2d", b.weight("conv2.weight", (8, 8, 3, 3)),
                                b.weight("conv2.bias", (8,))], ["conv2d_1"], domain=TORCH_LIB,
           stride=[1, 1], padding=[1, 1, 1, 1], dilation=[1, 1], groups=1)
    b.node("Relu", ["conv2d_1"], ["relu_1"])
    b.node("_aten_max_pool_onnx", ["relu_1"], ["max_pool2d_1"], **pool)
    if isinstance(batch, str):
        b.node("Shape", ["max_pool2d_1"], ["sym_size_int"], start=0, end=1)
        b.constant("val_0", np.array([128], np.int64))
        b.node("Concat", ["sym_size_int", "val_0"], ["val_2"], axis=0)
        b.node("Reshape", ["max_pool2d_1", "val_2"], ["view"], allowzero=1)
    else:
        b.constant("val_0", np.array([1, -1], np.int64))
        b.node("Reshape", ["max_pool2d_1", "val_0"], ["view"], allowzero=0)
    b.node("aten_linear", ["view", b.weight("fc.weight", (10, 128)), b.weight("fc.bias", (10,))], ["linear"],
           domain=TORCH_LIB)
    b.node("LogSoftmax", ["linear"], ["log_softmax"], axis=1)
    b.constant("val_1", np.array([2, 3], np.int64))
    b.node("ReduceMean", ["relu_1", "val_1"], ["mean"], keepdims=0)
    b.node("Shape", ["view"], ["sym_size"], start=1, end=2)
    n = batch
    for name, dims in (("conv2d", [n, 8, 16, 16]), ("relu", [n, 8, 16, 16]), ("max_pool2d", [n, 8, 8, 8]),
                       ("conv2d_1", [n, 8, 8, 8]), ("relu_1", [n, 8, 8, 8]), ("max_pool2d_1", [n, 8, 4, 4]),
                       ("view", [n, 128]), ("linear", [n, 10])):
        b.declare(name, FLOAT, dims)
    shapes = {"val_0": [1], "val_2": [2], "sym_size_int": [1]} if isinstance(batch, str) else {"val_0": [2]}
    for name, dims in dict(shapes, val_1=[2], sym_size=[1]).items():
        b.declare(name, TensorProto.INT64, dims)
    for init in b.initializers:
        b.declare(init.name, init.data_type, list(init.dims))
    inputs = [helper.make_tensor_value_info("x", FLOAT, [n, 3, 16, 16])]
    outputs = [helper.make_tensor_value_info("log_softmax", FLOAT, [n, 10]),
               helper.make_tensor_value_info("mean", FLOAT, [n, 8]),
               helper.make_tensor_value_info("sym_size", TensorProto.INT64, [1])]
    model = b.model("main_graph", inputs, outputs, [("", 18), (TORCH_LIB, 1), (TORCH_LIB_COMMON, 1)], 10,
                    torch_lib_functions())
    model.producer_name, model.producer_version = "pytorch", "2.7.0"
    helper.set_model_props(model, {"pkg.torch.export.ExportedProgram.graph_signature": "inputs: x (user input)"})
    return model


def quantized(b, name, values, axis, qtype=np.int8):
    """A per-channel symmetric quantization of `values` along `axis`: (quantized, scales, zero points)."""
    reduce = tuple(a for a in range(values.ndim) if a != axis)
    scales = (np.abs(values).max(axis=reduce) / 127.0 + 1e-6).astype(np.float32)
    shape = [1] * values.ndim
    shape[axis] = -1
    q = np.clip(np.round(values / scales.reshape(shape)), -127, 127).astype(qtype)
    return (b.tensor(name, q), b.tensor(name + "_scale", scales),
            b.tensor(name + "_zero_point", np.zeros(scales.shape, qtype)))


def qdq(b, value, scale, zero_point, tag):
    b.node("QuantizeLinear", [value, scale, zero_point], [f"{value}_QuantizeLinear_Output"])
    return b.node("DequantizeLinear", [f"{value}_QuantizeLinear_Output", scale, zero_point], [f"{tag}_dq"])


def int4_blocked(b, name, rows, cols, block):
    """Weights [rows, cols] as int4 in blocks of `block` rows along axis 0, as ONNX's blocked quantization."""
    nibbles = b.rng.randint(0, 16, size=rows * cols).astype(np.uint8)
    q = TensorProto(name=name, data_type=INT4, dims=[rows, cols])
    q.raw_data = (nibbles[0::2] | (nibbles[1::2] << 4)).tobytes()  # two per byte, the first in the low half
    b.initializers.append(q)
    b.tensor(name + "_scale", np.full((rows // block, cols), 0.02, np.float32))
    return name


def qdq_conv():
    b = Builder(2)
    act_scale, act_zp = b.tensor("act_scale", np.float32(0.05)), b.tensor("act_zero_point", np.uint8(128))
    x = qdq(b, "input", act_scale, act_zp, "input")
    w, w_scale, w_zp = quantized(b, "conv.weight_quantized", b.rng.standard_normal((8, 3, 3, 3)).astype(np.float32), 0)
    b.node("DequantizeLinear", [w, w_scale, w_zp], ["conv.weight_dq"], axis=0)
    b.tensor("conv.bias_quantized", b.rng.randint(-100, 100, size=8).astype(np.int32))
    b.tensor("conv.bias_scale", np.full(8, 0.001, np.float32))
    b.node("DequantizeLinear", ["conv.bias_quantized", "conv.bias_scale"], ["conv.bias_dq"], axis=0)
    b.node("Conv", [x, "conv.weight_dq", "conv.bias_dq"], ["conv_out"], pads=[1, 1, 1, 1], strides=[2, 2])
    b.node("Relu", ["conv_out"], ["relu_out"])
    relu = qdq(b, "relu_out", act_scale, act_zp, "relu")
    b.node("GlobalAveragePool", [relu], ["pool_out"])
    pool = qdq(b, "pool_out", act_scale, act_zp, "pool")
    b.node("Flatten", [pool], ["flat"], axis=1)
    m, m_scale, m_zp = quantized(b, "fc.weight_quantized", b.rng.standard_normal((8, 4)).astype(np.float32), 1)
    b.node("DequantizeLinear", [m, m_scale, m_zp], ["fc.weight_dq"], axis=1)
    b.node("MatMul", ["flat", "fc.weight_dq"], ["fc_out"])
    fc = qdq(b, "fc_out", act_scale, act_zp, "fc")
    w4 = int4_blocked(b, "proj.weight_int4", 8, 4, 4)
    b.node("DequantizeLinear", [w4, w4 + "_scale"], ["proj.weight_dq"], axis=0, block_size=4)
    b.node("MatMul", ["flat", "proj.weight_dq"], ["proj_out"])
    b.node("Add", [fc, "proj_out"], ["output"])
    inputs = [helper.make_tensor_value_info("input", FLOAT, [1, 3, 9, 9])]
    outputs = [helper.make_tensor_value_info("output", FLOAT, [1, 4])]
    return b.model("qdq_conv", inputs, outputs, [("", 21)], 10)


def split_heads(b, value, tag, batch, seq, perm):
    """[B, S, 16] -> [B, 2, S, 8] (or [B, 2, 8, S] for the keys), the target shape from Shape's values."""
    b.node("Concat", [batch, seq, "heads", "head_size"], [f"{tag}_shape"], axis=0)
    b.node("Reshape", [value, f"{tag}_shape"], [f"{tag}_4d"])
    return b.node("Transpose", [f"{tag}_4d"], [f"{tag}_heads"], perm=perm)


def transformer(batch_dim=1, seq_dim=8):
    b = Builder(3)
    b.tensor("heads", np.array([2], np.int64))
    b.tensor("head_size", np.array([8], np.int64))
    b.tensor("hidden", np.array([16], np.int64))
    b.node("LayerNormalization", ["x", b.weight("ln1.weight", (16,)), b.weight("ln1.bias", (16,))], ["ln1"],
           axis=-1, epsilon=1e-5)
    b.node("MatMul", ["ln1", b.weight("qkv.weight", (16, 48))], ["qkv_mm"])
    b.node("Add", ["qkv_mm", b.weight("qkv.bias", (48,))], ["qkv"])
    b.node("Split", ["qkv"], ["q", "k", "v"], axis=-1, num_outputs=3)
    b.node("Shape", ["x"], ["x_shape"])
    for index, name in ((0, "batch"), (1, "seq")):
        b.node("Gather", ["x_shape", b.tensor(f"{name}_index", np.int64(index))], [f"{name}_scalar"], axis=0)
        b.node("Unsqueeze", [f"{name}_scalar", b.tensor(f"{name}_axes", np.array([0], np.int64))], [name])
    q = split_heads(b, "q", "q", "batch", "seq", [0, 2, 1, 3])
    k = split_heads(b, "k", "k", "batch", "seq", [0, 2, 3, 1])
    v = split_heads(b, "v", "v", "batch", "seq", [0, 2, 1, 3])
    b.node("MatMul", [q, k], ["scores"])
    b.node("Mul", ["scores", b.tensor("scale", np.float32(8 ** -0.5))], ["scaled"])
    b.node("Softmax", ["scaled"], ["probs"], axis=-1)
    b.node("MatMul", ["probs", v], ["context_heads"])
    b.node("Transpose", ["context_heads"], ["context_4d"], perm=[0, 2, 1, 3])
    b.node("Concat", ["batch", "seq", "hidden"], ["context_shape"], axis=0)
    b.node("Reshape", ["context_4d", "context_shape"], ["context"])
    b.node("MatMul", ["context", b.weight("out.weight", (16, 16))], ["attn_out"])
    b.node("Add", ["x", "attn_out"], ["residual"])
    b.node("LayerNormalization", ["residual", b.weight("ln2.weight", (16,)), b.weight("ln2.bias", (16,))],
           ["ln2", "ln2_mean", "ln2_inv_std"], axis=-1, epsilon=1e-5)
    b.node("MatMul", ["ln2", b.weight("fc1.weight", (16, 32))], ["fc1"])
    b.node("Gelu", ["fc1"], ["gelu"], approximate="tanh")
    b.node("MatMul", ["gelu", b.weight("fc2.weight", (32, 16))], ["fc2"])
    b.node("Add", ["residual", "fc2"], ["y"])
    b.node("Transpose", [k], ["k_bhsd"], perm=[0, 1, 3, 2])
    b.node("Attention", [q, "k_bhsd", v], ["attention", "present_key", "present_value"], is_causal=1)
    b.node("Attention", ["q", "k", "v"], ["attention_3d"], q_num_heads=2, kv_num_heads=2)
    inputs = [helper.make_tensor_value_info("x", FLOAT, [batch_dim, seq_dim, 16])]
    outputs = [helper.make_tensor_value_info(name, FLOAT, None) for name in ("y", "attention", "attention_3d")]
    return b.model("transformer", inputs, outputs, [("", 23)], 11)


def rms_rotary():
    b = Builder(4)
    b.node("RMSNormalization", ["x", b.weight("norm.weight", (16,))], ["normed"], axis=-1, epsilon=1e-6)
    b.node("MatMul", ["normed", b.weight("q.weight", (16, 16))], ["q"])
    b.node("RotaryEmbedding", ["q", b.weight("cos_cache", (32, 4)), b.weight("sin_cache", (32, 4)),
                               "position_ids"], ["q_rot"], num_heads=2)
    b.node("Reshape", ["normed", b.tensor("heads_shape", np.array([1, 8, 2, 8], np.int64))], ["k_4d"])
    b.node("Transpose", ["k_4d"], ["k_heads"], perm=[0, 2, 1, 3])
    b.node("RotaryEmbedding", ["k_heads", b.weight("cos_tokens", (1, 8, 2)), b.weight("sin_tokens", (1, 8, 2))],
           ["k_rot"], rotary_embedding_dim=4, interleaved=1)
    b.node("RMSNormalization", ["k_rot", b.weight("k_norm.weight", (8,))], ["k_normed"], axis=-1)
    b.node("RMSNormalization", ["q_rot", b.weight("q_norm.weight", (8, 16))], ["q_normed"], axis=1,
           stash_type=1)
    inputs = [helper.make_tensor_value_info("x", FLOAT, [1, 8, 16]),
              helper.make_tensor_value_info("position_ids", TensorProto.INT64, [1, 8])]
    outputs = [helper.make_tensor_value_info(name, FLOAT, None) for name in ("q_normed", "k_normed")]
    return b.model("rms_rotary", inputs, outputs, [("", 23)], 11)


def nbits_weights(b, name, n, k, block):
    """MatMulNBits' packed 4-bit weights [N, K/block, block/2] and scales [N * K/block]."""
    blocks = k // block
    b.tensor(name, b.rng.randint(0, 256, size=(n, blocks, block // 2)).astype(np.uint8))
    b.tensor(name + "_scales", np.full(n * blocks, 0.01, np.float32))
    return [name, name + "_scales"]


def ms_contrib():
    ms = "com.microsoft"
    b = Builder(5)
    b.node("SkipLayerNormalization", ["x", "skip", b.weight("ln.gamma", (16,)), b.weight("ln.beta", (16,)),
                                      b.weight("ln.bias", (16,))], ["ln", "ln_mean", "ln_inv_std", "ln_sum"],
           domain=ms, epsilon=1e-5)
    b.node("MatMulNBits", ["ln"] + nbits_weights(b, "fc1.qweight", 32, 16, 16), ["fc1"], domain=ms,
           K=16, N=32, bits=4, block_size=16)
    b.node("FastGelu", ["fc1", b.weight("fc1.bias", (32,))], ["fast_gelu"], domain=ms)
    b.node("MatMul", ["fast_gelu", b.weight("fc2.weight", (32, 16))], ["fc2"])
    b.node("BiasGelu", ["fc2", b.weight("fc2.bias", (16,))], ["bias_gelu"], domain=ms)
    b.node("QuickGelu", ["bias_gelu"], ["quick_gelu"], domain=ms, alpha=1.702)
    b.node("MultiHeadAttention", ["quick_gelu", "ln", "ln_sum"], ["mha"], domain=ms, num_heads=2)
    b.node("SkipSimplifiedLayerNormalization", ["mha", "x", b.weight("rms.gamma", (16,))],
           ["rms", "rms_mean", "rms_inv_std", "rms_sum"], domain=ms, epsilon=1e-6)
    b.node("SimplifiedLayerNormalization", ["rms_sum", b.weight("final.gamma", (16,))], ["y"], axis=-1,
           epsilon=1e-6)
    inputs = [helper.make_tensor_value_info("x", FLOAT, [1, 8, 16]),
              helper.make_tensor_value_info("skip", FLOAT, [1, 8, 16])]
    outputs = [helper.make_tensor_value_info("y", FLOAT, None), helper.make_tensor_value_info("rms", FLOAT, None)]
    return b.model("ms_contrib", inputs, outputs, [("", 17), (ms, 1)], 8)


BUILDERS = {
    "dynamo_cnn": dynamo_cnn,
    "dynamo_cnn_dynamic": lambda: dynamo_cnn("s0"),
    "qdq_conv": qdq_conv,
    "transformer": transformer,
    "transformer_dynamic": lambda: transformer("batch", "sequence"),
    "rms_rotary": rms_rotary,
    "ms_contrib": ms_contrib,
}


def build_models():
    return {name: build() for name, build in BUILDERS.items()}


def write_models(directory):
    os.makedirs(directory, exist_ok=True)
    paths = {}
    for name, model in build_models().items():
        paths[name] = os.path.join(directory, f"{name}.onnx")
        with open(paths[name], "wb") as f:
            f.write(model.SerializeToString())
    return paths
