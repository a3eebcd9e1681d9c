#!/usr/bin/python3
"""Writes the binary files of the hostile corpus: the .npy inputs, the .bin files beside some IR files and
the ONNX models.

Each entry below says what is wrong with its file. The bytes are built by hand (no NumPy, no onnx package),
so that broken headers and attributes no exporter writes can be written exactly. Run it from anywhere:

    /usr/bin/python3 testdata/hostile/make_binaries.py          # (re)write every file
    /usr/bin/python3 testdata/hostile/make_binaries.py --check  # exit 1 if a committed file differs
"""
import os
import struct
import sys

MAGIC = b"\x93NUMPY"


def npy(header, data=b"", version=(1, 0), length=None):
    """A .npy file: the header text padded to 64 bytes and ended by a newline, as NumPy writes it."""
    text = header.encode("latin-1") if isinstance(header, str) else header
    prefix_len = 10 if version[0] == 1 else 12
    pad = (-(prefix_len + len(text) + 1)) % 64
    text = text + b" " * pad + b"\n"
    declared = len(text) if length is None else length
    size = struct.pack("<H", declared) if version[0] == 1 else struct.pack("<I", declared)
    return MAGIC + bytes(version) + size + text + data


def header(descr="'<f4'", fortran="False", shape="(1, 1, 4, 4)"):
    return f"{{'descr': {descr}, 'fortran_order': {fortran}, 'shape': {shape}, }}"


def f32(values, big_endian=False):
    return struct.pack((">" if big_endian else "<") + f"{len(values)}f", *values)


def i64(values):
    return struct.pack(f"<{len(values)}q", *values)


