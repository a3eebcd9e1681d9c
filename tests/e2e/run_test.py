#!/usr/bin/python3
"""End-to-end checks of `irlint run`: data in, comparison out, exit codes, JSON per the contract.

    run_test.py --irlint BUILD/irlint --testdata testdata/

The expected tensors are computed here with small NumPy loops of OpenVINO's reference semantics.
"""
import argparse
import json
import os
import sys
import tempfile

import numpy as np

from irlint_process import run

FAILURES = []


def check(name, condition, detail=""):
    if not condition:
        FAILURES.append(f"{name}: {detail}")


def max_pool_2d(x, k, s, pb):
    """Values and whole-tensor flat indices; taps in the padding are skipped, the first maximum wins."""
    n, c, h, w = x.shape
    oh, ow = (h + 2 * pb - k) // s + 1, (w + 2 * pb - k) // s + 1
    values = np.zeros((n, c, oh, ow), x.dtype)
    indices = np.zeros((n, c, oh, ow), np.int64)
    for b in range(n):
        for ch in range(c):
            for i in range(oh):
                for j in range(ow):
                    best, at = np.finfo(x.dtype).min, 0
                    for di in range(k):
                        for dj in range(k):
                            r, q = i * s - pb + di, j * s - pb + dj
                            if 0 <= r < h and 0 <= q < w and x[b, ch, r, q] > best:
                                best, at = x[b, ch, r, q], r * w + q
                    values[b, ch, i, j] = best
                    indices[b, ch, i, j] = (b * c + ch) * h * w + at
    return values, indices


class Case:
    def __init__(self, irlint, tmp, testdata):
        self.irlint, self.tmp, self.testdata = irlint, tmp, testdata

    def path(self, name):
        return os.path.join(self.tmp, name)

    def save(self, name, array):
        np.save(self.path(name), array)
        return self.path(name)

    def irlint_run(self, model, *args, fmt="json"):
        code, out, err = run(self.irlint, ["run", os.path.join(self.testdata, model), *args, "--format", fmt], 60)
        data = None
        if fmt == "json" and out.strip():
            try:
                data = json.loads(out)
            except json.JSONDecodeError as e:
                check(f"json {args}", False, f"{e}: {out[:200]}")
        return code, data, out, err


def test_maxpool_values_and_indices(t):
    model = "spec/maxpool_rules_example1.xml"  # kernel 2, stride 1, pads 1/1 on a 1x1x3x3 input
    x = np.array([[[[1, 5, 2], [7, 3, 9], [4, 8, 6]]]], np.float32)
    values, indices = max_pool_2d(x, 2, 1, 1)
    args = ["--layer", "pool", "--input", t.save("x.npy", x)]
    code, data, _, _ = t.irlint_run(model, *args, "--expect", t.save("v.npy", values), "--expect", t.save("i.npy", indices))
    check("maxpool match exit", code == 0, f"exit {code}")
    check("maxpool match status", data and data["status"] == "ok", data)
    out = data["outputs"] if data else []
    check("maxpool outputs", len(out) == 2 and out[0]["dtype"] == "f32" and out[1]["dtype"] == "i64", out)
    check("maxpool layer", data and data["layer"] == {"id": "1", "name": "pool", "type": "MaxPool", "version": "opset8"},
          data and data["layer"])
    check("maxpool totals", all(o["total"] == 16 and o["mismatches"] == 0 and o["compared"] for o in out), out)

    wrong = values.copy()
    wrong[0, 0, 1, 3] += 0.5
    code, data, _, _ = t.irlint_run(model, *args, "--expect", t.save("w.npy", wrong))
    check("maxpool mismatch exit", code == 1, f"exit {code}")
    first = data["outputs"][0]["first_mismatch"] if data else None
    check("maxpool first mismatch", first == {"index": [0, 0, 1, 3], "expected": float(wrong[0, 0, 1, 3]),
                                              "actual": float(values[0, 0, 1, 3])}, first)
    check("maxpool mismatch count", data and data["outputs"][0]["mismatches"] == 1, data)
    check("maxpool max abs err", data and abs(data["outputs"][0]["max_abs_err"] - 0.5) < 1e-12, data)

    code, data, _, _ = t.irlint_run(model, *args, "--expect", t.save("w.npy", wrong), "--atol", "0.6")
    check("atol widens the tolerance", code == 0 and data["status"] == "ok", data)

    code, data, text, _ = t.irlint_run(model, *args, "--expect", t.save("w.npy", wrong), fmt="text")
    check("text names the mismatch", code == 1 and "first mismatch at [0,0,1,3]: expected" in text, text)
    check("text histogram", "abs err histogram:" in text, text)


