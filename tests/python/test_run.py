"""irlint.run and irlint.compare: arrays in and out, the results and errors of `irlint run` on the same data.

Imports irlint from PYTHONPATH (BUILD/python) and runs the binary beside it (BUILD/irlint) on the same data
saved as .npy files, so that every result and message is held against the command's.
"""
import json
import os
import subprocess
import threading
import time
from pathlib import Path

import numpy as np
import pytest

import irlint

TESTDATA = Path(__file__).resolve().parents[2] / "testdata"
MAXPOOL8 = TESTDATA / "spec" / "maxpool_rules_example1.xml"  # kernel 2, stride 1, pads 1/1 on 1x1x3x3; 2 outputs
ADAPTIVE = TESTDATA / "valid" / "adaptive_avgpool8.xml"  # 1x256x13x17, output_size 7x7 from the .bin


@pytest.fixture(scope="session")
def cli():
    """The irlint binary of the build the module was imported from."""
    binary = Path(os.environ.get("IRLINT_BINARY", Path(irlint.__file__).resolve().parents[2] / "irlint"))
    assert binary.is_file(), f"no irlint binary at {binary}"
    return binary


def irlint_run(cli, model, x, *expects, layer="pool", tmp, extra=()):
    """`irlint run --format json` on the arrays saved as .npy files: (exit code, JSON or None, stderr, paths)."""
    paths = {"input": str(tmp / "x.npy")}
    np.save(paths["input"], x)
    args = [str(cli), "run", str(model), "--layer", layer, "--input", paths["input"], "--format", "json", *extra]
    for i, e in enumerate(expects):
        paths[f"expect[{i}]"] = str(tmp / f"e{i}.npy")
        np.save(paths[f"expect[{i}]"], e)
        args += ["--expect", paths[f"expect[{i}]"]]
    p = subprocess.run(args, capture_output=True, text=True, timeout=120)
    return p.returncode, (json.loads(p.stdout) if p.stdout.strip() else None), p.stderr, paths


def cli_error(stderr):
    prefix = "irlint: error: "
    assert stderr.startswith(prefix), stderr
    return stderr[len(prefix):].rstrip("\n")


def named_like_python(text, paths):
    """The CLI's text with each file path replaced by the name irlint.run gives that array."""
    for name, path in paths.items():
        text = text.replace(path, name)
    return text


def port(pid, precision, shape):
    return f'<port id="{pid}" precision="{precision}">' + "".join(f"<dim>{d}</dim>" for d in shape) + "</port>"


def write_pool_ir(path, op, version, attrs, in_shape, out_shape, precision="FP32", element="f32", indices=False):
    """A model of a Parameter, one pooling layer and its Results."""
    data = " ".join(f'{k}="{v}"' for k, v in attrs.items())
    outputs = port(1, precision, out_shape) + (port(2, "I64", out_shape) if indices else "")
    results = f'<layer id="2" name="out" type="Result" version="opset1"><input>{port(0, precision, out_shape)}</input></layer>'
    edges = '<edge from-layer="0" from-port="0" to-layer="1" to-port="0"/><edge from-layer="1" from-port="1" to-layer="2" to-port="0"/>'
    if indices:
        results += f'<layer id="3" name="idx" type="Result" version="opset1"><input>{port(0, "I64", out_shape)}</input></layer>'
        edges += '<edge from-layer="1" from-port="2" to-layer="3" to-port="0"/>'
    shape = ",".join(map(str, in_shape))
    path.write_text(f"""<?xml version="1.0"?>
<net name="pool" version="11"><layers>
<layer id="0" name="input" type="Parameter" version="opset1"><data shape="{shape}" element_type="{element}"/>
<output>{port(0, precision, in_shape)}</output></layer>
<layer id="1" name="pool" type="{op}" version="{version}"><data {data}/>
<input>{port(0, precision, in_shape)}</input><output>{outputs}</output></layer>
{results}</layers><edges>{edges}</edges></net>
""")
    return path


