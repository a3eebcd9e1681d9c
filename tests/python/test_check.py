"""irlint.check against `irlint check`: the same findings, the same report bytes, the same errors."""

import json
import os
import pathlib
import subprocess

import pytest

import irlint


def cli(binary, *args, cwd=None):
    return subprocess.run([binary, *args], capture_output=True, text=True, cwd=cwd, check=False)


def test_version_is_the_binarys(binary):
    assert irlint.__version__ == cli(binary, "--version").stdout.split()[1]


@pytest.fixture(scope="module")
def testdata_run(binary, testdata):
    """Both checks of testdata/, from its parent directory so that the paths are relative."""
    cwd = os.getcwd()
    os.chdir(testdata.parent)
    try:
        report = irlint.check("testdata")
    finally:
        os.chdir(cwd)
    proc = cli(binary, "check", "testdata", "--format", "json", cwd=testdata.parent)
    assert proc.returncode == report.exit_code == 1
    return report, proc.stdout


def test_same_findings_as_the_cli_json(testdata_run):
    report, cli_json = testdata_run
    expected = json.loads(cli_json)
    assert report.files == [f["path"] for f in expected["files"]]
    assert len(report.files) > 150
    cli_findings = [(f["path"], d["rule"], d["severity"], d["line"], d["layer_id"], d["layer_name"], d["layer_type"],
                     d["message"], d["fingerprint"]) for f in expected["files"] for d in f["diagnostics"]]
    ours = [(f.path, f.rule, f.severity, f.line, *(f.layer or ("", "", "")), f.message, f.fingerprint) for f in report]
    assert ours == cli_findings
    assert len(ours) == len(report) > 100
    summary = expected["summary"]
    assert (report.errors, report.warnings, report.notes) == (summary["errors"], summary["warnings"], summary["notes"])
    assert (report.layers, report.checked, report.checked_by_invariants) == \
        (summary["layers"], summary["checked"], summary["checked_by_invariants"])


def test_to_json_is_the_cli_json_byte_for_byte(testdata_run):
    report, cli_json = testdata_run
    assert report.to_json() == cli_json


def test_onnx_files_are_checked_as_the_cli_checks_them(testdata_run):
    report, _ = testdata_run
    onnx = [f for f in report.files if f.endswith(".onnx")]
    assert onnx, "testdata holds .onnx models"
    assert not [f for f in report if f.path.endswith(".onnx") and "without ONNX support" in f.message]


def test_other_formats_are_the_clis(binary, testdata):
    spec = testdata / "spec"
    os.chdir(spec)
    report = irlint.check(".", threads=2)
    for fmt, render in (("sarif", report.to_sarif), ("junit", report.to_junit)):
        assert render() == cli(binary, "check", ".", "--format", fmt, cwd=spec).stdout, fmt
    text = cli(binary, "check", ".", "--min-severity", "note", cwd=spec).stdout
    without_time = lambda t: [line for line in t.splitlines() if not line.lstrip().startswith("wall time")]
    assert without_time(report.to_text()) == without_time(text)
    assert "wall time" in report.to_text()


def test_options_select_ignore_severity_min_severity(testdata):
    spec = testdata / "spec"
    everything = irlint.check(spec)
    rules = {f.rule for f in everything}
    assert "output-shape-mismatch" in rules
    only = irlint.check(spec, select="output-shape-mismatch")
    assert {f.rule for f in only} == {"output-shape-mismatch"}
    assert only.errors == sum(1 for f in everything if f.rule == "output-shape-mismatch" and f.severity == "error")
    assert "output-shape-mismatch" not in {f.rule for f in irlint.check(spec, ignore=["output-shape-mismatch"])}
    lowered = irlint.check(spec, severity={"output-shape-mismatch": "warning"})
    assert {f.severity for f in lowered if f.rule == "output-shape-mismatch"} == {"warning"}
    off = irlint.check(spec, severity={"output-shape-mismatch": "off"})
    assert "output-shape-mismatch" not in {f.rule for f in off}
    errors_only = irlint.check(spec, min_severity="error")
    assert {f.severity for f in errors_only} == {"error"}
    assert errors_only.notes == everything.notes  # counted, not shown