def test_save_and_layouts(t):
    model = "spec/maxpool_rules_example1.xml"
    x = np.arange(9, dtype=np.float32).reshape(1, 1, 3, 3)
    values, indices = max_pool_2d(x, 2, 1, 1)
    saved_v, saved_i = t.path("saved_v.npy"), t.path("saved_i.npy")
    code, data, _, _ = t.irlint_run(model, "--layer", "1", "--input", t.save("x.npy", x), "--save", saved_v,
                                    "--save", saved_i)
    check("save exit", code == 0, f"exit {code}")
    check("saved values", os.path.exists(saved_v) and np.array_equal(np.load(saved_v), values))
    check("saved indices", os.path.exists(saved_i) and np.array_equal(np.load(saved_i), indices))
    check("no temporary files", not [f for f in os.listdir(t.tmp) if f.endswith(".tmp")], os.listdir(t.tmp))
    check("uncompared output", data and data["outputs"][0]["compared"] is False, data)

    for name, variant in [("big-endian", x.astype(">f4")), ("fortran", np.asfortranarray(x.reshape(1, 1, 3, 3)))]:
        code, data, _, _ = t.irlint_run(model, "--layer", "pool", "--input", t.save(f"{name}.npy", variant),
                                        "--expect", t.save("v.npy", values))
        check(f"{name} input", code == 0 and data["status"] == "ok", data)
    xt = np.ascontiguousarray(np.arange(9, dtype=np.float32).reshape(3, 3).T).reshape(1, 1, 3, 3)
    code, data, _, _ = t.irlint_run(model, "--layer", "pool", "--input", t.save("ft.npy", np.asfortranarray(xt)),
                                    "--expect", t.save("vt.npy", max_pool_2d(xt, 2, 1, 1)[0]))
    check("fortran order transposed data", code == 0 and data["status"] == "ok", data)


def test_input_checks(t):
    model = "spec/maxpool_rules_example1.xml"
    code, data, _, _ = t.irlint_run(model, "--layer", "pool", "--input", t.save("d.npy", np.zeros((1, 1, 3, 3))))
    check("f64 into an f32 port", code == 1 and data["status"] == "error" and "f64" in data["error"], data)
    code, data, _, _ = t.irlint_run(model, "--layer", "pool", "--input", t.save("s.npy", np.zeros((1, 1, 4, 3), np.float32)))
    check("wrong dims", code == 1 and "dim 2 is 4" in data["error"], data)
    code, data, _, _ = t.irlint_run(model, "--layer", "pool", "--input", t.save("r.npy", np.zeros((1, 3, 3), np.float32)))
    check("wrong rank", code == 1 and "rank 3" in data["error"], data)
    x = np.zeros((1, 1, 3, 3), np.float32)
    code, data, _, _ = t.irlint_run(model, "--layer", "pool", "--input", t.save("x.npy", x),
                                    "--expect", t.save("e.npy", np.zeros((1, 1, 3, 3), np.float32)))
    check("expected shape differs", code == 1 and data["status"] == "mismatch", data)
    check("shape problem named", data and "shape" in data["outputs"][0].get("problem", ""), data)
    code, _, _, err = t.irlint_run(model, "--layer", "nope", "--input", t.save("x.npy", x))
    check("unknown layer", code == 2 and "no layer with id or name 'nope'" in err, err)
    code, _, _, err = t.irlint_run(model, "--layer", "input", "--input", t.save("x.npy", x))
    check("not a pooling layer", code == 1 and "Parameter" in err, err)
    bad = t.path("bad.npy")
    with open(bad, "wb") as f:
        f.write(b"\x93NUMPX\x01\x00")
    code, data, _, _ = t.irlint_run(model, "--layer", "pool", "--input", bad)
    check("bad magic", code == 1 and "magic" in data["error"], data)
    code, _, _, err = t.irlint_run(model, "--layer", "pool")
    check("no input", code == 2, err)
    code, data, _, _ = t.irlint_run(model, "--layer", "pool", "--input", t.save("x.npy", x), "--max-memory", "10")
    check("memory budget", code == 1 and "memory budget" in data["error"], data)