def maxpool8_as(tmp, precision, element):
    text = MAXPOOL8.read_text().replace('precision="FP32"', f'precision="{precision}"')
    path = tmp / f"pool_{element}.xml"
    path.write_text(text.replace('element_type="f32"', f'element_type="{element}"'))
    return path


def to_bf16_bits(x):
    """float32 to bf16 bits, rounded to nearest even."""
    bits = np.asarray(x, np.float32).view(np.uint32).astype(np.uint64)
    return ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16).astype(np.uint16)


def from_bf16_bits(bits):
    return (bits.astype(np.uint32) << 16).view(np.float32)


X3 = np.array([[[[1, 5, 2], [7, 3, 9], [4, 8, 6]]]], np.float32)
VALUES3 = np.array([[[[1, 5, 5, 2], [7, 7, 9, 9], [7, 8, 9, 9], [4, 8, 8, 6]]]], np.float32)
INDICES3 = np.array([[[[0, 1, 1, 2], [3, 3, 5, 5], [3, 7, 5, 5], [6, 7, 7, 8]]]], np.int64)


# ---- run ------------------------------------------------------------------------------------------------

def comparable(document, paths):
    """A run's JSON without its timing, with file paths named as irlint.run names its arrays."""
    document = json.loads(named_like_python(json.dumps(document), paths))
    document.pop("kernel_ms", None)
    return document


def test_run_equals_cli_json(cli, tmp_path):
    code, cli_json, _, paths = irlint_run(cli, MAXPOOL8, X3, VALUES3, INDICES3, tmp=tmp_path)
    assert code == 0 and cli_json["status"] == "ok"
    r = irlint.run(MAXPOOL8, "pool", X3, expect=[VALUES3, INDICES3])
    assert comparable(json.loads(r.to_json()), paths) == comparable(cli_json, paths)
    assert r.status == "ok" and r.ok and r.op == "MaxPool-8"
    assert r.layer == {"id": "1", "name": "pool", "type": "MaxPool", "version": "opset8"}
    assert [o.role for o in r.outputs] == ["values", "indices"]
    assert [o.dtype for o in r.outputs] == ["f32", "i64"]
    np.testing.assert_array_equal(r.outputs[0].array, VALUES3)
    np.testing.assert_array_equal(r.outputs[1].array, INDICES3)
    values = r.outputs[0]
    assert values.shape == (1, 1, 4, 4) and values.total == 16 and values.mismatches == 0
    assert values.tolerance == (1e-6, 1e-5) and values.compared and values.matches
    assert values.first_mismatch is None and values.worst_mismatch is None
    assert values.histogram["0"] == 16 and values.map.mismatches == 0
    assert r.kernel_ms > 0 and "MaxPool-8" in repr(r)


def test_run_by_id_and_not_compared(cli, tmp_path):
    r = irlint.run(str(MAXPOOL8), "1", [X3])
    assert r.status == "not_compared" and r.ok
    assert not r.outputs[0].compared and r.outputs[0].map is None
    np.testing.assert_array_equal(r.outputs[0].array, VALUES3)
    code, cli_json, _, paths = irlint_run(cli, MAXPOOL8, X3, layer="1", tmp=tmp_path)
    assert code == 0 and cli_json["status"] == "not-compared"
    assert comparable(json.loads(r.to_json()), paths) == comparable(cli_json, paths)


def onnx_avgpool(path):
    """x [1,2,6,6] -> AveragePool 3x3/2, pads 1, count_include_pad 0 -> y [1,2,3,3] (ONNX opset 13)."""
    onnx = pytest.importorskip("onnx")
    from onnx import TensorProto, helper
    graph = helper.make_graph(
        [helper.make_node("AveragePool", ["x"], ["y"], name="pool", kernel_shape=[3, 3], strides=[2, 2],
                          pads=[1, 1, 1, 1])],
        "avgpool", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 2, 6, 6])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 2, 3, 3])])
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]), str(path))
    return path


