#!/usr/bin/python3
"""Writes the seed corpora of the fuzz targets from testdata/.

    make_seeds.py --testdata testdata --out build-fuzz/seeds [--irlint build-fuzz/irlint]

    OUT/fuzz_ir       every testdata .xml up to MAX_SEED bytes
    OUT/fuzz_npy      every testdata .npy up to MAX_SEED bytes, and small arrays written with NumPy when it
                      is installed (each dtype irlint reads, C and Fortran order, both byte orders)
    OUT/fuzz_parsers  one text case per pooling layer of the testdata IR files (the format is described in
                      fuzz/fuzz_parsers.cpp)
    OUT/fuzz_report   JSON reports of `irlint check` over testdata's directories, whole and in shards, as
                      `irlint merge` reads them (with --irlint)

Seeds are named by the SHA-1 of their bytes, so rerunning adds nothing twice.
"""
import argparse
import hashlib
import io
import os
import subprocess
import sys
import xml.etree.ElementTree as ET

MAX_SEED = 64 * 1024
POOL_TYPES = ("AvgPool", "MaxPool", "AdaptiveAvgPool", "AdaptiveMaxPool")
PRECISIONS = {"FP32": "f32", "FP16": "f16", "BF16": "bf16", "FP64": "f64", "I8": "i8", "I32": "i32",
              "I64": "i64", "U8": "u8", "BOOL": "boolean"}


def save(directory, data):
    os.makedirs(directory, exist_ok=True)
    with open(os.path.join(directory, hashlib.sha1(data).hexdigest()), "wb") as f:
        f.write(data)


def files_below(root, suffix):
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        for name in sorted(filenames):
            path = os.path.join(dirpath, name)
            if name.endswith(suffix) and os.path.getsize(path) <= MAX_SEED:
                yield path


def read(path):
    with open(path, "rb") as f:
        return f.read()


def numpy_seeds():
    try:
        import numpy as np
    except ImportError:
        return []
    seeds = []
    values = np.arange(24, dtype=np.float64).reshape(1, 2, 3, 4) - 7.5
    for dtype in ("<f2", "<f4", ">f4", "<f8", "|i1", "<i2", "<i4", ">i8", "|u1", "<u2", "<u4", "<u8", "|b1"):
        for order in ("C", "F"):
            buffer = io.BytesIO()
            np.save(buffer, np.asarray(values, dtype=dtype, order=order), allow_pickle=False)
            seeds.append(buffer.getvalue())
    for shape in ((), (0,), (5,), (1, 1, 0, 3)):
        buffer = io.BytesIO()
        np.save(buffer, np.zeros(shape, dtype="<f4"), allow_pickle=False)
        seeds.append(buffer.getvalue())
    return seeds


def port_dims(port):
    return ",".join((d.text or "").strip() for d in port.findall("dim"))


def parser_cases(path):
    """One fuzz_parsers case per pooling layer of the IR file at path."""
    try:
        root = ET.parse(path).getroot()
    except (ET.ParseError, ValueError):
        return []
    cases = []
    for layer in root.iter("layer"):
        version = layer.get("version", "")
        if layer.get("type") not in POOL_TYPES or not version.startswith("opset"):
            continue
        inputs = layer.findall("input/port")
        outputs = layer.findall("output/port")
        if not inputs:
            continue
        lines = [f"{layer.get('type')} {version[len('opset'):]}", f"input {port_dims(inputs[0])}"]
        if outputs:
            lines.append(f"declared {port_dims(outputs[0])}")
        spatial = max(len(inputs[0].findall("dim")) - 2, 1)
        if layer.get("type").startswith("Adaptive"):
            lines.append("output_size " + ",".join(["2"] * spatial))
        lines.append(f"type {PRECISIONS.get(inputs[0].get('precision', ''), 'f32')}")
        data = layer.find("data")
        if data is not None:
            lines += [f"{key}={value}" for key, value in data.attrib.items()]
        cases.append("\n".join(lines).encode())
    return cases


def report_seeds(irlint, testdata):
    """Real shard reports: `check --format json` over each directory of testdata, whole and in 3 shards."""
    if not irlint:
        return []
    seeds = []
    for name in sorted(os.listdir(testdata)):
        directory = os.path.join(testdata, name)
        if not os.path.isdir(directory):
            continue
        for shard in ([], ["--shard", "1/3"], ["--shard", "2/3"], ["--shard", "3/3"]):
            proc = subprocess.run([irlint, "check", directory, "--format", "json", "--fail-on", "never", "-j", "2",
                                   *shard], capture_output=True, timeout=300)
            if proc.returncode == 0 and len(proc.stdout) <= MAX_SEED:
                seeds.append(proc.stdout)
    return seeds


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--testdata", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--irlint", help="the irlint binary that writes the report seeds")
    args = ap.parse_args()

    counts = {}
    for target, seeds in (
        ("fuzz_ir", [read(p) for p in files_below(args.testdata, ".xml")]),
        ("fuzz_npy", [read(p) for p in files_below(args.testdata, ".npy")] + numpy_seeds()),
        ("fuzz_parsers", [c for p in files_below(args.testdata, ".xml") for c in parser_cases(p)]),
        ("fuzz_report", report_seeds(args.irlint, args.testdata)),
    ):
        for data in seeds:
            save(os.path.join(args.out, target), data)
        counts[target] = len(os.listdir(os.path.join(args.out, target))) if seeds else 0
    for target, n in counts.items():
        print(f"{target}: {n} seeds")
    return 0 if all(counts.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
