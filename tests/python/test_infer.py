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
            "status", "checked")
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


def test_infer_onnx(testdata):
    models = sorted(testdata.rglob("*.onnx"))
    assert models
    result = irlint.infer(models[0])
    assert result.ir_version is None and result.layers


def test_infer_errors(binary, testdata, tmp_path):
    with pytest.raises(irlint.UsageError) as missing:
        irlint.infer(tmp_path / "nope.xml")
    stderr = subprocess.run([binary, "infer", str(tmp_path / "nope.xml")], capture_output=True, text=True).stderr
    assert stderr == f"irlint: error: {missing.value}\n"
    broken = tmp_path / "broken.xml"
    broken.write_text("<net><layers>")
    with pytest.raises(irlint.ModelError, match=str(broken)):
        irlint.infer(broken)