def test_run_onnx_equals_cli_json(cli, tmp_path):
    model = onnx_avgpool(tmp_path / "avgpool.onnx")
    x = np.arange(72, dtype=np.float32).reshape(1, 2, 6, 6)
    expected = irlint.run(model, "pool", x).outputs[0].array
    # ONNX's AveragePool without count_include_pad divides a corner window by its 4 taps inside the input.
    assert expected[0, 0, 0, 0] == np.float32((0 + 1 + 6 + 7) / 4)
    code, cli_json, _, paths = irlint_run(cli, model, x, expected, tmp=tmp_path)
    assert code == 0 and cli_json["status"] == "ok"
    r = irlint.run(model, "pool", x, expect=expected)
    assert r.ok and r.op == "AveragePool-11"
    assert comparable(json.loads(r.to_json()), paths) == comparable(cli_json, paths)
    planted = expected.copy()
    planted[0, 1, 2, 2] += 1
    assert irlint.run(model, "0", x, expect=planted).outputs[0].mismatches == 1  # the node by index
    with pytest.raises(irlint.UsageError) as missing:
        irlint.run(model, "nope", x)
    code, _, stderr, _ = irlint_run(cli, model, x, layer="nope", tmp=tmp_path)
    assert code == 2 and cli_error(stderr) == str(missing.value)


def test_expect_none_entries_are_not_compared():
    r = irlint.run(MAXPOOL8, "pool", X3, expect=[None, INDICES3])
    assert [o.compared for o in r.outputs] == [False, True]
    assert r.status == "ok"


def test_adaptive_pool_output_size(cli, tmp_path):
    x = np.random.default_rng(3).standard_normal((1, 256, 13, 17)).astype(np.float32)
    from_bin = irlint.run(ADAPTIVE, "pool", x)
    assert from_bin.outputs[0].shape == (1, 256, 7, 7)
    given = irlint.run(ADAPTIVE, "pool", x, output_size=[3, 5])
    assert given.outputs[0].shape == (1, 256, 3, 5)
    as_input = irlint.run(ADAPTIVE, "pool", [x, np.array([3, 5], np.int32)])
    np.testing.assert_array_equal(as_input.outputs[0].array, given.outputs[0].array)
    np.save(tmp_path / "size.npy", np.array([3, 5], np.int64))
    code, cli_json, _, paths = irlint_run(cli, ADAPTIVE, x, given.outputs[0].array, tmp=tmp_path,
                                          extra=["--input", str(tmp_path / "size.npy")])
    assert code == 0 and cli_json["status"] == "ok"
    assert irlint.run(ADAPTIVE, "pool", x, output_size=[3, 5], expect=given.outputs[0].array).status == "ok"


# ---- dtypes ---------------------------------------------------------------------------------------------

DTYPES = [  # IR precision, element type, NumPy dtype of the input
    ("FP32", "f32", np.float32), ("FP16", "f16", np.float16), ("FP64", "f64", np.float64),
    ("I8", "i8", np.int8), ("U8", "u8", np.uint8), ("I32", "i32", np.int32), ("I64", "i64", np.int64),
    ("I16", "i16", np.int16), ("U16", "u16", np.uint16), ("U32", "u32", np.uint32), ("U64", "u64", np.uint64),
    ("BOOL", "boolean", np.bool_),
]


@pytest.mark.parametrize("precision,element,dtype", DTYPES)
def test_every_dtype_equals_cli(cli, tmp_path, precision, element, dtype):
    model = maxpool8_as(tmp_path, precision, element)
    x = X3.astype(dtype)
    r = irlint.run(model, "pool", x)
    out = r.outputs[0]
    assert out.dtype == element and out.array.dtype == dtype
    assert np.shares_memory(r.input, x), "a C-contiguous input of the layer's dtype is viewed, not copied"
    saved = tmp_path / "saved.npy"
    code, _, err, _ = irlint_run(cli, model, x, tmp=tmp_path, extra=["--save", str(saved)])
    assert code == 0, err
    np.testing.assert_array_equal(out.array, np.load(saved))
    np.testing.assert_array_equal(out.array, VALUES3.astype(dtype))


