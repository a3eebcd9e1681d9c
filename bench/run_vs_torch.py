#!/usr/bin/python3
"""`irlint run` as a whole process against PyTorch's pooling in a warm Python process, on the kernel cases.

    run_vs_torch.py IRLINT DIR [--runs N] [--threads T]

For each case of kernel_cases.py: a one-layer IR (Parameter, the pooling layer, Results), a random input
and the expected outputs (irlint's own, saved once) are written to DIR. Then, alternating, RUNS times each:
- irlint: `IRLINT run model.xml --layer 1 --input x.npy --expect y.npy [--expect i.npy] --threads T`, the
  whole process timed from here (spawn to exit);
- /bin/true, spawned the same way: what starting any process costs;
- PyTorch warm, in this process: np.load of the input and the expected values, the pooling
  (torch.set_num_threads(T)), np.allclose with the contract's tolerance;
- one read of the input and expected files (page cache warm), the least any tool must do.
irlint's kernel time comes from its JSON report ("kernel_ms"). Medians in ms; ratio = PyTorch / irlint.
"""
import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import time

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import kernel_cases  # noqa: E402

ISSUE5_CASES = 7  # the first seven cases are issue 5's table
PRECISION = {np.float32: ("FP32", "f32"), np.float16: ("FP16", "f16"), np.int8: ("I8", "i8")}
TOLERANCE = {np.float32: (1e-6, 1e-5), np.float16: (1e-3, 1e-3), np.int8: (0, 0)}


def port(pid, shape, precision):
    dims = "".join(f"<dim>{d}</dim>" for d in shape)
    return f'<port id="{pid}" precision="{precision}">{dims}</port>'


def shape_of(irlint, case):
    op, version = case["op"].rsplit("-", 1)
    cmd = [irlint, "shape", "--op", op, "--opset", version, "--input", ",".join(map(str, case["shape"])),
           "--format", "json"]
    for k, v in case["attrs"].items():
        cmd += ["--attr", f"{k}={v}"]
    if case.get("output_size"):
        cmd += ["--output-size", ",".join(map(str, case["output_size"]))]
    return json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)["outputs"]


def write_model(directory, irlint, case):
    """A Parameter, the pooling layer (id 1), a Const output_size for the adaptive pools, one Result per output."""
    op, version = case["op"].rsplit("-", 1)
    precision, element = PRECISION[case["dtype"]]
    outputs = shape_of(irlint, case)
    layers = [f'<layer id="0" name="x" type="Parameter" version="opset1"><data shape="{",".join(map(str, case["shape"]))}" '
              f'element_type="{element}"/><output>{port(0, case["shape"], precision)}</output></layer>']
    edges = ['<edge from-layer="0" from-port="0" to-layer="1" to-port="0"/>']
    inputs = port(0, case["shape"], precision)
    if case.get("output_size"):
        sizes = np.array(case["output_size"], np.int64)
        sizes.tofile(os.path.join(directory, case["name"] + ".bin"))
        layers.append(f'<layer id="2" name="output_size" type="Const" version="opset1"><data element_type="i64" '
                      f'shape="{len(sizes)}" offset="0" size="{sizes.nbytes}"/><output>{port(0, [len(sizes)], "I64")}'
                      f'</output></layer>')
        edges.append('<edge from-layer="2" from-port="0" to-layer="1" to-port="1"/>')
        inputs += port(1, [len(sizes)], "I64")
    attrs = " ".join(f'{k}="{v}"' for k, v in case["attrs"].items())
    out_ports = "".join(port(1 + i, shape, precision if i == 0 else "I64") for i, shape in enumerate(outputs))
    layers.append(f'<layer id="1" name="pool" type="{op}" version="opset{version}"><data {attrs}/>'
                  f'<input>{inputs}</input><output>{out_ports}</output></layer>')
    for i, shape in enumerate(outputs):
        layers.append(f'<layer id="{3 + i}" name="out{i}" type="Result" version="opset1"><input>'
                      f'{port(0, shape, precision if i == 0 else "I64")}</input></layer>')
        edges.append(f'<edge from-layer="1" from-port="{1 + i}" to-layer="{3 + i}" to-port="0"/>')
    xml = (f'<?xml version="1.0"?>\n<net name="{case["name"]}" version="11"><layers>{"".join(layers)}</layers>'
           f'<edges>{"".join(edges)}</edges></net>\n')
    path = os.path.join(directory, case["name"] + ".xml")
    with open(path, "w") as f:
        f.write(xml)
    return path, len(outputs)