def test_clean_files_and_path_like(testdata):
    report = irlint.check(pathlib.Path(testdata / "valid" / "pool_chain.xml"), config=False, threads=1)
    assert report.ok and report.exit_code == 0 and report.errors == 0
    assert report.files == [str(testdata / "valid" / "pool_chain.xml")]
    assert report.checked > 0 and report.layers >= report.checked
    assert list(report) == report.findings


def test_finding_object(testdata):
    report = irlint.check(testdata / "spec")
    f = next(iter(report))
    assert f == report.findings[0] and hash(f) == hash(report.findings[0])
    assert f != report.findings[-1]
    assert repr(f).startswith(f"<irlint.Finding {f.path}:{f.line}: {f.severity} [{f.rule}]")
    assert len(f.fingerprint) == 16 and int(f.fingerprint, 16) >= 0
    assert str(f).startswith(f"{f.path}:{f.line}: {f.severity}: ")
    layered = [x for x in report if x.layer]
    assert layered and all(len(x.layer) == 3 for x in layered)
    first = layered[0].layer
    assert isinstance(first, irlint.LayerRef) and (first.id, first.name, first.type) == tuple(first)
    assert "files" in repr(report)


def test_errors_are_the_clis_messages(binary, tmp_path):
    with pytest.raises(irlint.UsageError) as missing:
        irlint.check(tmp_path / "nope.xml")
    assert str(missing.value) == f"{tmp_path / 'nope.xml'}: no such file or directory"
    assert isinstance(missing.value, irlint.Error)

    with pytest.raises(irlint.UsageError) as unknown:
        irlint.check(tmp_path, select="no-such-rule")
    expected = cli(binary, "check", str(tmp_path), "--select", "no-such-rule").stderr
    assert f"irlint: error: {unknown.value}\n" == expected

    with pytest.raises(irlint.UsageError, match="no .xml files found"):
        irlint.check(tmp_path)

    (tmp_path / "m.xml").write_text("<net/>")
    bad_config = tmp_path / "irlint.toml"
    bad_config.write_text("select = [")
    with pytest.raises(irlint.ConfigError) as config:
        irlint.check(tmp_path, config=bad_config)
    expected = cli(binary, "check", str(tmp_path), "--config", str(bad_config)).stderr
    assert f"irlint: error: {config.value}\n" == expected

    with pytest.raises(irlint.UsageError, match="min_severity"):
        irlint.check(tmp_path, min_severity="loud")
    with pytest.raises(irlint.UsageError, match="threads"):
        irlint.check(tmp_path, threads=0)
    with pytest.raises(TypeError):
        irlint.check(tmp_path, threads="many")


def test_a_file_that_is_not_a_model_is_a_finding(tmp_path):
    model = tmp_path / "m.xml"
    model.write_bytes(b"<net><layers><layer id='1' type='\x1b[31mEvil'/></layers>")
    report = irlint.check(model, config=False)
    assert report.exit_code == 1 and report.errors >= 1
    assert all(f.path == str(model) for f in report)


def test_bytes_that_are_not_utf8_never_break_a_report(tmp_path):
    """A layer name of bytes that are not UTF-8 becomes U+FFFD, as in the JSON report; a file name that is not
    UTF-8 comes back as os.fsdecode spells it, so that it opens."""
    model = tmp_path / os.fsdecode(b"m\xff.xml")
    model.write_bytes(b'<?xml version="1.0"?>\n<net name="x" version="11"><layers><layer id="0" name="in\xff\xfe" '
                      b'type="Parameter" version="opset1"><data shape="1,3" element_type="f32"/><output><port id="0" '
                      b'precision="FP32"><dim>1</dim><dim>4</dim></port></output></layer></layers><edges/></net>\n')
    report = irlint.check(tmp_path, config=False)
    assert report.files == [str(model)] and os.path.exists(report.files[0])
    (finding,) = report.findings
    assert finding.layer == ("0", "in\ufffd\ufffd", "Parameter")
    assert "m\\xff.xml" in str(finding) and "'in\\xff\\xfe'" in str(finding)
    assert json.loads(report.to_json())["files"][0]["diagnostics"][0]["layer_name"] == "in\ufffd\ufffd"
    assert irlint.infer(model).inputs[0]["name"] == "in\ufffd\ufffd"
