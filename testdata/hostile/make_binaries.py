#!/usr/bin/python3
"""Writes the binary files of the hostile corpus: the .npy inputs and the .bin files beside some IR files.

Each entry below says what is wrong with its file. The bytes are built by hand (no NumPy), so that broken
headers can be written exactly. Run it from anywhere:

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
}


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