def spawn_ms(cmd):
    start = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, close_fds=False)
    return (time.perf_counter() - start) * 1000


def read_ms(paths):
    start = time.perf_counter()
    for p in paths:
        with open(p, "rb", buffering=0) as f:
            while f.read(1 << 24):
                pass
    return (time.perf_counter() - start) * 1000


def torch_job(case, x_path, y_path):
    atol, rtol = TOLERANCE[case["dtype"]]

    def job():
        x = np.load(x_path)
        expected = np.load(y_path)
        if x.dtype != np.float32:  # PyTorch has no CPU pooling for f16 or i8: it runs on f32
            x, expected = x.astype(np.float32), expected.astype(np.float32)
        y = case["torch"](torch.from_numpy(x))
        y = y[0] if isinstance(y, tuple) else y
        return np.allclose(y.numpy(), expected, atol=atol, rtol=rtol)

    return job


def timed_ms(fn):
    start = time.perf_counter()
    fn()
    return (time.perf_counter() - start) * 1000


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("irlint")
    parser.add_argument("dir")
    parser.add_argument("--runs", type=int, default=11)
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()
    os.makedirs(args.dir, exist_ok=True)
    torch.set_num_threads(args.threads)
    rng = np.random.default_rng(7)
    print(f"{'case':34} {'torch':>8} {'irlint':>8} {'ratio':>7} {'true':>6} {'kernel':>7} {'read':>6} "
          f"{'(irlint-true)/(kernel+read)':>28}")
    ratios, issue5 = [], []
    for n, case in enumerate(kernel_cases.cases(False)):
        model, outputs = write_model(args.dir, args.irlint, case)
        x_path = os.path.join(args.dir, case["name"] + ".in.npy")
        np.save(x_path, kernel_cases.random_input(case["shape"], case["dtype"], rng))
        expects = [os.path.join(args.dir, f"{case['name']}.out{i}.npy") for i in range(outputs)]
        base = [args.irlint, "run", model, "--layer", "1", "--input", x_path, "--threads", str(args.threads)]
        subprocess.run(base + sum((["--save", e] for e in expects), []), check=True, stdout=subprocess.DEVNULL)
        cmd = base + sum((["--expect", e] for e in expects), [])
        report = json.loads(subprocess.run(cmd + ["--format", "json"], capture_output=True, text=True).stdout)
        if report["status"] != "ok":
            sys.exit(f"{case['name']}: irlint run is not ok: {report}")
        job = torch_job(case, x_path, expects[0])
        if not job():
            sys.exit(f"{case['name']}: PyTorch's result differs from the expected values")
        samples = {"torch": [], "irlint": [], "true": [], "kernel": [], "read": []}
        for _ in range(args.runs):
            samples["irlint"].append(spawn_ms(cmd))
            samples["true"].append(spawn_ms(["/bin/true"]))
            samples["torch"].append(timed_ms(job))
            samples["read"].append(read_ms([x_path] + expects))
            rep = json.loads(subprocess.run(cmd + ["--format", "json"], capture_output=True, text=True).stdout)
            samples["kernel"].append(rep["kernel_ms"])
        m = {k: statistics.median(v) for k, v in samples.items()}
        ratio = m["torch"] / m["irlint"]
        floor_ratio = (m["irlint"] - m["true"]) / (m["kernel"] + m["read"])
        ratios.append(ratio)
        if n < ISSUE5_CASES:
            issue5.append(ratio)
        print(f"{case['name']:34} {m['torch']:8.2f} {m['irlint']:8.2f} {ratio:6.2f}x {m['true']:6.2f} "
              f"{m['kernel']:7.2f} {m['read']:6.2f} {floor_ratio:28.2f}", flush=True)

    def geomean(v):
        return math.exp(sum(math.log(r) for r in v) / len(v))

    print(f"geometric mean of the ratio: issue-5 cases {geomean(issue5):.2f}x, all cases {geomean(ratios):.2f}x")
    print(f"times in ms, medians of {args.runs}; {args.threads} thread(s); ratio = PyTorch / irlint")


if __name__ == "__main__":
    main()