def test_bf16_outputs_are_uint16_bits(cli, tmp_path):
    model = maxpool8_as(tmp_path, "BF16", "bf16")
    x = np.array([[[[1.001, 5.002, 2.003], [7.004, 3.005, 9.006], [4.007, 8.008, 6.009]]]], np.float32)
    r = irlint.run(model, "pool", x)
    out = r.outputs[0]
    assert out.dtype == "bf16" and out.array.dtype == np.uint16
    assert r.input.dtype == np.uint16 and not np.shares_memory(r.input, x), "f32 data is rounded into a copy"
    np.testing.assert_array_equal(r.input, to_bf16_bits(x))
    saved = tmp_path / "saved.npy"
    assert irlint_run(cli, model, x, tmp=tmp_path, extra=["--save", str(saved)])[0] == 0
    np.testing.assert_array_equal(from_bf16_bits(out.array), np.load(saved))
    # bits in, no copy; the same output; an f32 or uint16 expected array is compared as bf16
    bits = to_bf16_bits(x)
    again = irlint.run(model, "pool", bits, expect=out.array)
    assert np.shares_memory(again.input, bits)
    np.testing.assert_array_equal(again.outputs[0].array, out.array)
    assert again.status == "ok" and again.outputs[0].tolerance == (1e-2, 1e-2)
    assert irlint.run(model, "pool", x, expect=from_bf16_bits(out.array)).status == "ok"


# ---- zero copy ------------------------------------------------------------------------------------------

def test_input_views_and_copies():
    x = np.ascontiguousarray(np.random.default_rng(1).standard_normal((1, 1, 3, 3)).astype(np.float32))
    viewed = irlint.run(MAXPOOL8, "pool", x)
    assert np.shares_memory(viewed.input, x) and not viewed.input.flags.writeable
    fortran = np.asfortranarray(x)
    copied = irlint.run(MAXPOOL8, "pool", fortran)
    assert not np.shares_memory(copied.input, fortran) and copied.input.flags.c_contiguous
    swapped = x.astype(">f4")
    from_big_endian = irlint.run(MAXPOOL8, "pool", swapped)
    assert not np.shares_memory(from_big_endian.input, swapped)
    for r in (copied, from_big_endian):
        np.testing.assert_array_equal(r.outputs[0].array, viewed.outputs[0].array)


def test_outputs_own_irlints_buffer():
    r = irlint.run(MAXPOOL8, "pool", X3)
    values = r.outputs[0].array
    assert not values.flags.owndata and type(values.base).__name__ == "PyCapsule"
    assert values.flags.writeable and values.flags.c_contiguous
    assert r.outputs[0].array is values, "the attribute is the same array each time, not a copy"
    del r
    np.testing.assert_array_equal(values, VALUES3)  # the capsule keeps the buffer alive


def test_input_outlives_the_callers_reference():
    x = X3.copy()
    r = irlint.run(MAXPOOL8, "pool", x)
    del x
    np.testing.assert_array_equal(r.input, X3)


# ---- errors ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("case,x", [
    ("dtype", X3.astype(np.float64)),
    ("shape", np.zeros((1, 1, 4, 4), np.float32)),
    ("rank", np.zeros((1, 3, 3), np.float32)),
])
def test_data_errors_carry_the_cli_message(cli, tmp_path, case, x):
    code, cli_json, _, paths = irlint_run(cli, MAXPOOL8, x, tmp=tmp_path)
    assert code == 1 and cli_json["status"] == "error"
    with pytest.raises(irlint.DataError) as e:
        irlint.run(MAXPOOL8, "pool", x)
    assert str(e.value) == named_like_python(cli_json["error"], paths)
    assert isinstance(e.value, irlint.Error)


