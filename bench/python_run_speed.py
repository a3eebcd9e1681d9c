#!/usr/bin/python3
"""irlint.run in a warm Python process against the kernel time `irlint run` reports, and against PyTorch.

    python_run_speed.py BUILD [--runs N] [--threads T]

BUILD is a build directory with the irlint binary and the Python module (BUILD/python). For a MaxPool-1
(kernel 3, stride 2, pads 1) and an AvgPool-1 (the same window, exclude-pad) on one 1x64x112x112 f32 array,
in this one process, medians of RUNS of:
- `irlint run model.xml --layer pool --input x.npy --threads T --format json`: its "kernel_ms";
- irlint.run(model, "pool", x, threads=T), the whole call timed from Python (reading and checking the model,
  the kernels, the arrays), after warm-up runs;
  its own "kernel_ms" (the kernels inside the call) is printed too;
- torch.nn.functional.max_pool2d / avg_pool2d on the same data (torch.set_num_threads(T)), warm.
The outputs of irlint.run and PyTorch are held equal first. Ratios: irlint.run / kernel_ms (target at most
1.2) and irlint.run / PyTorch (target below 1).
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np
import torch
import torch.nn.functional as F

SHAPE = [1, 64, 112, 112]
OUT = [1, 64, 56, 56]
WINDOW = {"kernel": "3,3", "strides": "2,2", "pads_begin": "1,1", "pads_end": "1,1", "rounding_type": "floor",
          "auto_pad": "explicit"}
LAYERS = {  # name: (op, attributes, PyTorch's pooling)
    "MaxPool": ("MaxPool", dict(WINDOW), lambda t: F.max_pool2d(t, 3, 2, 1)),
    "AvgPool": ("AvgPool", dict(WINDOW, **{"exclude-pad": "true"}),
                lambda t: F.avg_pool2d(t, 3, 2, 1, count_include_pad=False)),
}


def port(pid, shape):
    return f'<port id="{pid}" precision="FP32">' + "".join(f"<dim>{d}</dim>" for d in shape) + "</port>"


def write_model(path, op, attrs):
    data = " ".join(f'{k}="{v}"' for k, v in attrs.items())
    with open(path, "w") as f:
        f.write(f"""<?xml version="1.0"?>
<net name="bench" version="11"><layers>
<layer id="0" name="x" type="Parameter" version="opset1"><data shape="{",".join(map(str, SHAPE))}" element_type="f32"/>
<output>{port(0, SHAPE)}</output></layer>
<layer id="1" name="pool" type="{op}" version="opset1"><data {data}/><input>{port(0, SHAPE)}</input>
<output>{port(1, OUT)}</output></layer>
<layer id="2" name="y" type="Result" version="opset1"><input>{port(0, OUT)}</input></layer>
</layers><edges><edge from-layer="0" from-port="0" to-layer="1" to-port="0"/>
<edge from-layer="1" from-port="1" to-layer="2" to-port="0"/></edges></net>
""")


def median_ms(fn, runs, warmup=3):
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1e3)
    return statistics.median(times)


def cli_kernel_ms(binary, model, x_path, threads, runs):
    times = []
    for _ in range(runs):
        p = subprocess.run([binary, "run", model, "--layer", "pool", "--input", x_path, "--threads", str(threads),
                            "--format", "json"], capture_output=True, text=True, check=True)
        times.append(json.loads(p.stdout)["kernel_ms"])
    return statistics.median(times)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("build")
    ap.add_argument("--runs", type=int, default=30)
    ap.add_argument("--threads", type=int, default=os.cpu_count())
    args = ap.parse_args()
    sys.path.insert(0, os.path.join(args.build, "python"))
    import irlint  # noqa: E402 (from the build directory)

    binary = os.path.join(args.build, "irlint")
    torch.set_num_threads(args.threads)
    x = np.random.default_rng(1).standard_normal(SHAPE).astype(np.float32)
    tx = torch.from_numpy(x)
    print(f"irlint.run vs `irlint run` kernel_ms vs PyTorch {torch.__version__}: {SHAPE} f32, "
          f"threads {args.threads}, medians of {args.runs} (ms)")
    print(f"{'layer':<8} {'irlint.run':>10} {'(kernels)':>10} {'kernel_ms':>10} {'torch':>8} {'run/kernel':>11} "
          f"{'run/torch':>10}")
    with tempfile.TemporaryDirectory() as tmp:
        x_path = os.path.join(tmp, "x.npy")
        np.save(x_path, x)
        for name, (op, attrs, pool) in LAYERS.items():
            model = os.path.join(tmp, f"{name}.xml")
            write_model(model, op, attrs)
            got = irlint.run(model, "pool", x, threads=args.threads).outputs[0].array
            np.testing.assert_allclose(got, pool(tx).numpy(), rtol=1e-5, atol=1e-6)
            kernel = cli_kernel_ms(binary, model, x_path, args.threads, args.runs)
            inside = []
            python = median_ms(lambda: inside.append(irlint.run(model, "pool", x, threads=args.threads).kernel_ms),
                               args.runs)
            torch_ms = median_ms(lambda: pool(tx), args.runs)
            print(f"{name:<8} {python:>10.3f} {statistics.median(inside):>10.3f} {kernel:>10.3f} {torch_ms:>8.3f} "
                  f"{python / kernel:>11.2f} "
                  f"{python / torch_ms:>10.2f}")


if __name__ == "__main__":
    main()
