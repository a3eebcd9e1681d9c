"""irlint.infer against `irlint infer --all --format json` and `infer --reshape`."""

import json
import shutil
import subprocess

import pytest

import irlint


def cli_json(binary, *args):
    proc = subprocess.run([binary, "infer", *args, "--format", "json"], capture_output=True, text=True, check=False)
    return json.loads(proc.stdout)


@pytest.mark.parametrize("name", ["valid/pool_chain.xml", "spec/avgpool1_example1.xml",
                                  "realir/omz-SampLeNet-v10.xml"])
def test_layers_and_endpoints_are_the_clis(binary, testdata, name):
    model = testdata / name
    assert model.exists()
    result = irlint.infer(model)
    expected = cli_json(binary, str(model), "--all")
    keys = ("id", "name", "type", "version", "inputs", "declared", "inferred", "declared_types", "inferred_types",
            "status", "checked", "checked_by_invariants")
    assert [{k: l[k] for k in keys} for l in result.layers] == [{k: l[k] for k in keys} for l in expected["layers"]]
    assert result.inputs == expected["model"]["inputs"]
    assert result.outputs == expected["model"]["outputs"]
    assert result.ir_version == expected["model"]["ir_version"]
    errors = [(f.rule, f.line, f.message) for f in result.findings if f.severity != "note"]
    assert errors == [(d["rule"], d["line"], d["message"]) for d in expected["diagnostics"]]
    assert result.path == str(model) and "InferResult" in repr(result)


def test_reshape_changes_and_writes(testdata, tmp_path):
    model = tmp_path / "samplenet.xml"
    shutil.copy(testdata / "realir/omz-SampLeNet-v10.xml", model)
    shutil.copy(testdata / "realir/omz-SampLeNet-v10.bin", tmp_path / "samplenet.bin")
    result = irlint.infer(model, reshape=[8, 3, 32, 32])
    assert result.failing == []
    assert result.inputs[0]["dims"] == [8, 3, 32, 32]
    assert result.outputs[0]["dims"] == [8, 10]
    assert any(c["after"] == [[8, 10]] for c in result.changed)
    out = tmp_path / "b8.xml"
    result.write(out)
    assert 'shape="8,3,32,32"' in out.read_text()

    bad = irlint.infer(model, reshape={"data": "1,3,64,64"})
    assert [f.rule for f in bad.failing] == ["reshape-incompatible"]
    assert "do not evenly divide the input [1,16,13,13]" in bad.failing[0].message
    with pytest.raises(irlint.ModelError, match="not written"):
        bad.write(tmp_path / "no.xml")
    assert not (tmp_path / "no.xml").exists()
    with pytest.raises(irlint.UsageError, match="no input \\(Parameter\\) named 'nope'; its inputs: data"):
        irlint.infer(model, reshape={"nope": [1, 3, 32, 32]})
    with pytest.raises(irlint.UsageError, match="only the result of infer"):
        irlint.infer(model).write(tmp_path / "x.xml")


def conv_pool_onnx(path):
    """x [1,3,8,8] -> Conv 4x3x3x3 (pads 1) -> MaxPool 3x3/1 -> y [1,4,6,6], with value_info for the Conv."""
    onnx = pytest.importorskip("onnx")
    from onnx import TensorProto, helper
    weight = helper.make_tensor("w", TensorProto.FLOAT, [4, 3, 3, 3], [0.1] * 108)
    graph = helper.make_graph(
        [helper.make_node("Conv", ["x", "w"], ["c"], name="conv", pads=[1, 1, 1, 1]),
         helper.make_node("MaxPool", ["c"], ["y"], name="pool", kernel_shape=[3, 3], strides=[1, 1])],
        "conv_pool", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 8, 8])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 4, 6, 6])], [weight],
        value_info=[helper.make_tensor_value_info("c", TensorProto.FLOAT, [1, 4, 8, 8])])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], producer_name="irlint-test")
    onnx.save(model, str(path))
    return path


def test_infer_onnx(tmp_path):
    result = irlint.infer(conv_pool_onnx(tmp_path / "m.onnx"))
    assert result.ir_version == 8 and result.producer == "irlint-test"
    assert result.inputs == [{"name": "x", "dims": [1, 3, 8, 8], "type": "f32", "layout": ""}]
    assert result.outputs == [{"name": "y", "dims": [1, 4, 6, 6], "type": "f32", "layout": ""}]
    assert [(l["name"], l["inferred"]) for l in result.layers] == [("conv", [[1, 4, 8, 8]]), ("pool", [[1, 4, 6, 6]])]
    assert not result.findings


def test_infer_onnx_sequences(tmp_path):
    onnx = pytest.importorskip("onnx")
    from onnx import TensorProto, helper
    nodes = [helper.make_node("SplitToSequence", ["x"], ["parts"], axis=1),
             helper.make_node("SequenceAt", ["parts", "i"], ["y"])]
    graph = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 6])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
                              [helper.make_tensor("i", TensorProto.INT64, [], [0])])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    onnx.save(model, str(tmp_path / "seq.onnx"))
    layers = irlint.infer(tmp_path / "seq.onnx").layers
    assert [(l["inferred"], l["inferred_types"], l["inferred_kinds"]) for l in layers[:2]] == [
        ([[2, 1]], ["f32"], ["sequence"]), ([[2, 1]], ["f32"], ["tensor"])]


def test_infer_onnx_reshape(tmp_path):
    model = conv_pool_onnx(tmp_path / "m.onnx")
    batch = irlint.infer(model, reshape="x=4,3,8,8")
    assert [(c["name"], c["after"]) for c in batch.changed] == [("conv", [[4, 4, 8, 8]]), ("pool", [[4, 4, 6, 6]])]
    assert batch.outputs[0]["dims"] == [4, 4, 6, 6] and not batch.failing
    batch.write(tmp_path / "b4.onnx")
    written = irlint.infer(tmp_path / "b4.onnx")
    assert written.inputs[0]["dims"] == [4, 3, 8, 8] and not written.findings
    assert irlint.check(tmp_path / "b4.onnx").ok
    # A 1x1 input leaves the 3x3 window no room: the pooling node fails, with irlint's arithmetic.
    small = irlint.infer(model, reshape={"x": [1, 3, 1, 1]})
    assert [f.rule for f in small.failing] == ["reshape-incompatible"]
    assert small.failing[0].layer.name == "pool"
    assert "(1+0+0-3)/1" in small.failing[0].message
    with pytest.raises(irlint.ModelError, match="not written: 1 node cannot take the new shapes"):
        small.write(tmp_path / "no.onnx")
    assert not (tmp_path / "no.onnx").exists()
    with pytest.raises(irlint.UsageError, match="no graph input named 'nope'; its inputs: x"):
        irlint.infer(model, reshape={"nope": [1]})


def test_infer_errors(binary, testdata, tmp_path):
    with pytest.raises(irlint.UsageError) as missing:
        irlint.infer(tmp_path / "nope.xml")
    stderr = subprocess.run([binary, "infer", str(tmp_path / "nope.xml")], capture_output=True, text=True).stderr
    assert stderr == f"irlint: error: {missing.value}\n"
    broken = tmp_path / "broken.xml"
    broken.write_text("<net><layers>")
    with pytest.raises(irlint.ModelError, match=str(broken)):
        irlint.infer(broken)