def test_unsupported_dtype(cli, tmp_path):
    x = np.zeros((1, 1, 3, 3), np.complex64)
    code, cli_json, _, paths = irlint_run(cli, MAXPOOL8, x, tmp=tmp_path)
    with pytest.raises(irlint.DataError) as e:
        irlint.run(MAXPOOL8, "pool", x)
    assert str(e.value) == named_like_python(cli_json["error"], paths)


def test_usage_errors_carry_the_cli_message(cli, tmp_path):
    for model, layer in [(MAXPOOL8, "nope"), (MAXPOOL8, "input"), (tmp_path / "missing.xml", "pool")]:
        code, _, err, _ = irlint_run(cli, model, X3, layer=layer, tmp=tmp_path)
        assert code in (1, 2)
        with pytest.raises(irlint.UsageError) as e:
            irlint.run(model, layer, X3)
        assert str(e.value) == cli_error(err)


def test_model_text_is_escaped_in_messages(cli, tmp_path):
    model = tmp_path / "escape.xml"
    model.write_text(MAXPOOL8.read_text().replace('name="pool"', 'name="po&#27;[31mol"'))
    code, _, err, _ = irlint_run(cli, model, X3, layer="nope", tmp=tmp_path)
    with pytest.raises(irlint.UsageError) as e:
        irlint.run(model, "nope", X3)
    assert "\x1b" not in str(e.value) and str(e.value) == cli_error(err)


def test_more_expected_arrays_than_outputs(cli, tmp_path):
    code, cli_json, _, paths = irlint_run(cli, MAXPOOL8, X3, VALUES3, INDICES3, VALUES3, tmp=tmp_path)
    with pytest.raises(irlint.UsageError) as e:
        irlint.run(MAXPOOL8, "pool", X3, expect=[VALUES3, INDICES3, VALUES3])
    assert str(e.value) == cli_json["error"]


def test_bad_arguments():
    with pytest.raises(irlint.UsageError):
        irlint.run(MAXPOOL8, "pool", X3, atol=-1)
    with pytest.raises(irlint.UsageError):
        irlint.run(MAXPOOL8, "pool", X3, threads=-1)
    with pytest.raises(irlint.UsageError):
        irlint.run(MAXPOOL8, "pool", [X3, X3, X3])


def test_an_expected_array_of_another_shape_is_a_problem(cli, tmp_path):
    wrong = np.zeros((1, 1, 3, 3), np.float32)
    code, cli_json, _, paths = irlint_run(cli, MAXPOOL8, X3, wrong, tmp=tmp_path)
    r = irlint.run(MAXPOOL8, "pool", X3, expect=wrong)
    assert r.status == "mismatch" == cli_json["status"] and code == 1
    assert r.outputs[0].problem == cli_json["outputs"][0]["problem"]
    assert comparable(json.loads(r.to_json()), paths) == comparable(cli_json, paths)


# ---- mismatches: the map and the explanations ----------------------------------------------------------

def test_planted_mismatch_map(cli, tmp_path):
    planted = VALUES3.copy()
    planted[0, 0, 2, 1] += 0.5
    r = irlint.run(MAXPOOL8, "pool", X3, expect=[planted, INDICES3])
    assert r.status == "mismatch" and not r.ok
    values = r.outputs[0]
    assert values.mismatches == 1 and values.max_abs_err == pytest.approx(0.5)
    assert values.first_mismatch.index == (0, 0, 2, 1) and values.worst_mismatch.index == (0, 0, 2, 1)
    assert values.first_mismatch.expected == pytest.approx(8.5) and values.first_mismatch.actual == 8
    cells = values.map.cells
    assert cells.shape == (4, 4) and cells.sum() == 1 and cells[2, 1] == 1
    assert values.map.bands["interior"] == 1 and values.map.channels.tolist() == [1]
    assert "1" in values.map.text()
    code, cli_json, _, paths = irlint_run(cli, MAXPOOL8, X3, planted, INDICES3, tmp=tmp_path)
    assert code == 1
    assert comparable(json.loads(r.to_json()), paths) == comparable(cli_json, paths)
    assert json.loads(values.map.to_json()) == cli_json["outputs"][0]["map"]