def adaptive_bins(n, out):
    return [(i * n // out, -(-(i + 1) * n // out)) for i in range(out)]


def adaptive_avg_2d(x, oh, ow):
    rows, cols = adaptive_bins(x.shape[2], oh), adaptive_bins(x.shape[3], ow)
    return np.stack([np.stack([x[:, :, a:b, c:d].mean(axis=(2, 3)) for c, d in cols], axis=-1)
                     for a, b in rows], axis=-2)


def test_adaptive(t):
    model = "valid/adaptive_avgpool8.xml"  # 1x256x13x17 input, output_size read from the .bin
    x = np.random.default_rng(3).standard_normal((1, 256, 13, 17)).astype(np.float32)
    saved = t.path("a_out.npy")
    code, data, _, _ = t.irlint_run(model, "--layer", "pool", "--input", t.save("a.npy", x), "--save", saved)
    check("adaptive from the .bin", code == 0 and data["status"] == "not-compared", data)
    if os.path.exists(saved):
        out = np.load(saved)
        want = adaptive_avg_2d(x, out.shape[2], out.shape[3])
        check("adaptive values", np.allclose(out, want, atol=1e-6, rtol=1e-5), np.abs(out - want).max())
    code, data, _, _ = t.irlint_run(model, "--layer", "pool", "--input", t.save("a.npy", x),
                                    "--input", t.save("os.npy", np.array([4, 5], np.int64)), "--save", t.path("a45.npy"),
                                    "--expect", t.save("a45e.npy", adaptive_avg_2d(x, 4, 5).astype(np.float32)))
    check("adaptive output_size from --input", code == 0 and np.load(t.path("a45.npy")).shape == (1, 256, 4, 5), data)


def to_bf16(x):
    """Rounds f32 values to bf16 (nearest, ties to even), kept as f32."""
    bits = x.astype(np.float32).view(np.uint32).astype(np.uint64)
    rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000
    return rounded.astype(np.uint32).view(np.float32)


def test_bf16_and_f16(t):
    with open(os.path.join(t.testdata, "spec/maxpool_rules_example1.xml")) as f:
        xml = f.read()
    x = np.array([[[[1.001, 5.002, 2.003], [7.004, 3.005, 9.006], [4.007, 8.008, 6.009]]]], np.float32)
    for precision, etype, data_in, dtype in [("BF16", "bf16", x, np.float32), ("FP16", "f16", x.astype(np.float16), np.float16)]:
        model = os.path.join(t.tmp, f"pool_{etype}.xml")
        with open(model, "w") as f:
            f.write(xml.replace('precision="FP32"', f'precision="{precision}"').replace('element_type="f32"', f'element_type="{etype}"'))
        rounded = to_bf16(x) if etype == "bf16" else x.astype(np.float16)
        values, _ = max_pool_2d(rounded, 2, 1, 1)
        saved = t.path(f"{etype}_out.npy")
        code, data, _, _ = t.irlint_run(model, "--layer", "pool", "--input", t.save(f"{etype}.npy", data_in),
                                        "--expect", t.save(f"{etype}_e.npy", values.astype(dtype)), "--save", saved)
        check(f"{etype} run", code == 0 and data["status"] == "ok", data)
        check(f"{etype} dtype", data and data["outputs"][0]["dtype"] == etype, data)
        check(f"{etype} saved values", os.path.exists(saved) and np.array_equal(np.load(saved), values.astype(dtype)))


def test_data_dir(t):
    model = "spec/maxpool_rules_example1.xml"
    d = os.path.join(t.tmp, "dumps")
    os.makedirs(d, exist_ok=True)
    x = np.arange(9, dtype=np.float32).reshape(1, 1, 3, 3)
    values, indices = max_pool_2d(x, 2, 1, 1)
    np.save(os.path.join(d, "1.in0.npy"), x)
    np.save(os.path.join(d, "1.out0.npy"), values)
    np.save(os.path.join(d, "1.out1.npy"), indices + 1)
    code, out, err = run(t.irlint, ["run", os.path.join(t.testdata, model), "--data", d, "--format", "json"], 60)
    data = json.loads(out) if code in (0, 1) and out.strip() else {}
    check("data dir exit", code == 1, f"exit {code} {err}")
    check("data dir summary",
          data.get("summary") == {"layers": 1, "ok": 0, "mismatch": 1, "error": 0, "not_compared": 0}, data)
    code, out, _ = run(t.irlint, ["run", os.path.join(t.testdata, model), "--data", d], 60)
    check("data dir table", "1 layer run: 0 ok, 1 mismatch, 0 error, 0 not compared" in out, out)
    for name in ("1.out0.npy", "1.out1.npy"):
        os.remove(os.path.join(d, name))
    code, out, err = run(t.irlint, ["run", os.path.join(t.testdata, model), "--data", d, "--format", "json"], 60)
    data = json.loads(out) if out.strip() else {}
    check("data dir without dumps of outputs: exit", code == 0, f"exit {code} {err}")
    check("data dir without dumps of outputs: summary",
          data.get("summary") == {"layers": 1, "ok": 0, "mismatch": 0, "error": 0, "not_compared": 1}, data)
    code, _, err = run(t.irlint, ["run", os.path.join(t.testdata, model), "--data", t.tmp + "/none"], 60)
    check("data dir missing", code == 2, err)


def test_data_dir_outputs(t):
    """--data looks up an expected file for each output the layer has; a missing one is not compared."""
    # MaxPool-8 whose indices feed a Result: values and indices are the layer's outputs.
    model = "valid/maxpool8_default_attrs.xml"
    d = os.path.join(t.tmp, "dumps8")
    os.makedirs(d)
    x = np.random.default_rng(8).standard_normal((1, 3, 8, 8)).astype(np.float32)
    values, indices = max_pool_2d(x, 3, 1, 0)
    np.save(os.path.join(d, "1.in0.npy"), x)
    np.save(os.path.join(d, "1.out0.npy"), values)
    code, out, err = run(t.irlint, ["run", os.path.join(t.testdata, model), "--data", d, "--format", "json"], 60)
    data = json.loads(out) if code in (0, 1) and out.strip() else {}
    runs = data.get("runs", [{}])
    check("data dir: indices file missing", code == 0 and runs[0].get("status") == "ok", f"exit {code} {err} {runs}")
    check("data dir: indices not compared", [o["compared"] for o in runs[0].get("outputs", [])] == [True, False], runs)
    np.save(os.path.join(d, "1.out1.npy"), indices)
    code, out, err = run(t.irlint, ["run", os.path.join(t.testdata, model), "--data", d, "--format", "json"], 60)
    runs = json.loads(out)["runs"] if code in (0, 1) and out.strip() else [{}]
    check("data dir: indices compared", code == 0 and [o["compared"] for o in runs[0]["outputs"]] == [True, True],
          f"exit {code} {err} {runs}")
    # MaxPool-1 has values only: a stray .out1.npy is no output of the layer and is not looked up.
    model = "valid/maxpool1_v10.xml"
    d = os.path.join(t.tmp, "dumps1")
    os.makedirs(d)
    x = np.random.default_rng(1).standard_normal((1, 96, 55, 55)).astype(np.float32)
    windows = np.lib.stride_tricks.sliding_window_view(x, (3, 3), axis=(2, 3))[:, :, ::2, ::2]
    np.save(os.path.join(d, "1.in0.npy"), x)
    np.save(os.path.join(d, "1.out0.npy"), windows.max(axis=(4, 5)))
    np.save(os.path.join(d, "1.out1.npy"), np.zeros((1, 96, 27, 27), np.int64))
    code, out, err = run(t.irlint, ["run", os.path.join(t.testdata, model), "--data", d, "--format", "json"], 60)
    runs = json.loads(out)["runs"] if code in (0, 1) and out.strip() else [{}]
    check("data dir: one output", code == 0 and runs[0]["status"] == "ok" and len(runs[0]["outputs"]) == 1,
          f"exit {code} {err} {runs}")


def test_truthful_status(t):
    """Nothing compared is `not-compared` (exit 0); a declared output that differs from the computed one is a
    warning of the run; an IR v10 input port without precision takes its producer's type."""
    x = np.random.default_rng(4).standard_normal((1, 3, 32, 32)).astype(np.float32)
    code, data, _, _ = t.irlint_run("spec/maxpool_rules_example1.xml", "--layer", "pool", "--input",
                                    t.save("nc.npy", np.zeros((1, 1, 3, 3), np.float32)))
    check("not compared: exit", code == 0, f"exit {code}")
    check("not compared: status", data and data["status"] == "not-compared" and data["warnings"] == [], data)
    code, _, out, _ = t.irlint_run("spec/maxpool_rules_example1.xml", "--layer", "pool", "--input",
                                   t.path("nc.npy"), fmt="text")
    check("not compared: text", code == 0 and out.endswith("result: not-compared\n"), out)

    # spec/avgpool1_example1.xml declares [1,3,32,32]; OpenVINO infers [1,3,16,16]
    code, data, _, _ = t.irlint_run("spec/avgpool1_example1.xml", "--layer", "pool", "--input", t.save("a.npy", x))
    warning = "output 0 is declared [1,3,32,32], but the layer computes [1,3,16,16] from this input"
    check("declared output: json", code == 0 and data and data["warnings"] == [warning], data and data.get("warnings"))
    code, _, out, _ = t.irlint_run("spec/avgpool1_example1.xml", "--layer", "pool", "--input", t.path("a.npy"),
                                   fmt="text")
    check("declared output: text", "  warning: " + warning + "\n" in out, out)

    # valid/maxpool1_v10.xml: the pool's input port has no precision; the Parameter's element_type is f32
    v10 = np.zeros((1, 96, 55, 55), np.float64)
    saved = t.path("v10_out.npy")
    code, data, _, _ = t.irlint_run("valid/maxpool1_v10.xml", "--layer", "pool", "--input", t.save("v10.npy", v10),
                                    "--save", saved)
    check("v10 f64 input: exit", code == 1, f"exit {code}")
    check("v10 f64 input: refused", data and data["status"] == "error"
          and "holds f64 data, the layer takes f32: its input port declares no precision, its producer gives f32"
          in data.get("error", ""), data)
    check("v10 f64 input: nothing saved", not os.path.exists(saved), saved)
    code, data, _, _ = t.irlint_run("valid/maxpool1_v10.xml", "--layer", "pool", "--input",
                                    t.save("v10f.npy", v10.astype(np.float32)), "--save", saved)
    check("v10 f32 input", code == 0 and data["outputs"][0]["dtype"] == "f32" and np.load(saved).dtype == np.float32,
          data)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--irlint", required=True)
    parser.add_argument("--testdata", required=True)
    args = parser.parse_args()
    tests = [test_maxpool_values_and_indices, test_save_and_layouts, test_input_checks, test_adaptive, test_bf16_and_f16,
             test_data_dir, test_data_dir_outputs, test_truthful_status]
    with tempfile.TemporaryDirectory() as tmp:
        t = Case(args.irlint, tmp, args.testdata)
        for test in tests:
            try:
                test(t)
            except Exception as e:  # a crash of one test is a failure, the others still run
                check(test.__name__, False, repr(e))
    for f in FAILURES:
        print("FAIL", f)
    print(f"{len(tests)} groups, {len(FAILURES)} failures")
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
