"""irlint.shape against `irlint shape --op ... --format json`."""

import json
import subprocess

import pytest

import irlint


def cli(binary, *args):
    return subprocess.run([binary, "shape", *args], capture_output=True, text=True, check=False)


CASES = [
    # (Python arguments, the same question on the command line)
    ((("MaxPool", ["1,64,112,112"]), {"opset": 14, "attrs": {"kernel": [3, 3], "strides": "2,2",
                                                             "rounding_type": "ceil_torch"}}),
     ["--op", "MaxPool", "--opset", "14", "--input", "1,64,112,112", "--attr", "kernel=3,3", "--attr", "strides=2,2",
      "--attr", "rounding_type=ceil_torch"]),
    ((("AvgPool", [[1, 3, "10..20", 224]]), {"attrs": {"kernel": "3,3", "strides": [2, 2]}}),
     ["--op", "AvgPool", "--input", "1,3,10..20,224", "--attr", "kernel=3,3", "--attr", "strides=2,2"]),
    ((("AdaptiveMaxPool", ["1,3,32,32"]), {"output_size": [7, 7]}),
     ["--op", "AdaptiveMaxPool", "--input", "1,3,32,32", "--output-size", "7,7"]),
    ((("Convolution", [[1, 3, 224, 224], "64,3,7,7"]),
      {"attrs": {"strides": [2, 2], "pads_begin": [3, 3], "pads_end": [3, 3], "dilations": [1, 1],
                 "auto_pad": "explicit"}}),
     ["--op", "Convolution", "--input", "1,3,224,224", "--input", "64,3,7,7", "--attr", "strides=2,2", "--attr",
      "pads_begin=3,3", "--attr", "pads_end=3,3", "--attr", "dilations=1,1", "--attr", "auto_pad=explicit"]),
    ((("Reshape", [[1, 3, 224, 224], ([2], "i64")]), {"values": {1: [1, -1]}, "attrs": {"special_zero": False}}),
     ["--op", "Reshape", "--input", "1,3,224,224", "--input", "2:i64", "--value", "1=1,-1", "--attr",
      "special_zero=false"]),
    ((("Reshape", [[1, 3, 224, 224], "2:i64"]), {"attrs": {"special_zero": False}}),
     ["--op", "Reshape", "--input", "1,3,224,224", "--input", "2:i64", "--attr", "special_zero=false"]),
    # ONNX ops: the domain, ONNX's op type and attribute names, the model's opset import
    ((("Conv", [[1, 3, 224, 224], "64,3,7,7"]),
      {"domain": "ai.onnx", "opset": 11, "attrs": {"strides": [2, 2], "pads": [3, 3, 3, 3]}}),
     ["--op", "Conv", "--domain", "ai.onnx", "--opset", "11", "--input", "1,3,224,224", "--input", "64,3,7,7",
      "--attr", "strides=2,2", "--attr", "pads=3,3,3,3"]),
    ((("Reshape", [[2, 3, 4], ([2], "i64")]), {"domain": "ai.onnx", "values": {1: [0, -1]}}),
     ["--op", "Reshape", "--domain", "ai.onnx", "--input", "2,3,4", "--input", "2:i64", "--value", "1=0,-1"]),
    ((("MatMulNBits", [[1, 5, 64], "32,2,16:u8", "32,2"]),
      {"domain": "com.microsoft", "attrs": {"K": 64, "N": 32, "bits": 4, "block_size": 32}}),
     ["--op", "MatMulNBits", "--domain", "com.microsoft", "--input", "1,5,64", "--input", "32,2,16:u8", "--input",
      "32,2", "--attr", "K=64", "--attr", "N=32", "--attr", "bits=4", "--attr", "block_size=32"]),
    ((("LinearRegressor", [[5, 4]]), {"domain": "ai.onnx.ml", "attrs": {"targets": 3}}),
     ["--op", "LinearRegressor", "--domain", "ai.onnx.ml", "--input", "5,4", "--attr", "targets=3"]),
]


def test_onnx_ops_answer_as_onnx_infers():
    conv = irlint.shape("Conv", ["1,3,224,224", "64,3,7,7"], domain="ai.onnx", opset=11,
                        attrs={"strides": [2, 2], "pads": [3, 3, 3, 3]})
    assert conv.ok and conv.label == "Conv-11" and conv.outputs == [[1, 64, 112, 112]] and conv.types == ["f32"]
    # allowzero=0 copies the input dim for a 0 in the target
    assert irlint.shape("Reshape", ["2,3,4", ([2], "i64")], domain="ai.onnx", values={1: [0, -1]}).outputs == [[2, 12]]
    with pytest.raises(irlint.UsageError):
        irlint.shape("Conv", ["1,3,8,8"], domain="ai.onnx.ml")
    # scikit-learn's regressors: a row per sample, a column per target
    assert irlint.shape("LinearRegressor", ["5,4"], domain="ai.onnx.ml", attrs={"targets": 3}).outputs == [[5, 3]]
    with pytest.raises(irlint.UsageError):
        irlint.shape("LinearRegressor", ["5,4"], domain="ai.onnx.nope")


@pytest.mark.parametrize("python, command_line", CASES, ids=[c[1][1] + str(i) for i, c in enumerate(CASES)])
def test_outputs_are_the_clis(binary, python, command_line):
    (args, kwargs) = python
    result = irlint.shape(*args, **kwargs)
    proc = cli(binary, *command_line, "--format", "json")
    assert proc.returncode == 0, proc.stderr
    expected = json.loads(proc.stdout)
    assert result.ok and result.outputs == expected["outputs"]
    if "types" in expected:
        assert result.types == expected["types"]
        assert result.unknown == expected.get("unknown")
    else:
        assert (result.pads_begin, result.pads_end) == (expected["pads_begin"], expected["pads_end"])
    assert result.label in cli(binary, *command_line).stdout


def test_a_rejected_layer_has_the_clis_findings(binary):
    result = irlint.shape("Reshape", [[1, 3, 224, 224], "2:i64"], values={1: [5, -7]}, attrs={"special_zero": False})
    assert not result.ok and result.outputs == []
    proc = cli(binary, "--op", "Reshape", "--input", "1,3,224,224", "--input", "2:i64", "--value", "1=5,-7", "--attr",
               "special_zero=false")
    assert proc.returncode == 1
    assert [f"irlint: error: {f.message}" for f in result.findings] == proc.stderr.splitlines()
    assert [f.rule for f in result.findings] == ["input-invalid"]
    pool = irlint.shape("MaxPool", ["1,3,32,32"], attrs={"kernel": "3,3"})
    assert not pool.ok and pool.findings and all(f.rule == "attr-invalid" for f in pool.findings)


@pytest.mark.parametrize("args, kwargs, command_line", [
    (("Nope", ["1"]), {}, ["--op", "Nope", "--input", "1"]),
    (("MaxPool", ["1,3,x"]), {}, ["--op", "MaxPool", "--input", "1,3,x"]),
    (("Reshape", ["1,3", "2:i64"]), {"values": {5: [1, 2]}}, ["--op", "Reshape", "--input", "1,3", "--input", "2:i64",
                                                               "--value", "5=1,2"]),
    (("Relu", ["1,3:f33"]), {}, ["--op", "Relu", "--input", "1,3:f33"]),
])
def test_usage_errors_are_the_clis(binary, args, kwargs, command_line):
    with pytest.raises(irlint.UsageError) as error:
        irlint.shape(*args, **kwargs)
    proc = cli(binary, *command_line)
    assert proc.returncode == 2
    assert proc.stderr == f"irlint: error: {error.value}\n"
