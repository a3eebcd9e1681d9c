#!/usr/bin/python3
"""Writes the kernel benchmark cases (inputs as .npy and cases.tsv) and times PyTorch on the same data.

    kernel_cases.py DIR [--runs N] [--big]

Prints one line per case: name, PyTorch median with one thread, with two threads (ms), or "n/a" where
PyTorch has no CPU kernel for the case. The medians are also written to DIR/torch.tsv.
"""
import argparse
import os
import statistics
import time

import numpy as np
import torch
import torch.nn.functional as F


def csv(values):
    return ",".join(str(v) for v in values)


def pool_attrs(kernel, stride, pad, exclude_pad=None, dilation=None, index_type=None):
    n = len(kernel)
    attrs = {"kernel": csv(kernel), "strides": csv(stride), "pads_begin": csv([pad] * n),
             "pads_end": csv([pad] * n), "rounding_type": "floor", "auto_pad": "explicit"}
    if exclude_pad is not None:
        attrs["exclude-pad"] = "true" if exclude_pad else "false"
    if dilation is not None:
        attrs["dilations"] = csv(dilation)
    if index_type is not None:
        attrs["index_element_type"] = index_type
        attrs["axis"] = "0"
    return attrs


def avg(name, shape, k, s, p, dims=2):
    # count_include_pad=True and exclude-pad=false divide by the whole kernel alike (floor rounding).
    fn = [None, F.avg_pool1d, F.avg_pool2d, F.avg_pool3d][dims]
    return dict(name=name, op="AvgPool-14", shape=shape, dtype=np.float32,
                attrs=pool_attrs([k] * dims, [s] * dims, p, exclude_pad=False),
                torch=lambda x: fn(x, k, s, p, count_include_pad=True))


def maxp(name, shape, k, s, p, indices, dims=2, dilation=1, dtype=np.float32):
    fn = [None, F.max_pool1d, F.max_pool2d, F.max_pool3d][dims]
    op = "MaxPool-8" if indices or dilation != 1 else "MaxPool-1"
    attrs = pool_attrs([k] * dims, [s] * dims, p, dilation=[dilation] * dims if op == "MaxPool-8" else None,
                       index_type="i64" if op == "MaxPool-8" else None)
    return dict(name=name, op=op, shape=shape, dtype=dtype, attrs=attrs,
                torch=lambda x: fn(x, k, s, p, dilation, return_indices=indices))


def cases(big):
    out = [
        avg("avg_k3s2p1_64x112", [1, 64, 112, 112], 3, 2, 1),
        avg("avg_k2s2_256x56", [1, 256, 56, 56], 2, 2, 0),
        avg("avg_k5s1p2_32x224", [1, 32, 224, 224], 5, 1, 2),
        maxp("max_k3s2p1_idx_64x112", [1, 64, 112, 112], 3, 2, 1, indices=True),
        maxp("max_k5s1p2_32x224", [1, 32, 224, 224], 5, 1, 2, indices=False),
        avg("avg3d_k3s2p1_32x32x56", [1, 32, 32, 56, 56], 3, 2, 1, dims=3),
        dict(name="adaptive_avg_7x7_512x28", op="AdaptiveAvgPool-8", shape=[1, 512, 28, 28], dtype=np.float32,
             attrs={}, output_size=[7, 7], torch=lambda x: F.adaptive_avg_pool2d(x, 7)),
        maxp("max_f16_k3s2p1_64x112", [1, 64, 112, 112], 3, 2, 1, indices=False, dtype=np.float16),
        maxp("max_i8_k3s2p1_64x112", [1, 64, 112, 112], 3, 2, 1, indices=False, dtype=np.int8),
        maxp("max1d_k3s2p1_256x12544", [1, 256, 12544], 3, 2, 1, indices=False, dims=1),
        maxp("max_dil2_k3s1p1_64x112", [1, 64, 112, 112], 3, 1, 1, indices=False, dilation=2),
        avg("avg_k15s1p7_32x112", [1, 32, 112, 112], 15, 1, 7),
        maxp("max_k15s1p7_32x112", [1, 32, 112, 112], 15, 1, 7, indices=False),
    ]
    if big:  # 512 MiB of f32
        out.append(avg("avg_k2s2_512MiB_128x1024", [1, 128, 1024, 1024], 2, 2, 0))
    return out


def random_input(shape, dtype, rng):
    if np.issubdtype(dtype, np.integer):
        return rng.integers(-128, 128, size=shape, dtype=np.int8)
    return rng.standard_normal(size=shape, dtype=np.float32).astype(dtype)


def median_ms(fn, x, runs):
    fn(x)  # warm-up
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn(x)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def torch_time(case, x, runs, threads):
    """PyTorch's median; where it has no CPU kernel for the element type, its time on f32 data."""
    torch.set_num_threads(threads)
    try:
        return median_ms(case["torch"], torch.from_numpy(x), runs), ""
    except (RuntimeError, NotImplementedError):
        return median_ms(case["torch"], torch.from_numpy(x.astype(np.float32)), runs), " (torch on f32)"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("dir")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--big", action="store_true", help="add the 512 MiB case")
    args = parser.parse_args()
    os.makedirs(args.dir, exist_ok=True)
    rng = np.random.default_rng(7)
    manifest, timings = [], []
    for case in cases(args.big):
        x = random_input(case["shape"], case["dtype"], rng)
        file = case["name"] + ".npy"
        np.save(os.path.join(args.dir, file), x)
        attrs = ";".join(f"{k}={v}" for k, v in case["attrs"].items())
        manifest.append("\t".join([case["name"], case["op"], attrs, file, csv(case.get("output_size", [])) or "-"]))
        (t1, note), (t2, _) = torch_time(case, x, args.runs, 1), torch_time(case, x, args.runs, 2)
        timings.append(f"{case['name']}{note}\t{t1}\t{t2}")
        del x
    with open(os.path.join(args.dir, "cases.tsv"), "w") as f:
        f.write("\n".join(manifest) + "\n")
    with open(os.path.join(args.dir, "torch.tsv"), "w") as f:
        f.write("\n".join(timings) + "\n")
    print("\n".join(timings))


if __name__ == "__main__":
    main()
