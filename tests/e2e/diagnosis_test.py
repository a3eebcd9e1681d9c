#!/usr/bin/python3
"""End-to-end checks of the mismatch diagnosis of `irlint run`, and of the convention hints of `check`.

    diagnosis_test.py --irlint BUILD/irlint --docs docs/

For every convention of the catalog a dump is planted, computed here by a small NumPy model of pooling that
can follow each convention, and `irlint run` must name exactly that convention, in the text report and in
the JSON report, with the description docs/diagnosis.md gives it. Random noise must be explained by none.
The map is checked in text, JSON and PNG (signature and IHDR dimensions, parsed by hand).
"""
import argparse
import itertools
import json
import os
import struct
import subprocess
import sys
import tempfile

import numpy as np

from irlint_process import run

FAILURES = []


def check(name, condition, detail=""):
    if not condition:
        FAILURES.append(f"{name}: {str(detail)[:600]}")


# ---- a NumPy model of pooling, with a switch per convention ---------------------------------------------

def pooled_length(n, k, s, pb, pe, rounding):
    span = n + pb + pe - k
    if rounding == "floor":
        return span // s + 1
    q = -(-span // s)
    if rounding == "ceil_torch" and q * s > n + pb - 1:
        return q
    return q + 1


def same_pads(n, k, s, upper):
    total = max(0, (-(-n // s) - 1) * s + k - n)
    small = total // 2
    return (small, total - small) if upper else (total - small, small)


def pool(x, kind, kernel, strides, pads_begin=None, pads_end=None, auto_pad="explicit", rounding="floor",
         exclude_pad=True, clipped_divisor=False, sum_in_f32=False, start=None, nan_wins=False, axis=0):
    """Values and indices of AvgPool ("avg") or MaxPool ("max") on a 3D or 4D input."""
    spatial = x.shape[2:]
    pads_begin = list(pads_begin or [0] * len(spatial))
    pads_end = list(pads_end or [0] * len(spatial))
    if auto_pad in ("same_upper", "same_lower"):
        for i, n in enumerate(spatial):
            pads_begin[i], pads_end[i] = same_pads(n, kernel[i], strides[i], auto_pad == "same_upper")
    outs = [pooled_length(n, kernel[i], strides[i], pads_begin[i], pads_end[i], rounding)
            for i, n in enumerate(spatial)]
    values = np.zeros(x.shape[:2] + tuple(outs), x.dtype)
    indices = np.zeros(values.shape, np.int64)
    plane = int(np.prod(spatial))
    modulus = int(np.prod(x.shape[axis:])) if axis else 0
    any_pad = any(pads_begin) or any(pads_end)
    for n, c in itertools.product(range(x.shape[0]), range(x.shape[1])):
        for o in itertools.product(*[range(m) for m in outs]):
            data, padded, taps = [], 0, 0
            for k in itertools.product(*[range(m) for m in kernel]):
                pos = [o[i] * strides[i] - pads_begin[i] + k[i] for i in range(len(spatial))]
                taps += 1
                padded += all(-pads_begin[i] <= p < spatial[i] + pads_end[i] for i, p in enumerate(pos))
                if all(0 <= p < spatial[i] for i, p in enumerate(pos)):
                    data.append((int(np.ravel_multi_index(pos, spatial)), x[(n, c) + tuple(pos)]))
            where = (n, c) + o
            if kind == "avg":
                if clipped_divisor:
                    divisor = padded
                else:
                    divisor = taps if not exclude_pad and any_pad else len(data)
                values[where] = average(x.dtype, [v for _, v in data], divisor, sum_in_f32)
            else:
                best, pick = np.finfo(x.dtype).min if start is None else start, 0
                for offset, v in data:
                    if (nan_wins and np.isnan(v)) or v > best:
                        best, pick = v, offset
                values[where] = best
                flat = (n * x.shape[1] + c) * plane + pick
                indices[where] = flat % modulus if modulus else flat
    return values, indices


def average(dtype, taps, divisor, sum_in_f32):
    if divisor == 0:
        return 0
    if dtype == np.float16 and not sum_in_f32:  # the running sum is an f16 value, as OpenVINO's reference
        total = np.float16(0)
        for v in taps:
            total = np.float16(np.float32(total) + np.float32(v))
        return np.float16(np.float32(total) / np.float32(np.float16(divisor)))
    if dtype == np.float16:
        return np.float16(np.float32(sum(np.float32(v) for v in taps)) / np.float32(divisor))
    return sum(float(v) for v in taps) / divisor


# ---- one-layer IR files ---------------------------------------------------------------------------------

def port(pid, precision, shape):
    dims = "".join(f"<dim>{d}</dim>" for d in shape)
    return f'<port id="{pid}" precision="{precision}">{dims}</port>'


def result_layer(lid, name, input_port):
    return f'<layer id="{lid}" name="{name}" type="Result" version="opset1"><input>{input_port}</input></layer>'


def edge(from_layer, from_port, to_layer, to_port):
    return f'<edge from-layer="{from_layer}" from-port="{from_port}" to-layer="{to_layer}" to-port="{to_port}"/>'


def write_ir(path, op, version, attrs, in_shape, out_shape, precision="FP32", element="f32", indices=False):
    data = " ".join(f'{k}="{v}"' for k, v in attrs.items())
    outputs = port(1, precision, out_shape) + (port(2, "I64", out_shape) if indices else "")
    results = result_layer(2, "out", port(0, precision, out_shape))
    edges = edge(0, 0, 1, 0) + edge(1, 1, 2, 0)
    if indices:
        results += result_layer(3, "idx", port(0, "I64", out_shape))
        edges += edge(1, 2, 3, 0)
    shape = ",".join(map(str, in_shape))
    with open(path, "w") as f:
        f.write(f"""<?xml version="1.0"?>
<net name="diagnosis" version="11"><layers>
<layer id="0" name="input" type="Parameter" version="opset1"><data shape="{shape}" element_type="{element}"/>
<output>{port(0, precision, in_shape)}</output></layer>
<layer id="1" name="pool" type="{op}" version="{version}"><data {data}/>
<input>{port(0, precision, in_shape)}</input><output>{outputs}</output></layer>
{results}</layers><edges>{edges}</edges></net>
""")


class Runner:
    def __init__(self, irlint, tmp):
        self.irlint, self.tmp, self.count = irlint, tmp, 0

    def path(self, name):
        return os.path.join(self.tmp, name)

    def save(self, array):
        self.count += 1
        name = self.path(f"t{self.count}.npy")
        np.save(name, array)
        return name

    def run(self, model, x, expects, *extra, fmt="json"):
        args = ["run", model, "--layer", "pool", "--input", self.save(x)]
        for e in expects:
            args += ["--expect", self.save(e)]
        code, out, err = run(self.irlint, args + list(extra) + ["--format", fmt], 120)
        if fmt != "json":
            return code, out, err
        try:
            return code, json.loads(out), err
        except json.JSONDecodeError as e:
            return code, {"error": f"{e}: {out[:300]} {err[:300]}"}, err


# ---- one case per convention ------------------------------------------------------------------------------

def rng(seed):
    return np.random.default_rng(seed)


def cases():
    """(convention, op, version, attrs, input, output index, dump, declared output shape, indices output)."""
    f32 = np.float32
    x6 = np.arange(1, 7, dtype=f32).reshape(1, 1, 6)
    x7 = np.arange(1, 8, dtype=f32).reshape(1, 1, 7)
    x4 = np.array([[[1, 2, 3, 4]]], f32)
    x44 = np.arange(1, 17, dtype=f32).reshape(1, 1, 4, 4)
    x34 = rng(1).standard_normal((1, 1, 3, 4)).astype(f32)
    x2344 = rng(2).standard_normal((2, 3, 4, 4)).astype(f32)
    half = np.array([2048] + [0.5] * 15, np.float16).reshape(1, 1, 1, 16)
    max_attrs = {"auto_pad": "explicit", "rounding_type": "floor", "index_element_type": "i64", "axis": "0"}
    avg_attrs = {"auto_pad": "explicit", "rounding_type": "floor", "exclude-pad": "true"}

    def attrs(base, **kw):
        a = dict(base)
        a.update({k.replace("exclude_pad", "exclude-pad"): v for k, v in kw.items()})
        return a

    yield ("rounding-floor", "MaxPool", "opset14",
           attrs(max_attrs, kernel="3", strides="2", pads_begin="0", pads_end="0", rounding_type="ceil"),
           x6, 0, pool(x6, "max", [3], [2])[0], [1, 1, 3], True)
    yield ("rounding-ceil", "AvgPool", "opset14",
           attrs(avg_attrs, kernel="2", strides="2", pads_begin="1", pads_end="1"),
           x4[:, :, :3], 0, pool(x4[:, :, :3], "avg", [2], [2], [1], [1], rounding="ceil")[0], [1, 1, 2], False)
    yield ("rounding-ceil-torch", "MaxPool", "opset8",
           attrs(max_attrs, kernel="2,3", strides="2,2", pads_begin="1,1", pads_end="1,1"),
           x34, 0, pool(x34, "max", [2, 3], [2, 2], [1, 1], [1, 1], rounding="ceil_torch")[0], [1, 1, 2, 2], True)
    yield ("exclude-pad-true", "AvgPool", "opset1",
           attrs(avg_attrs, kernel="3,3", strides="1,1", pads_begin="1,1", pads_end="1,1", exclude_pad="false"),
           x44, 0, pool(x44, "avg", [3, 3], [1, 1], [1, 1], [1, 1])[0], [1, 1, 4, 4], False)
    yield ("exclude-pad-false", "AvgPool", "opset1",
           attrs(avg_attrs, kernel="3", strides="2", pads_begin="1", pads_end="1", rounding_type="ceil"),
           x4, 0, pool(x4, "avg", [3], [2], [1], [1], rounding="ceil", exclude_pad=False)[0], [1, 1, 3], False)
    yield ("avg-divisor-clipped", "AvgPool", "opset1",
           attrs(avg_attrs, kernel="3", strides="2", pads_begin="1", pads_end="1", rounding_type="ceil",
                 exclude_pad="false"),
           x4, 0, pool(x4, "avg", [3], [2], [1], [1], rounding="ceil", clipped_divisor=True)[0], [1, 1, 3], False)
    yield ("auto-pad-same-upper", "MaxPool", "opset8", attrs(max_attrs, kernel="4", strides="2", auto_pad="same_lower"),
           x7, 0, pool(x7, "max", [4], [2], auto_pad="same_upper")[0], [1, 1, 4], True)
    yield ("auto-pad-same-lower", "MaxPool", "opset8", attrs(max_attrs, kernel="4", strides="2", auto_pad="same_upper"),
           x7, 0, pool(x7, "max", [4], [2], auto_pad="same_lower")[0], [1, 1, 4], True)
    yield ("pads-swapped", "MaxPool", "opset8", attrs(max_attrs, kernel="2", strides="2", pads_begin="0", pads_end="1"),
           x6, 0, pool(x6, "max", [2], [2], [1], [0])[0], [1, 1, 3], True)
    yield ("indices-whole-tensor", "MaxPool", "opset8",
           attrs(max_attrs, kernel="2,2", strides="2,2", pads_begin="0,0", pads_end="0,0", axis="2"),
           x2344, 1, pool(x2344, "max", [2, 2], [2, 2])[1], [2, 3, 2, 2], True)
    yield ("indices-per-plane", "MaxPool", "opset8",
           attrs(max_attrs, kernel="2,2", strides="2,2", pads_begin="0,0", pads_end="0,0"),
           x2344, 1, pool(x2344, "max", [2, 2], [2, 2], axis=2)[1], [2, 3, 2, 2], True)
    x1 = np.array([[[5]]], f32)
    yield ("max-pad-neg-inf", "MaxPool", "opset8",
           attrs(max_attrs, kernel="1", strides="2", pads_begin="0", pads_end="2", rounding_type="ceil"),
           x1, 0, pool(x1, "max", [1], [2], [0], [2], rounding="ceil", start=-np.inf)[0], [1, 1, 2], True)
    xn = np.array([[[1, np.nan, 3, 2]]], f32)
    yield ("max-nan-propagates", "MaxPool", "opset8",
           attrs(max_attrs, kernel="2", strides="2", pads_begin="0", pads_end="0"),
           xn, 0, pool(xn, "max", [2], [2], nan_wins=True)[0], [1, 1, 2], True)
    yield ("avg-f32-accumulation", "AvgPool", "opset1",
           attrs(avg_attrs, kernel="1,16", strides="1,1", pads_begin="0,0", pads_end="0,0"),
           half, 0, pool(half, "avg", [1, 16], [1, 1], sum_in_f32=True)[0], [1, 1, 1, 1], False)


def documented(docs):
    """Each id of docs/diagnosis.md's "### id" headings, with the description line under it."""
    with open(os.path.join(docs, "diagnosis.md")) as f:
        lines = f.read().splitlines()
    found = {}
    for i, line in enumerate(lines):
        if line.startswith("### ") and i + 2 < len(lines) and lines[i + 2].startswith("> "):
            found[line[4:]] = lines[i + 2][2:]
    return found


def test_each_convention(t, docs):
    catalog = documented(docs)
    planted = set()
    for convention, op, version, attrs, x, index, dump, out_shape, indices in cases():
        planted.add(convention)
        model = t.path(f"{convention}.xml")
        precision, element = ("FP16", "f16") if x.dtype == np.float16 else ("FP32", "f32")
        write_ir(model, op, version, attrs, x.shape, out_shape, precision, element, indices)
        expects = [dump] if index == 0 else [irlint_values(t, model, x), dump]
        code, data, _ = t.run(model, x, expects)
        check(f"{convention}: exit", code == 1, f"exit {code} {data}")
        outputs = data.get("outputs", [])
        got = outputs[index].get("explanations") if len(outputs) > index else None
        check(f"{convention}: JSON explanation", got and [e["convention"] for e in got] == [convention], got)
        if got:
            check(f"{convention}: documented", catalog.get(convention) == got[0]["description"],
                  f"docs say {catalog.get(convention)!r}, JSON {got[0]['description']!r}")
        code, text, _ = t.run(model, x, expects, fmt="text")
        want = (f"why: the expected data matches irlint under this convention:\n"
                f"      {convention}: {catalog.get(convention)}\n")
        check(f"{convention}: text explanation", want in text, text)
    check("a case per documented convention", planted == set(catalog), sorted(set(catalog) ^ planted))


def irlint_values(t, model, x):
    """irlint's own values output, so that only the indices are compared against the planted dump."""
    saved = t.path("values_of_irlint.npy")
    run(t.irlint, ["run", model, "--layer", "pool", "--input", t.save(x), "--save", saved], 60)
    return np.load(saved)


def test_noise(t):
    x = rng(3).standard_normal((1, 2, 6, 6)).astype(np.float32)
    model = t.path("noise.xml")
    write_ir(model, "AvgPool", "opset14", {"auto_pad": "explicit", "rounding_type": "ceil", "exclude-pad": "false",
                                           "kernel": "3,3", "strides": "2,2", "pads_begin": "1,1", "pads_end": "1,1"},
             x.shape, [1, 2, 4, 4])
    code, data, _ = t.run(model, x, [rng(4).standard_normal((1, 2, 4, 4)).astype(np.float32)])
    out = data.get("outputs", [{}])[0]
    check("noise: mismatch", code == 1 and out.get("mismatches", 0) > 0, data)
    check("noise: no explanation", out.get("explanations") == [], out.get("explanations"))
    code, text, _ = t.run(model, x, [rng(4).standard_normal((1, 2, 4, 4)).astype(np.float32)], fmt="text")
    check("noise: text", "why: none of the known conventions explains the difference" in text, text)


def png_size(path):
    with open(path, "rb") as f:
        head = f.read(24)
    if head[:8] != b"\x89PNG\r\n\x1a\n" or head[12:16] != b"IHDR":
        return None
    return struct.unpack(">II", head[16:24])


def test_map(t):
    """PyTorch's avg_pool2d(ceil_mode=True, count_include_pad=True) on 112x112: the last row and column differ."""
    x = rng(5).standard_normal((1, 64, 112, 112)).astype(np.float32)
    model = t.path("map.xml")
    write_ir(model, "AvgPool", "opset1", {"auto_pad": "explicit", "rounding_type": "ceil", "exclude-pad": "false",
                                          "kernel": "3,3", "strides": "2,2", "pads_begin": "1,1", "pads_end": "1,1"},
             x.shape, [1, 64, 57, 57])
    expected = torch_avg_pool(x)
    png = t.path("map.png")
    code, data, _ = t.run(model, x, [expected], "--map-png", png)
    out = data.get("outputs", [{}])[0]
    m = out.get("map") or {}
    check("map: exit", code == 1, data)
    check("map: count", out.get("mismatches") == 64 * 113 and m.get("mismatches") == 64 * 113, out.get("mismatches"))
    # each element in one band (a corner in its row), so the bands add up to the mismatches
    check("map: bands", m.get("bands") == {"first_row": 64, "last_row": 64 * 57, "first_column": 0,
                                           "last_column": 64 * 55, "first_plane": 0, "last_plane": 0, "interior": 0},
          m.get("bands"))
    cells = np.array(m.get("cells", []))
    check("map: cells", cells.shape == (57, 57) and (cells[:56, :56] == 0).all() and (cells[56, :] == 64).all()
          and (cells[:, 56] == 64).all(), cells.shape)
    check("map: channels", m.get("channels") == [113] * 64, m.get("channels"))
    check("map: plane", m.get("plane") == [57, 57] and m.get("block") == [1, 1]
          and m.get("elements_per_position") == 64, m)
    check("map: PNG", png_size(png) == (57 * 4, 57 * 4), png_size(png) if os.path.exists(png) else "no file")
    check("map: no temporary files", not [f for f in os.listdir(t.tmp) if f.endswith(".tmp")], os.listdir(t.tmp))

    code, text, _ = t.run(model, x, [expected], fmt="text")
    check("map: text bands", "where: all 7232 mismatches on the border: first row 64, last row 3648, "
                             "last column 3520 (a corner counts once, in its row)\n" in text, text)
    check("map: text corner", "│" + " " * 56 + "█│\n" in text and "56 │" + "█" * 57 + "│\n" in text, text)
    check("map: text channels", "channels: 64 of 64 with mismatches, 113 each" in text, text)
    check("map: no color into a pipe", "\x1b[" not in text, text)
    env_text = run_env(t, ["run", model, "--layer", "pool", "--input", t.save(x), "--expect", t.save(expected)],
                       {"CLICOLOR_FORCE": "1"})
    check("map: color when forced", "\x1b[" in env_text and "█" in env_text, env_text[:300])

    code, data, _ = t.run(model, x, [pool(x[:, :1, :8, :8], "avg", [3, 3], [2, 2])[0]])
    check("shape mismatch: no map", data.get("outputs", [{}])[0].get("map") is None, data)

    os.remove(png)
    same = t.path("same.npy")
    run(t.irlint, ["run", model, "--layer", "pool", "--input", t.save(x), "--save", same], 60)
    code, data, _ = t.run(model, x, [np.load(same)], "--map-png", png)
    out = data.get("outputs", [{}])[0]
    check("match: zero map", code == 0 and out.get("map", {}).get("mismatches") == 0 and out.get("explanations") == [],
          out.get("map", {}).get("bands"))
    check("match: no PNG written", not os.path.exists(png))
    code, _, err = t.run(model, x, [expected], "--map-png", os.path.join(t.tmp, "missing", "m.png"), fmt="text")
    check("unwritable PNG", code == 2 and "m.png" in err, f"exit {code} {err}")

    dumps = t.path("dumps")
    os.makedirs(dumps)
    np.save(os.path.join(dumps, "1.in0.npy"), x)
    np.save(os.path.join(dumps, "1.out0.npy"), expected)
    code, out, err = run(t.irlint, ["run", model, "--data", dumps, "--map-png", png, "--format", "json"], 120)
    runs = json.loads(out or "{}").get("runs", [])
    explained = [e["convention"] for r in runs for e in r["outputs"][0]["explanations"]]
    check("--data: explanations", code == 1 and explained == ["avg-divisor-clipped"], f"exit {code} {explained} {err}")
    check("--data: PNG", png_size(png) == (57 * 4, 57 * 4), png_size(png) if os.path.exists(png) else "no file")


def test_huge_windows(t):
    """Windows far larger than the data: the diagnosis finishes and explains nothing it cannot compute."""
    x = np.ones((1, 1, 300, 300), np.float32)
    model = t.path("huge.xml")
    write_ir(model, "AvgPool", "opset1", {"auto_pad": "explicit", "rounding_type": "floor", "exclude-pad": "false",
                                          "kernel": "300,300", "strides": "1,1", "pads_begin": "299,299",
                                          "pads_end": "299,299"}, x.shape, [1, 1, 599, 599])
    code, data, _ = t.run(model, x, [np.zeros((1, 1, 599, 599), np.float32)])
    out = data.get("outputs", [{}])[0]
    check("huge windows: finishes", code == 1 and out.get("explanations") == [], (code, out.get("explanations")))


def run_env(t, args, env):
    proc = subprocess.run([t.irlint] + args, capture_output=True, text=True, env={**os.environ, **env}, timeout=60)
    return proc.stdout


def torch_avg_pool(x, k=3, s=2, p=1):
    n, c, h, w = x.shape
    oh, ow = pooled_length(h, k, s, p, p, "ceil_torch"), pooled_length(w, k, s, p, p, "ceil_torch")
    y = np.zeros((n, c, oh, ow), np.float32)
    for i, j in itertools.product(range(oh), range(ow)):
        hs, ws = i * s - p, j * s - p
        he, we = min(hs + k, h + p), min(ws + k, w + p)
        window = x[:, :, max(hs, 0):min(he, h), max(ws, 0):min(we, w)]
        y[:, :, i, j] = window.sum(axis=(2, 3)) / ((he - hs) * (we - ws))
    return y


def test_check_hints(t):
    model = t.path("hint_ceil_torch.xml")
    write_ir(model, "MaxPool", "opset8", {"auto_pad": "explicit", "rounding_type": "floor", "kernel": "2,3",
                                          "strides": "2,2", "pads_begin": "1,1", "pads_end": "1,1"},
             [1, 1, 3, 4], [1, 1, 2, 3], indices=True)
    code, out, _ = run(t.irlint, ["check", model], 60)
    check("check: ceil_torch hint", code == 1 and "rounding_type=ceil_torch (PyTorch's ceil_mode=True) would give the "
          "declared dims; it needs MaxPool-14 (opset14 and later); reaches output 'out': [1,1,2,3] becomes [1,1,2,2] "
          "through 1 layer [output-shape-mismatch]" in out, out)
    model = t.path("hint_same_upper.xml")
    write_ir(model, "AvgPool", "opset1", {"auto_pad": "explicit", "rounding_type": "floor", "exclude-pad": "true",
                                          "kernel": "3", "strides": "2", "pads_begin": "0", "pads_end": "0"},
             [1, 1, 7], [1, 1, 4])
    code, out, _ = run(t.irlint, ["check", model], 60)
    check("check: same_upper hint", code == 1 and "auto_pad=same_upper gives the declared dims (TensorFlow's SAME "
          "padding, ONNX's SAME_UPPER); reaches output 'out': [1,1,4] becomes [1,1,3] through 1 layer "
          "[output-shape-mismatch]" in out, out)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--irlint", required=True)
    parser.add_argument("--docs", required=True)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        t = Runner(args.irlint, tmp)
        tests = [lambda: test_each_convention(t, args.docs), lambda: test_noise(t), lambda: test_map(t),
                 lambda: test_huge_windows(t), lambda: test_check_hints(t)]
        for i, test in enumerate(tests):
            try:
                test()
            except Exception as e:  # a crash of one test is a failure, the others still run
                check(f"test {i}", False, repr(e))
    for f in FAILURES:
        print("FAIL", f)
    print(f"{len(tests)} groups, {len(FAILURES)} failures")
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