def avg_pool_exclude_pad(x, k):
    """Stride 1, pads k // 2: the mean of the taps inside the input (OpenVINO's exclude-pad="true")."""
    p = k // 2
    padded = np.pad(x, ((0, 0), (0, 0), (p, p), (p, p)))
    ones = np.pad(np.ones_like(x), ((0, 0), (0, 0), (p, p), (p, p)))
    h, w = x.shape[2:]
    sums = sum(padded[:, :, i:i + h, j:j + w] for i in range(k) for j in range(k))
    counts = sum(ones[:, :, i:i + h, j:j + w] for i in range(k) for j in range(k))
    return (sums / counts).astype(x.dtype)


def test_planted_convention_is_explained(tmp_path):
    model = write_pool_ir(tmp_path / "avg.xml", "AvgPool", "opset1",
                          {"auto_pad": "explicit", "rounding_type": "floor", "exclude-pad": "false", "kernel": "3,3",
                           "strides": "1,1", "pads_begin": "1,1", "pads_end": "1,1"}, [1, 2, 4, 4], [1, 2, 4, 4])
    x = np.random.default_rng(5).standard_normal((1, 2, 4, 4)).astype(np.float32)
    r = irlint.run(model, "pool", x, expect=avg_pool_exclude_pad(x, 3))
    out = r.outputs[0]
    assert r.status == "mismatch" and out.diagnosed
    assert [e.convention for e in out.explanations] == ["exclude-pad-true"]
    assert out.explanations[0].description
    assert out.map.bands["interior"] == 0 and out.mismatches == 2 * 12  # the border of each 4x4 plane


# ---- compare --------------------------------------------------------------------------------------------

def test_compare_defaults_by_dtype():
    a = np.ones((2, 3, 4, 4), np.float32)
    assert irlint.compare(a, a + 5e-7).matches
    assert not irlint.compare(a, a + 1e-4).matches
    assert irlint.compare(a.astype(np.float16), (a + 5e-4).astype(np.float16)).tolerance == (1e-3, 1e-3)
    ints = np.arange(10, dtype=np.int32)
    assert irlint.compare(ints, ints).tolerance == (0, 0)
    assert not irlint.compare(ints, ints + 1)
    nan = np.array([np.nan, 1], np.float64)
    assert irlint.compare(nan, nan).matches


def test_compare_statistics():
    a = np.zeros((1, 2, 8, 8), np.float32)
    e = a.copy()
    e[0, 1, 3, 4] = 0.25
    e[0, 0, 7, 7] = 1.5
    c = irlint.compare(a, e, atol=0.1, rtol=0)
    assert not c.matches and c.mismatches == 2 and c.total == 128
    assert c.first_mismatch.index == (0, 0, 7, 7) and c.worst_mismatch.index == (0, 0, 7, 7)
    assert c.worst_mismatch.expected == 1.5 and c.worst_mismatch.actual == 0
    assert c.max_abs_err == 1.5 and c.mean_abs_err == pytest.approx(1.75 / 128)
    assert c.map.cells[7, 7] == 1 and c.map.cells[3, 4] == 1 and c.map.channels.tolist() == [1, 1]
    assert sum(c.histogram.values()) == 128 and c.tolerance == (0.1, 0)
    assert irlint.compare(a, e, atol=2).matches


def test_compare_bf16_and_problems():
    x = np.array([1.001, 2.5, -3.7], np.float32)
    assert irlint.compare(to_bf16_bits(x), x, dtype="bf16").matches
    assert irlint.compare(to_bf16_bits(x), to_bf16_bits(x), dtype="bf16").tolerance == (1e-2, 1e-2)
    with pytest.raises(irlint.DataError):
        irlint.compare(x, x[:2])
    with pytest.raises(irlint.DataError):
        irlint.compare(x, x.astype(np.float64))
    with pytest.raises(irlint.DataError):
        irlint.compare(x.astype(np.complex64), x.astype(np.complex64))


