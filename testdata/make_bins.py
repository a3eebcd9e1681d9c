#!/usr/bin/env python3
"""Writes the small .bin weight files that sit next to some testdata IR files.

Each entry is (path relative to testdata/, element type, values). The data is little-endian, packed with no
padding, starting at offset 0, as the Const layers in the matching .xml expect. Run it from anywhere:

    /usr/bin/python3 testdata/make_bins.py          # (re)write every .bin
    /usr/bin/python3 testdata/make_bins.py --check  # exit 1 if a committed .bin differs from what it would write
"""
import os
import struct
import sys

FORMATS = {"i64": "<q", "i32": "<i", "f32": "<f"}

BINS = [
    # AdaptiveAvgPool-8 output_size = [7, 7]
    ("valid/adaptive_avgpool8.bin", "i64", [7, 7]),
    # AdaptiveMaxPool-8 on a 3D input, output_size = [5]
    ("valid/adaptive_maxpool8.bin", "i32", [5]),
    # AdaptiveMaxPool-8 on a 5D input, output_size = [2, 3, 4]
    ("valid/adaptive_maxpool8_5d.bin", "i64", [2, 3, 4]),
    # IR v10 AdaptiveAvgPool-8 (global pooling), output_size = [1, 1]
    ("valid/adaptive_avgpool8_v10.bin", "i64", [1, 1]),
    # index_element_type=i16 case: the Const itself is fine
    ("broken/attr_adaptive_maxpool_i16.bin", "i64", [4, 4]),
    # the declared output is 6x6 while output_size says 7x7
    ("broken/output_shape_adaptive.bin", "i64", [7, 7]),
    # the Const reads 16 bytes at offset 0, the file holds 8
    ("broken/const_past_bin_end.bin", "i64", [7]),
    # the Const's size attribute (8) is smaller than its shape needs (16)
    ("broken/const_size_too_small.bin", "i64", [7, 7]),
    # AdaptiveAvgPool named in opset5, where it does not exist; the data itself is fine
    ("broken/adaptive_avgpool_opset5.bin", "i64", [7, 7]),
]


def encode(element_type, values):
    fmt = FORMATS[element_type]
    return b"".join(struct.pack(fmt, v) for v in values)


def main(argv):
    check = "--check" in argv[1:]
    here = os.path.dirname(os.path.abspath(__file__))
    stale = 0
    for rel, element_type, values in BINS:
        path = os.path.join(here, rel)
        data = encode(element_type, values)
        if check:
            try:
                with open(path, "rb") as f:
                    same = f.read() == data
            except OSError:
                same = False
            if not same:
                print(f"{rel}: differs from make_bins.py")
                stale += 1
            continue
        with open(path, "wb") as f:
            f.write(data)
    if check:
        print(f"{len(BINS) - stale} up to date, {stale} stale")
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