def varint(n):
    """Protocol Buffers' base-128 varint; a negative int64 takes ten bytes, as protobuf writes it."""
    n &= (1 << 64) - 1
    out = bytearray()
    while n > 0x7F:
        out.append(n & 0x7F | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


def pb_int(field, n):
    return varint(field << 3) + varint(n)


def pb_bytes(field, data):
    data = data.encode() if isinstance(data, str) else data
    return varint(field << 3 | 2) + varint(len(data)) + data


# onnx.proto's field numbers and AttributeProto.AttributeType values, for the few messages written here.
ATTR_FLOAT, ATTR_INT, ATTR_STRING, ATTR_GRAPH, ATTR_INTS = 1, 2, 3, 5, 7
TENSOR_FLOAT, TENSOR_INT64 = 1, 7
INT64_MAX = 2**63 - 1


def ints(name, values):
    return pb_bytes(1, name) + b"".join(pb_int(8, v) for v in values) + pb_int(20, ATTR_INTS)


def text(name, value):
    return pb_bytes(1, name) + pb_bytes(4, value) + pb_int(20, ATTR_STRING)


def int_attr(name, value):
    return pb_bytes(1, name) + pb_int(3, value) + pb_int(20, ATTR_INT)


def float_attr(name, value):
    return pb_bytes(1, name) + varint(2 << 3 | 5) + struct.pack("<f", value) + pb_int(20, ATTR_FLOAT)


def graph_attr(name, graph):
    return pb_bytes(1, name) + pb_bytes(6, graph) + pb_int(20, ATTR_GRAPH)


def onnx_node(op_type, inputs, outputs, attributes=()):
    return b"".join([pb_bytes(1, i) for i in inputs] + [pb_bytes(2, o) for o in outputs] + [pb_bytes(4, op_type)]
                    + [pb_bytes(5, a) for a in attributes])


def onnx_domain_node(op_type, domain, inputs, outputs):
    return onnx_node(op_type, inputs, outputs) + pb_bytes(7, domain)


def opset_id(domain, version):
    return pb_bytes(1, domain) + pb_int(2, version)


def onnx_function(name, domain, inputs, outputs, nodes, opsets):
    """A model-local function (FunctionProto)."""
    return (pb_bytes(1, name) + b"".join(pb_bytes(4, i) for i in inputs) + b"".join(pb_bytes(5, o) for o in outputs)
            + b"".join(pb_bytes(7, n) for n in nodes) + b"".join(pb_bytes(9, o) for o in opsets) + pb_bytes(10, domain))


def onnx_model_with(opsets, nodes, inputs, outputs, functions=()):
    """A model of several opset imports ((domain, version) pairs) and model-local functions."""
    return (pb_int(1, 8) + pb_bytes(7, onnx_graph(nodes, inputs, outputs))
            + b"".join(pb_bytes(8, opset_id(d, v)) for d, v in opsets) + b"".join(pb_bytes(25, f) for f in functions))


def onnx_value(name, dims, elem_type=1):
    """A tensor value, float unless elem_type (a TensorProto data type) says otherwise; a dim that is a string is
    symbolic."""
    shape = b"".join(pb_bytes(1, pb_int(1, d) if isinstance(d, int) else pb_bytes(2, d)) for d in dims)
    return pb_bytes(1, name) + pb_bytes(2, pb_bytes(1, pb_int(1, elem_type) + pb_bytes(2, shape)))


def onnx_initializer(name, dims):
    """A float initializer without data: shape inference reads only its dims."""
    return b"".join(pb_int(1, d) for d in dims) + pb_int(2, 1) + pb_bytes(8, name)


def onnx_i64_initializer(name, values, dims=None):
    """An int64 initializer with its data (raw_data, little-endian), 1-D unless dims are given."""
    dims = [len(values)] if dims is None else dims
    return b"".join(pb_int(1, d) for d in dims) + pb_int(2, TENSOR_INT64) + pb_bytes(8, name) + pb_bytes(9, i64(values))


def onnx_f32_initializer(name, values, dims=None):
    """A float initializer with its data (raw_data, little-endian), 1-D unless dims are given."""
    dims = [len(values)] if dims is None else dims
    return b"".join(pb_int(1, d) for d in dims) + pb_int(2, TENSOR_FLOAT) + pb_bytes(8, name) + pb_bytes(9, f32(values))


def onnx_graph(nodes, inputs, outputs, initializers=(), name="hostile"):
    return b"".join([pb_bytes(1, n) for n in nodes] + [pb_bytes(2, name)]
                    + [pb_bytes(5, t) for t in initializers] + [pb_bytes(11, v) for v in inputs]
                    + [pb_bytes(12, v) for v in outputs])


def onnx_model(opset, nodes, inputs, outputs, initializers=()):
    graph = onnx_graph(nodes, inputs, outputs, initializers)
    return pb_int(1, 8) + pb_bytes(7, graph) + pb_bytes(8, pb_int(2, opset))


def one_pool(op_type, opset, attributes, x_dims, y_dims):
    return onnx_model(opset, [onnx_node(op_type, ["x"], ["y"], attributes)], [onnx_value("x", x_dims)],
                      [onnx_value("y", y_dims)])


# A valid MaxPool 2x2/2 on a second input: with it irlint hands the model to ONNX's shape inference for the
# cross-check, which then also sees the hostile node beside it.
GOOD_POOL = onnx_node("MaxPool", ["a"], ["b"], [ints("kernel_shape", [2, 2]), ints("strides", [2, 2])])


def beside_good_pool(opset, node, inputs, outputs, initializers=()):
    return onnx_model(opset, [node, GOOD_POOL], inputs + [onnx_value("a", [1, 1, 4, 4])],
                      outputs + [onnx_value("b", [1, 1, 2, 2])], initializers)


def one_node(opset, op_type, inputs, outputs, attributes=(), initializers=()):
    """A model of one node. inputs: (name, dims) graph inputs, or a bare name an initializer gives; outputs:
    (name, dims) graph outputs."""
    names = [i if isinstance(i, str) else i[0] for i in inputs]
    return onnx_model(opset, [onnx_node(op_type, names, [o[0] for o in outputs], attributes)],
                      [onnx_value(*i) for i in inputs if not isinstance(i, str)],
                      [onnx_value(*o) for o in outputs], initializers)


BOOL = 9  # TensorProto.BOOL: an If's condition


def nested_ifs(depth):
    """An If whose then-branch is an If whose then-branch is ..., `depth` deep; each else-branch gives y."""
    leaf = onnx_graph([onnx_node("Identity", ["x"], ["y"])], [], [onnx_value("y", [2])], name="leaf")
    branch = leaf
    for level in range(depth):
        node = onnx_node("If", ["c"], ["y"], [graph_attr("then_branch", branch), graph_attr("else_branch", leaf)])
        branch = onnx_graph([node], [], [onnx_value("y", [2])], name=f"level{level}")
    return onnx_model(13, [onnx_node("If", ["c"], ["y"], [graph_attr("then_branch", branch),
                                                          graph_attr("else_branch", leaf)])],
                      [onnx_value("c", [], BOOL), onnx_value("x", [2])], [onnx_value("y", [2])])


def values_chain(length, elements):
    """Adds of a known int64 tensor of `elements` and a one, `length` of them in a chain: each computes a new
    tensor of values, so a file of a few bytes per node asks for `elements` values per node."""
    nodes = [onnx_node("Add", ["x" if i == 0 else f"v{i - 1}", "one"], [f"v{i}"]) for i in range(length)]
    return onnx_model(14, nodes, [], [onnx_value(f"v{length - 1}", [elements], TENSOR_INT64)],
                      [onnx_i64_initializer("x", list(range(elements))), onnx_i64_initializer("one", [1])])


def nested_ifs_reading_outer(depth, names):
    """`depth` nested Ifs whose innermost then-branch sums `names` values of the main graph: every level of
    nesting has to hand all of them down."""
    values = [f"v{i}" for i in range(names)]
    leaf = onnx_graph([onnx_node("Identity", ["x"], ["y"])], [], [onnx_value("y", [2])], name="leaf")
    branch = onnx_graph([onnx_node("Sum", values, ["y"])], [], [onnx_value("y", [2])], name="reader")
    for level in range(depth):
        node = onnx_node("If", ["c"], ["y"], [graph_attr("then_branch", branch), graph_attr("else_branch", leaf)])
        branch = onnx_graph([node], [], [onnx_value("y", [2])], name=f"level{level}")
    copies = [onnx_node("Identity", ["x"], [v]) for v in values]
    return onnx_model(13, copies + [onnx_node("If", ["c"], ["y"], [graph_attr("then_branch", branch),
                                                                  graph_attr("else_branch", leaf)])],
                      [onnx_value("c", [], BOOL), onnx_value("x", [2])], [onnx_value("y", [2])])


SIXTEEN = [float(v) for v in range(16)]
X = f32(SIXTEEN)  # the 4x4 input, values 0..15 in C order

FILES = {
    # valid inputs for run_maxpool.xml, the controls the hostile cases differ from
    "x_f32.npy": npy(header(), X),
    "x_f32_big_endian.npy": npy(header(descr="'>f4'"), f32(SIXTEEN, big_endian=True)),
    "x_f32_fortran.npy": npy(header(fortran="True"),
                             f32([SIXTEEN[w * 4 + h] for h in range(4) for w in range(4)])),
    "x_1x1x1x1_f32.npy": npy(header(shape="(1, 1, 1, 1)"), f32([3.0])),
    "y_expected_f32.npy": npy(header(shape="(1, 1, 2, 2)"), f32([5.0, 7.0, 13.0, 15.0])),  # MaxPool 2x2/2 of x
    # the mean of a window of 2^64 positions holding one 3.0 and padding zeros
    "y_avgpool_taps_overflow.npy": npy(header(shape="(1, 1, 1, 1)"), f32([3.0 / 2**64])),
    # outer framing
    "npy_empty.npy": b"",
    "npy_bad_magic.npy": b"\x93NUMPX" + npy(header(), X)[6:],
    "npy_magic_only.npy": MAGIC,
    "npy_version_9.npy": npy(header(), X, version=(9, 0)),
    "npy_header_length_past_end.npy": npy(header(), b"", length=0xFFFF),
    "npy_v2_header_length_4g.npy": npy(header(), X, version=(2, 0), length=0xFFFFFFFF),
    "npy_header_no_newline.npy": MAGIC + b"\x01\x00" + struct.pack("<H", 10) + b"{'a': 1}  " + X,
    "npy_header_non_ascii.npy": npy(header(descr="'<f4\xff'"), X),
    # the header dictionary
    "npy_header_not_dict.npy": npy("['<f4', False, (1, 1, 4, 4)]", X),
    "npy_header_unterminated_string.npy": npy("{'descr: '<f4, 'fortran_order': False}", X),
    "npy_header_duplicate_key.npy": npy("{'descr': '<f4', 'descr': '<f8', 'fortran_order': False, "
                                        "'shape': (1, 1, 4, 4), }", X),
    "npy_header_extra_key.npy": npy("{'descr': '<f4', 'fortran_order': False, 'shape': (1, 1, 4, 4), "
                                    "'pickle': True, }", X),
    "npy_header_missing_shape.npy": npy("{'descr': '<f4', 'fortran_order': False, }", X),
    "npy_header_deep_parens.npy": npy("{'descr': '<f4', 'fortran_order': False, 'shape': "
                                      + "(" * 20000 + ")" * 20000 + ", }", X),
    "npy_fortran_not_bool.npy": npy(header(fortran="'yes'"), X),
    "npy_shape_not_tuple.npy": npy(header(shape="16"), X),
    "npy_shape_negative.npy": npy(header(shape="(-1, 4)"), X),
    "npy_shape_fraction.npy": npy(header(shape="(1.5, 4)"), X),
    "npy_shape_above_int64.npy": npy(header(shape="(100000000000000000000,)"), X),
    "npy_shape_product_overflow.npy": npy(header(shape=f"({2**62}, {2**62})"), X),
    "npy_1e12_elements.npy": npy(header(shape="(1000000, 1000000)"), X),
    # the data
    "npy_short_data.npy": npy(header(), X[:60]),
    "npy_trailing_data.npy": npy(header(), X + b"\0\0\0\0"),
    # dtypes irlint does not read
    "npy_object_dtype.npy": npy(header(descr="'|O'"), b"\x80\x04N."),
    "npy_structured_dtype.npy": npy(header(descr="[('a', '<f4')]"), X),
    "npy_unicode_dtype.npy": npy(header(descr="'<U4'"), b"\0" * 256),
    "npy_complex_dtype.npy": npy(header(descr="'<c8'"), b"\0" * 128),
    "npy_dtype_no_byte_order.npy": npy(header(descr="'f4'"), X),
    "npy_dtype_width_garbage.npy": npy(header(descr="'<f99999999999999999999'"), X),
    # well-formed files that do not fit the layer (f32 [1,1,4,4])
    "npy_wrong_dtype_i32.npy": npy(header(descr="'<i4'"), struct.pack("<16i", *range(16))),
    "npy_wrong_shape.npy": npy(header(shape="(1, 1, 5, 5)"), f32([0.0] * 25)),
    "npy_wrong_rank.npy": npy(header(shape="(16,)"), X),
    "npy_scalar.npy": npy(header(shape="()"), f32([1.0])),
    # the input of run_avgpool_i64_sum_overflow.xml, and the mean its AvgPool gives: the reference sums in
    # the element type, so 2^63 - 1 + 1 wraps to -2^63 before the division
    "x_i64_sum_overflow.npy": npy(header(descr="'<i8'", shape="(1, 1, 2)"), i64([2**63 - 1, 1])),
    "y_i64_sum_overflow.npy": npy(header(descr="'<i8'", shape="(1, 1, 1)"), i64([-(2**62)])),
    # output_size inputs of run_adaptive.xml
    "size_2x2.npy": npy(header(descr="'<i8'", shape="(2,)"), i64([2, 2])),
    "size_huge.npy": npy(header(descr="'<i8'", shape="(2,)"), i64([2**62, 2**62])),
    "size_negative.npy": npy(header(descr="'<i8'", shape="(2,)"), i64([-1, 2])),
    "size_float.npy": npy(header(descr="'<f4'", shape="(2,)"), f32([2.0, 2.0])),
    "size_three_values.npy": npy(header(descr="'<i8'", shape="(3,)"), i64([2, 2, 2])),
    "size_2d.npy": npy(header(descr="'<i8'", shape="(1, 2)"), i64([2, 2])),
    # .bin files beside the Const cases
    "const_offset_past_bin.bin": i64([1, 2]),
    "const_offset_size_wrap.bin": i64([1, 2]),
    "const_shape_overflow.bin": i64([1, 2]),
    "adaptive_output_size_past_bin.bin": i64([2, 2]),
    "adaptive_output_size_huge.bin": i64([2**62, -1]),
    # Range start 0, stop 2^62, step 1: 2^62 elements
    "range_2_to_62.bin": i64([0, 2**62, 1]),
    # Broadcast target [2^40, 2^40]
    "broadcast_2_to_40_squared.bin": i64([2**40, 2**40]),
    # Tile repeats [10^12, 10^12]
    "tile_10_to_12.bin": i64([10**12, 10**12]),
    # ONNX pooling nodes. ONNX's shape inference divides by the strides, indexes its lists by the input's rank
    # and finds a SAME pad by subtracting the stride from the dim step by step; irlint's own geometry walks
    # windows and taps.
    # MaxPool-12 with a zero and a negative stride and a kernel of int64's maximum: SIGFPE in the library
    "onnx_maxpool_stride_zero.onnx": one_pool("MaxPool", 13, [text("auto_pad", "SAME_UPPER"),
                                              ints("kernel_shape", [INT64_MAX, 2]), ints("strides", [0, -3])],
                                              [1, 1, 4, 4], [1, 1, 4, 4]),
    # AveragePool-7 SAME over a dim of 2^40: the library's SAME pad takes 2^39 subtractions
    "onnx_avgpool_dim_2e40.onnx": one_pool("AveragePool", 7, [text("auto_pad", "SAME_UPPER"),
                                           ints("kernel_shape", [2, 2]), ints("strides", [2, 2])],
                                           [1, 1, 2**40, 2], [1, 1, 2**39, 1]),
    # MaxPool-12 whose first window starts 2^40 before the input: irlint looked at its taps one by one
    "onnx_maxpool_pads_2e40.onnx": one_pool("MaxPool", 13, [ints("kernel_shape", [2**41, 1]),
                                            ints("pads", [2**40, 0, 2**40, 0])], [1, 1, 4, 4], [1, 1, 5, 4]),
    # SAME_LOWER with a kernel of int64's maximum: ONNX Runtime's SAME pad is past int64
    "onnx_maxpool_kernel_int64_max_same_lower.onnx": one_pool("MaxPool", 13, [
        text("auto_pad", "SAME_LOWER"), ints("kernel_shape", [INT64_MAX, 3])], [1, 1, 5, 5], [1, 1, 1, 5]),
    # strides, dilations and pads that no runtime takes
    "onnx_avgpool_strides_negative.onnx": one_pool("AveragePool", 11, [ints("kernel_shape", [2, 2]),
                                                   ints("strides", [-1, -1])], [1, 1, 4, 4], [1, 1, 3, 3]),
    "onnx_maxpool_dilation_2e62.onnx": one_pool("MaxPool", 12, [ints("kernel_shape", [2, 2]),
                                                ints("dilations", [2**62, 1])], [1, 1, 4, 4], [1, 1, 1, 3]),
    "onnx_maxpool_pads_int64_max.onnx": one_pool("MaxPool", 12, [ints("kernel_shape", [2, 2]),
                                                 ints("pads", [INT64_MAX, 0, INT64_MAX, 0])],
                                                 [1, 1, 4, 4], [1, 1, 1, 3]),
    "onnx_avgpool_kernel_rank_mismatch.onnx": one_pool("AveragePool", 11, [ints("kernel_shape", [2, 2, 2])],
                                                       [1, 1, 4, 4], [1, 1, 3, 3]),
    "onnx_globalmaxpool_no_spatial_dim.onnx": one_pool("GlobalMaxPool", 13, [], [1, 1], [1, 1]),
    # A valid pool beside a hostile node irlint does not check or reads otherwise: ONNX's shape inference of
    # the whole model sees the hostile node. LpPool with a zero stride:
    "onnx_lppool_stride_zero.onnx": beside_good_pool(13, onnx_node("LpPool", ["x"], ["y"], [
        ints("kernel_shape", [2, 2]), ints("strides", [0, 0])]), [onnx_value("x", [1, 1, 4, 4])],
        [onnx_value("y", [1, 1, 3, 3])]),
    # strides twice: irlint reads the first (valid), the library the last (zero)
    "onnx_maxpool_strides_twice.onnx": onnx_model(13, [onnx_node("MaxPool", ["a"], ["b"], [
        ints("kernel_shape", [2, 2]), ints("strides", [2, 2]), ints("strides", [0, 0])])],
        [onnx_value("a", [1, 1, 4, 4])], [onnx_value("b", [1, 1, 2, 2])]),
    # Conv without kernel_shape whose weight has more spatial dims than the input: the library indexes its
    # per-axis lists past their end
    "onnx_conv_weight_rank_mismatch.onnx": beside_good_pool(13, onnx_node("Conv", ["x", "w"], ["y"]),
                                                            [onnx_value("x", [1, 1, 4, 4])],
                                                            [onnx_value("y", [1, 1, 3, 3])],
                                                            [onnx_initializer("w", [1, 1, 2, 2, 2, 2])]),
    # AveragePool SAME with stride 2 on a dim of 2^40 that only inference knows (the output of a Relu)
    "onnx_avgpool_same_after_relu.onnx": onnx_model(13, [onnx_node("Relu", ["x"], ["r"]), onnx_node(
        "AveragePool", ["r"], ["y"], [text("auto_pad", "SAME_UPPER"), ints("kernel_shape", [2, 2]),
                                      ints("strides", [2, 2])])], [onnx_value("x", [1, 1, 2**40, 2])],
        [onnx_value("y", [1, 1, 2**39, 1])]),
}

# One ONNX model per op family, each with what shape inference (the library's or irlint's) would divide,
# index, allocate or loop by taken to its limit. Every node of a model is inferred: none may crash, hang or
# allocate in proportion to a number in the file.
BIG, HUGE = 2**40, 2**62
FILES.update({
    # elementwise: broadcasting dims of 2^40, and an Expand to [2^40, 2^40]
    "onnx_add_broadcast_2e40.onnx": one_node(13, "Add", [("x", [BIG, 1]), ("y", [1, BIG])], [("z", [BIG, BIG])]),
    "onnx_expand_2e40_squared.onnx": one_node(13, "Expand", [("x", [1, 1]), "s"], [("y", [BIG, BIG])], (),
                                              [onnx_i64_initializer("s", [BIG, BIG])]),
    # shape manipulation
    "onnx_reshape_two_minus_one.onnx": one_node(13, "Reshape", [("x", [2, 3]), "s"], [("y", [6])], (),
                                                [onnx_i64_initializer("s", [-1, -1])]),
    "onnx_reshape_target_2e62.onnx": one_node(13, "Reshape", [("x", [2, 3]), "s"], [("y", [6])], (),
                                              [onnx_i64_initializer("s", [HUGE, HUGE])]),
    "onnx_transpose_perm_out_of_range.onnx": one_node(13, "Transpose", [("x", [2, 3])], [("y", [3, 2])],
                                                      [ints("perm", [0, HUGE])]),
    "onnx_transpose_perm_duplicate.onnx": one_node(13, "Transpose", [("x", [2, 3])], [("y", [3, 2])],
                                                   [ints("perm", [1, 1])]),
    "onnx_concat_axis_2e62.onnx": one_node(13, "Concat", [("a", [2, 3]), ("b", [2, 3])], [("y", [4, 3])],
                                           [int_attr("axis", HUGE)]),
    "onnx_flatten_axis_out_of_range.onnx": one_node(13, "Flatten", [("x", [2, 3])], [("y", [1, 6])],
                                                    [int_attr("axis", -100)]),
    "onnx_squeeze_axes_int64_min.onnx": one_node(13, "Squeeze", [("x", [1, 3]), "a"], [("y", [3])], (),
                                                 [onnx_i64_initializer("a", [-2**63])]),
    "onnx_unsqueeze_axes_2e40.onnx": one_node(13, "Unsqueeze", [("x", [3]), "a"], [("y", [1, 3])], (),
                                              [onnx_i64_initializer("a", [BIG])]),
    "onnx_split_sizes_overflow.onnx": one_node(13, "Split", [("x", [3]), "s"], [("y", [1]), ("z", [2])], (),
                                               [onnx_i64_initializer("s", [HUGE, 3 - HUGE])]),
    "onnx_depthtospace_blocksize_zero.onnx": one_node(13, "DepthToSpace", [("x", [1, 4, 2, 2])],
                                                      [("y", [1, 1, 4, 4])], [int_attr("blocksize", 0)]),
    "onnx_spacetodepth_blocksize_2e62.onnx": one_node(13, "SpaceToDepth", [("x", [1, 1, 4, 4])],
                                                      [("y", [1, 4, 2, 2])], [int_attr("blocksize", HUGE)]),
    # tensor: gathers, repeats, generators, slices and pads
    "onnx_gather_axis_out_of_range.onnx": one_node(13, "Gather", [("x", [2, 3]), ("i", [2])], [("y", [2, 3])],
                                                   [int_attr("axis", 7)]),
    "onnx_tile_repeats_1e12.onnx": one_node(13, "Tile", [("x", [2, 3]), "r"], [("y", [2, 3])], (),
                                            [onnx_i64_initializer("r", [10**12, 10**12])]),
    "onnx_constantofshape_2e40_squared.onnx": one_node(13, "ConstantOfShape", ["s"], [("y", [BIG, BIG])], (),
                                                       [onnx_i64_initializer("s", [BIG, BIG])]),
    "onnx_range_2e62.onnx": one_node(13, "Range", ["a", "b", "c"], [("y", [HUGE])], (),
                                     [onnx_i64_initializer("a", [0], []), onnx_i64_initializer("b", [HUGE], []),
                                      onnx_i64_initializer("c", [1], [])]),
    "onnx_onehot_depth_2e62.onnx": one_node(11, "OneHot", [("i", [3]), "d", "v"], [("y", [3, HUGE])], (),
                                            [onnx_i64_initializer("d", [HUGE], []),
                                             onnx_f32_initializer("v", [0.0, 1.0])]),
    "onnx_slice_step_zero.onnx": one_node(13, "Slice", [("x", [4]), "s", "e", "a", "t"], [("y", [4])], (),
                                          [onnx_i64_initializer("s", [0]), onnx_i64_initializer("e", [4]),
                                           onnx_i64_initializer("a", [0]), onnx_i64_initializer("t", [0])]),
    "onnx_pad_2e62.onnx": one_node(13, "Pad", [("x", [2, 3]), "p"], [("y", [2, 3])], (),
                                   [onnx_i64_initializer("p", [HUGE, 0, HUGE, 0])]),
    "onnx_resize_scales_1e30.onnx": one_node(13, "Resize", [("x", [1, 1, 4, 4]), "", "s"], [("y", [1, 1, 8, 8])],
                                             (), [onnx_f32_initializer("s", [1.0, 1.0, 1e30, 1e30])]),
    # convolution and matrix products
    "onnx_conv_group_zero.onnx": one_node(13, "Conv", [("x", [1, 2, 4, 4]), "w"], [("y", [1, 2, 3, 3])],
                                          [int_attr("group", 0)], [onnx_initializer("w", [2, 1, 2, 2])]),
    "onnx_convtranspose_output_padding_2e62.onnx": one_node(
        13, "ConvTranspose", [("x", [1, 1, 4, 4]), "w"], [("y", [1, 1, 5, 5])],
        [ints("output_padding", [HUGE, 0]), ints("strides", [HUGE, 1])], [onnx_initializer("w", [1, 1, 2, 2])]),
    "onnx_matmul_scalars.onnx": one_node(13, "MatMul", [("a", []), ("b", [])], [("y", [])]),
    "onnx_gemm_inner_mismatch.onnx": one_node(13, "Gemm", [("a", [2, 3]), ("b", [4, 5])], [("y", [2, 5])]),
    # reductions and normalizations
    "onnx_reducesum_axes_2e62.onnx": one_node(13, "ReduceSum", [("x", [2, 3]), "a"], [("y", [1, 3])], (),
                                              [onnx_i64_initializer("a", [HUGE])]),
    "onnx_batchnorm_scale_rank.onnx": one_node(
        15, "BatchNormalization", [("x", [1, 2, 4, 4]), "s", "b", "m", "v"], [("y", [1, 2, 4, 4])], (),
        [onnx_initializer(n, [3, 3]) for n in "sbmv"]),
    "onnx_layernorm_axis_out_of_range.onnx": one_node(17, "LayerNormalization", [("x", [2, 3]), "s"],
                                                      [("y", [2, 3])], [int_attr("axis", 100)],
                                                      [onnx_initializer("s", [3])]),
    "onnx_topk_k_2e62.onnx": one_node(11, "TopK", [("x", [2, 3]), "k"], [("v", [2, 3]), ("i", [2, 3])], (),
                                      [onnx_i64_initializer("k", [HUGE])]),
    # recurrent: a hidden size of 2^62
    "onnx_lstm_hidden_2e62.onnx": one_node(14, "LSTM", [("x", [1, 1, 2]), "w", "r"], [("y", [1, 1, 1, 2])],
                                           [int_attr("hidden_size", HUGE)],
                                           [onnx_initializer("w", [1, 8, 2]), onnx_initializer("r", [1, 8, 2])]),
    # detection
    "onnx_nms_boxes_rank.onnx": one_node(11, "NonMaxSuppression", [("b", [1, 4]), ("s", [1, 1, 4])],
                                         [("y", ["n", 3])]),
    "onnx_roialign_output_2e40.onnx": one_node(
        16, "RoiAlign", [("x", [1, 1, 4, 4]), ("r", [3]), ("i", [3])], [("y", [3, 1, BIG, BIG])],
        [int_attr("output_height", BIG), int_attr("output_width", BIG)]),
    # misc: an equation that is no equation
    "onnx_einsum_bad_equation.onnx": one_node(12, "Einsum", [("x", [2, 3])], [("y", [2])],
                                              [text("equation", "ab,,->" + "." * 1000)]),
    # control flow: branches missing, a body missing, a scan count of 2^62, Ifs nested 25 and 60 deep
    "onnx_if_no_branches.onnx": one_node(13, "If", [("c", [])], [("y", [2])]),
    "onnx_loop_no_body.onnx": one_node(13, "Loop", ["m", ("c", [])], [("y", [2])], (),
                                       [onnx_i64_initializer("m", [3], [])]),
    "onnx_scan_inputs_2e62.onnx": one_node(11, "Scan", [("x", [2, 3])], [("y", [2, 3])], [
        int_attr("num_scan_inputs", HUGE),
        graph_attr("body", onnx_graph([onnx_node("Identity", ["u"], ["v"])], [onnx_value("u", [3])],
                                      [onnx_value("v", [3])], name="body"))]),
    "onnx_if_nested_25.onnx": nested_ifs(25),
    # graphs: a cycle, a value produced twice, names left empty, a domain not imported, an opset of 10^9, a
    # function that calls itself
    "onnx_cycle.onnx": onnx_model(13, [onnx_node("Relu", ["z"], ["y"]), onnx_node("Relu", ["y"], ["z"])], [],
                                  [onnx_value("y", [2])]),
    "onnx_duplicate_outputs.onnx": onnx_model(13, [onnx_node("Relu", ["x"], ["y"]), onnx_node("Neg", ["x"], ["y"])],
                                              [onnx_value("x", [2])], [onnx_value("y", [2])]),
    "onnx_empty_names.onnx": onnx_model(13, [onnx_node("Relu", [""], [""]), onnx_node("Relu", ["x"], ["y"])],
                                        [onnx_value("", [2]), onnx_value("x", [2])], [onnx_value("y", [2])]),
    "onnx_domain_not_imported.onnx": onnx_model(13, [onnx_domain_node("Gelu", "com.microsoft", ["x"], ["y"])],
                                                [onnx_value("x", [2])], [onnx_value("y", [2])]),
    "onnx_opset_1e9.onnx": onnx_model(10**9, [onnx_node("Relu", ["x"], ["y"])], [onnx_value("x", [2])],
                                      [onnx_value("y", [2])]),
    "onnx_function_recursive.onnx": onnx_model_with(
        [("", 18), ("local", 1)], [onnx_domain_node("f", "local", ["x"], ["y"])], [onnx_value("x", [2])],
        [onnx_value("y", [2])],
        [onnx_function("f", "local", ["a"], ["b"], [onnx_domain_node("f", "local", ["a"], ["b"])],
                       [opset_id("", 18), opset_id("local", 1)])]),
    # protobuf's recursion limit (100 messages deep) makes this one unreadable
    "onnx_if_nested_60.onnx": nested_ifs(60),
})


def main(argv):
    check = "--check" in argv[1:]
    here = os.path.dirname(os.path.abspath(__file__))
    stale = 0
    for name, data in FILES.items():
        path = os.path.join(here, name)
        if check:
            try:
                with open(path, "rb") as f:
                    same = f.read() == data
            except OSError:
                same = False
            if not same:
                print(f"{name}: differs from what make_binaries.py writes")
                stale += 1
            continue
        with open(path, "wb") as f:
            f.write(data)
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