# ---- threads and the GIL --------------------------------------------------------------------------------

def test_threads_do_not_change_results():
    x = np.random.default_rng(7).standard_normal((1, 256, 13, 17)).astype(np.float32)
    one = irlint.run(ADAPTIVE, "pool", x, threads=1)
    two = irlint.run(ADAPTIVE, "pool", x, threads=2)
    np.testing.assert_array_equal(one.outputs[0].array, two.outputs[0].array)
    b = x + np.float32(1e-3)
    assert irlint.compare(x, b, threads=1).mismatches == irlint.compare(x, b, threads=2).mismatches > 0


def longest_pause(work):
    """The longest time a Python thread went without running while `work` ran in another thread."""
    stamps = []
    done = threading.Event()

    def ticker():
        while not done.is_set():
            stamps.append(time.perf_counter())
            time.sleep(0.0005)

    t = threading.Thread(target=ticker)
    t.start()
    time.sleep(0.02)
    start = time.perf_counter()
    work()
    elapsed = time.perf_counter() - start
    done.set()
    t.join()
    inside = [s for s in stamps if start <= s]
    gaps = np.diff(inside) if len(inside) > 1 else np.array([elapsed])
    return float(gaps.max()), elapsed


def big_avgpool(tmp_path, side=256):
    shape = [1, 64, side, side]
    return write_pool_ir(tmp_path / "big.xml", "AvgPool", "opset1",
                         {"auto_pad": "explicit", "rounding_type": "floor", "exclude-pad": "true", "kernel": "5,5",
                          "strides": "1,1", "pads_begin": "2,2", "pads_end": "2,2"}, shape, shape)


def test_gil_is_released_while_running_and_comparing(tmp_path):
    model = big_avgpool(tmp_path, 512)
    x = np.random.default_rng(8).standard_normal((1, 64, 512, 512)).astype(np.float32)
    expected = irlint.run(model, "pool", x).outputs[0].array.copy()
    shifted = expected + np.float32(1)
    work = {
        "run": lambda: irlint.run(model, "pool", x, expect=expected, threads=1),
        "compare": lambda: irlint.compare(expected, shifted, threads=1),
    }
    for name, job in work.items():
        job()
        start = time.perf_counter()
        job()
        once = time.perf_counter() - start
        kept = []  # freed after the measurement: freeing an array holds the GIL, as for any NumPy array
        pause, elapsed = longest_pause(lambda: kept.extend(job() for _ in range(3)))
        kept.clear()
        assert once > 0.02, f"{name}: too little work to tell ({once:.3f} s)"
        assert pause < once / 2, f"{name}: another thread stood still for {pause:.3f} s; one call takes {once:.3f} s"


def test_two_threads_run_side_by_side(tmp_path):
    """Two runs in two threads take less than the two one after the other (best of three tries). It needs a
    second core that is idle: on a machine busy with other work it cannot be measured, and says so."""
    if os.cpu_count() < 2 or os.getloadavg()[0] > os.cpu_count() - 1:
        pytest.skip(f"no idle second core to measure on (load {os.getloadavg()[0]:.1f}, {os.cpu_count()} cores)")
    model = big_avgpool(tmp_path, 512)
    x = np.random.default_rng(9).standard_normal((1, 64, 512, 512)).astype(np.float32)

    def one():  # enough work (about 0.1 s) that starting a thread is nothing beside it
        for _ in range(4):
            irlint.run(model, "pool", x, threads=1)

    ratios = []
    for _ in range(3):
        start = time.perf_counter()
        one()
        one()
        sequential = time.perf_counter() - start
        threads = [threading.Thread(target=one) for _ in range(2)]
        start = time.perf_counter()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        ratios.append((time.perf_counter() - start) / sequential)
    assert min(ratios) < 0.85, f"two threads / sequential: {ratios}"
