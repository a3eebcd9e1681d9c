#!/usr/bin/env python3
"""End-to-end checks that `infer`, `run` and `shape` with --format json answer every error with one JSON
document on stdout (docs/cli.md, "Errors with --format json"), exit as in the text format, and print the same
messages on stderr as the text format does.

    json_errors_test.py --irlint build/irlint --testdata testdata [--onnx-data DIR]

DIR is ONNX's test-data root (holding node/); without it, or in a build without ONNX support, the ONNX cases
are left out. Prints one line per failed check and a closing line `N passed, M failed`; exits 1 on any failure.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

TIMEOUT_SECONDS = 60
IRLINT = None
TESTDATA = None
ONNX_NODE = None  # a pooling node's test case of ONNX's test data, when ONNX cases run
SCRATCH = None
CHECKS = []

FINDING_KEYS = ["severity", "rule", "message", "line", "layer_id", "layer_name", "layer_type"]


class Failure(Exception):
    pass


def check(fn):
    CHECKS.append(fn)
    return fn


def expect(cond, message):
    if not cond:
        raise Failure(message)


def run(args):
    try:
        proc = subprocess.run([IRLINT] + [str(a) for a in args], capture_output=True, text=True, errors="replace",
                              timeout=TIMEOUT_SECONDS)
    except subprocess.TimeoutExpired:
        raise Failure(f"`irlint {' '.join(map(str, args))}` did not finish within {TIMEOUT_SECONDS}s")
    expect(proc.returncode >= 0, f"`irlint {' '.join(map(str, args))}` was killed by signal {-proc.returncode}")
    return proc


def td(*parts):
    path = os.path.join(TESTDATA, *parts)
    expect(os.path.exists(path), f"missing test input {path}")
    return path


def report_lists(args):
    """The lists of the command's report, which its error document has empty."""
    if args[0] == "infer":
        return ["layers"]
    if args[0] == "shape":
        registry_op = args[2] in ("Convolution",)  # the ops of the registry's document that these checks use
        return ["outputs", "types"] if registry_op else ["outputs", "pads_begin", "pads_end"]
    return ["runs"] if "--data" in args else ["outputs"]


def error_document(args, code):
    """Runs `args` with --format json and without; returns the JSON error document after checking the exit
    codes, that stderr is the text format's, and that the text format printed nothing on stdout."""
    text = run(args)
    proc = run(args + ["--format", "json"])
    what = " ".join(map(str, args))
    expect(text.returncode == code, f"{what}: text format exits {text.returncode}, expected {code}")
    expect(proc.returncode == code, f"{what} --format json: exit {proc.returncode}, expected {code}")
    expect(text.stdout == "", f"{what}: the text format printed on stdout: {text.stdout[:200]!r}")
    expect(proc.stderr == text.stderr, f"{what}: stderr differs: {proc.stderr!r} vs {text.stderr!r}")
    expect(proc.stderr.startswith("irlint: "), f"{what}: no message on stderr: {proc.stderr!r}")
    expect(proc.stdout.count("\n") == 1 and proc.stdout.endswith("}\n"),
           f"{what}: stdout is not one JSON line: {proc.stdout[:300]!r}")
    try:
        doc = json.loads(proc.stdout)
    except json.JSONDecodeError as e:
        raise Failure(f"{what}: stdout is not JSON ({e}): {proc.stdout[:300]!r}")
    expect(doc.get("tool") == "irlint" and isinstance(doc.get("version"), str), f"{what}: {doc}")
    expect(doc.get("status") == "error", f"{what}: status {doc.get('status')!r}")
    lists = report_lists(args)
    expect(list(doc) == ["tool", "version", "status", "error"] + lists + ["diagnostics"], f"{what}: keys {list(doc)}")
    expect(all(doc[key] == [] for key in lists), f"{what}: {doc}")
    findings = doc.get("diagnostics")
    expect(isinstance(findings, list) and findings, f"{what}: no diagnostics: {doc}")
    for f in findings:
        expect(list(f) == FINDING_KEYS, f"{what}: finding keys {list(f)}")
    errors = [f for f in findings if f["severity"] == "error"]
    expect(errors and doc["error"] == errors[0]["message"], f"{what}: error {doc.get('error')!r} vs {findings}")
    return doc


def only_finding(doc, rule, message_part):
    findings = doc["diagnostics"]
    expect(len(findings) == 1, f"expected one finding, got {findings}")
    f = findings[0]
    expect(f["severity"] == "error" and f["rule"] == rule, f"expected an error of rule {rule!r}: {f}")
    expect(message_part in f["message"], f"{message_part!r} not in {f['message']!r}")
    return f


# ---------------------------------------------------------------- infer

@check
def infer_missing_model():
    missing = os.path.join(SCRATCH, "missing.xml")
    f = only_finding(error_document(["infer", missing], 2), "ir-structure", "cannot open the file for reading")
    expect(f["line"] == 0 and f["layer_id"] == "", f)


@check
def infer_malformed_xml():
    doc = error_document(["infer", td("broken", "xml_malformed.xml")], 1)
    expect(all(f["rule"] == "xml-malformed" and f["line"] > 0 for f in doc["diagnostics"]), doc)


@check
def infer_not_an_ir_version_it_reads():
    f = only_finding(error_document(["infer", td("broken", "ir_version7.xml")], 1), "ir-structure",
                     "unsupported IR version '7'")
    expect(f["line"] == 3, f)


@check
def infer_unknown_layer():
    f = only_finding(error_document(["infer", td("hostile", "run_maxpool.xml"), "--layer", "nope"], 2), "",
                     "no layer with id or name 'nope'")
    expect(f["line"] == 0 and f["layer_id"] == "" and f["layer_name"] == "", f)


@check
def infer_quoted_text_is_escaped():
    # A control character and a quote in a name the message quotes: escaped as a model's text would be.
    proc = run(["infer", td("hostile", "run_maxpool.xml"), "--layer", 'x\x1b"y', "--format", "json"])
    expect(proc.returncode == 2, f"exit {proc.returncode}")
    expect("\x1b" not in proc.stdout and "\\u001b" in proc.stdout, repr(proc.stdout))
    doc = json.loads(proc.stdout)
    expect(doc["error"].endswith("no layer with id or name 'x\x1b\"y'"), doc)


@check
def infer_success_is_unchanged():
    proc = run(["infer", td("hostile", "run_maxpool.xml"), "--format", "json"])
    expect(proc.returncode == 0, f"exit {proc.returncode}: {proc.stderr}")
    doc = json.loads(proc.stdout)
    # the report keys, and (v3) the model at a glance after them; no error document
    expect(list(doc) == ["layers", "diagnostics", "model"] and "status" not in doc, doc)


# ---------------------------------------------------------------- shape

@check
def shape_unknown_op():
    # (Relu, once the example, is an op of the registry now: `shape` infers it)
    only_finding(error_document(["shape", "--op", "NoSuchOp", "--input", "1,3,4,4"], 2), "",
                 "--op NoSuchOp: irlint has no inference for this op type; `irlint ops` lists the ops it has")
    only_finding(error_document(["shape", "--op", "AdaptiveAvgPool", "--opset", "7", "--input", "1,3,4,4"], 2), "",
                 "--op AdaptiveAvgPool: not a pooling operator of opset7")


@check
def shape_registry_op_rejected():
    doc = error_document(["shape", "--op", "Convolution", "--input", "1,3,8,8", "--input", "4,2,3,3",
                          "--attr", "strides=1,1", "--attr", "pads_begin=0,0", "--attr", "pads_end=0,0",
                          "--attr", "dilations=1,1"], 1)
    expect(doc["outputs"] == [] and doc["types"] == [] and "pads_begin" not in doc, doc)
    f = only_finding(doc, "input-invalid", "Convolution-1: ")
    expect(f["layer_type"] == "Convolution", f)


@check
def shape_bad_input_dims():
    only_finding(error_document(["shape", "--op", "AvgPool", "--input", "1,3,x,4", "--attr", "kernel=2,2"], 2), "",
                 "--input 1,3,x,4: cannot parse dimension 'x'")


@check
def shape_attr_without_value():
    only_finding(error_document(["shape", "--op", "AvgPool", "--input", "1,3,4,4", "--attr", "kernel"], 2), "",
                 "--attr kernel: expected KEY=VALUE")


@check
def shape_bad_output_size():
    only_finding(error_document(["shape", "--op", "AdaptiveAvgPool", "--input", "1,3,4,4", "--output-size", "a"], 2),
                 "", "--output-size a:")


@check
def shape_invalid_attributes():
    doc = error_document(["shape", "--op", "AvgPool", "--input", "1,3,32,32", "--attr", "kernel=2,2"], 1)
    f = only_finding(doc, "attr-invalid", "AvgPool-16: strides has 0 values")
    expect(f["layer_type"] == "AvgPool" and f["layer_id"] == "" and f["line"] == 0, f)


@check
def shape_rejected_by_inference():
    doc = error_document(["shape", "--op", "MaxPool", "--input", "1,3,2,2", "--attr", "kernel=5,5",
                          "--attr", "strides=1,1"], 1)
    f = only_finding(doc, "attr-invalid", "MaxPool-14: ")
    expect(f["layer_type"] == "MaxPool", f)


@check
def shape_success_is_unchanged():
    proc = run(["shape", "--op", "MaxPool", "--input", "1,3,8,8", "--attr", "kernel=2,2", "--attr", "strides=2,2",
                "--format", "json"])
    expect(proc.returncode == 0, f"exit {proc.returncode}: {proc.stderr}")
    expect(list(json.loads(proc.stdout)) == ["outputs", "pads_begin", "pads_end"], proc.stdout)


# ---------------------------------------------------------------- run

def run_model():
    return td("hostile", "run_maxpool.xml")


@check
def run_missing_model():
    missing = os.path.join(SCRATCH, "missing.xml")
    only_finding(error_document(["run", missing, "--layer", "pool", "--input", td("hostile", "x_f32.npy")], 2),
                 "ir-structure", "cannot open the file for reading")


@check
def run_malformed_model():
    doc = error_document(["run", td("broken", "xml_truncated.xml"), "--layer", "pool", "--input",
                          td("hostile", "x_f32.npy")], 1)
    expect(doc["diagnostics"][0]["rule"] == "xml-malformed", doc)


@check
def run_without_layer_or_data():
    only_finding(error_document(["run", run_model()], 2), "", "give --layer and --input, or --data DIR")


@check
def run_bad_max_memory():
    only_finding(error_document(["run", run_model(), "--layer", "pool", "--input", td("hostile", "x_f32.npy"),
                                 "--max-memory", "lots"], 2), "", "--max-memory lots: expected a size")


@check
def run_unknown_layer():
    only_finding(error_document(["run", run_model(), "--layer", "nope", "--input", td("hostile", "x_f32.npy")], 2),
                 "", "no layer with id or name 'nope'; pooling layers: 1 'pool'")


@check
def run_layer_that_cannot_run():
    doc = error_document(["run", run_model(), "--layer", "input", "--input", td("hostile", "x_f32.npy")], 1)
    f = only_finding(doc, "", "layer 0 'input' is a Parameter")
    expect((f["layer_id"], f["layer_name"], f["layer_type"], f["line"]) == ("0", "input", "Parameter", 5), f)


@check
def run_data_dir_missing():
    only_finding(error_document(["run", run_model(), "--data", os.path.join(SCRATCH, "no-dir")], 2), "",
                 "no such directory")


@check
def run_data_dir_without_dumps():
    empty = os.path.join(SCRATCH, "empty-dumps")
    os.makedirs(empty, exist_ok=True)
    only_finding(error_document(["run", run_model(), "--data", empty], 2), "",
                 "no <layer-id>.in0.npy of a pooling layer")


@check
def run_unreadable_npy_is_the_runs_document():
    # The layer was found and ran into its data: the run's own document, with its status and reason.
    proc = run(["run", run_model(), "--layer", "pool", "--input", os.path.join(SCRATCH, "missing.npy"),
                "--format", "json"])
    expect(proc.returncode == 1, f"exit {proc.returncode}: {proc.stderr}")
    doc = json.loads(proc.stdout)
    expect(doc["status"] == "error" and doc["layer"]["name"] == "pool" and doc["error"], doc)
    bad = run(["run", run_model(), "--layer", "pool", "--input", td("hostile", "npy_bad_magic.npy"), "--format",
               "json"])
    expect(bad.returncode == 1 and json.loads(bad.stdout)["status"] == "error", bad.stdout)


@check
def parser_errors_stay_text():
    proc = run(["infer", run_model(), "--format", "json", "--no-such-flag"])
    expect(proc.returncode == 2 and proc.stdout == "", f"exit {proc.returncode}, stdout {proc.stdout!r}")
    expect("--no-such-flag" in proc.stderr, proc.stderr)


# ---------------------------------------------------------------- ONNX models

def onnx_model():
    return os.path.join(ONNX_NODE, "model.onnx")


@check
def onnx_missing_model():
    if not ONNX_NODE:
        return
    missing = os.path.join(SCRATCH, "missing.onnx")
    only_finding(error_document(["infer", missing], 2), "ir-structure", "no such file or directory")
    only_finding(error_document(["run", missing, "--layer", "0", "--input", "x.pb"], 2), "ir-structure",
                 "no such file or directory")


@check
def onnx_malformed_model():
    if not ONNX_NODE:
        return
    bad = os.path.join(SCRATCH, "garbage.onnx")
    with open(bad, "wb") as f:
        f.write(b"\xff\xff\xff\xffnot a protobuf")
    only_finding(error_document(["infer", bad], 1), "ir-structure", "")
    only_finding(error_document(["run", bad, "--layer", "0", "--input", "x.pb"], 1), "ir-structure", "")


@check
def onnx_unknown_node():
    if not ONNX_NODE:
        return
    data = os.path.join(ONNX_NODE, "test_data_set_0", "input_0.pb")
    only_finding(error_document(["infer", onnx_model(), "--layer", "nope"], 2), "", "no layer with id or name 'nope'")
    only_finding(error_document(["run", onnx_model(), "--layer", "nope", "--input", data], 2), "", "'nope'")


@check
def onnx_data_dir_without_dumps():
    if not ONNX_NODE:
        return
    empty = os.path.join(SCRATCH, "empty-onnx-dumps")
    os.makedirs(empty, exist_ok=True)
    only_finding(error_document(["run", onnx_model(), "--data", empty], 2), "",
                 "no <node-index>.in0.npy of a pooling node")


@check
def onnx_without_its_helper():
    # A copy of the binary alone cannot hand an .onnx model to irlint-onnx: a file it could not check.
    lonely = os.path.join(SCRATCH, "lonely")
    os.makedirs(lonely, exist_ok=True)
    binary = os.path.join(lonely, "irlint")
    shutil.copy2(IRLINT, binary)
    model = os.path.join(SCRATCH, "some.onnx")
    open(model, "wb").close()
    for args in (["infer", model, "--format", "json"], ["run", model, "--layer", "0", "--input", "x.pb",
                                                        "--format", "json"]):
        proc = subprocess.run([binary] + args, capture_output=True, text=True, timeout=TIMEOUT_SECONDS)
        expect(proc.returncode == 2, f"{args}: exit {proc.returncode}: {proc.stderr}")
        doc = json.loads(proc.stdout)
        expect(doc["status"] == "error" and doc["diagnostics"][0]["rule"] == "check-failed", doc)
        expect(doc[report_lists(args)[0]] == [], doc)
        expect(doc["diagnostics"][0]["message"] in proc.stderr, f"{doc} vs {proc.stderr!r}")


def onnx_node_case(root):
    """The test case the ONNX checks use; None without --onnx-data or in a build that does not read ONNX."""
    version = subprocess.run([IRLINT, "--version"], capture_output=True, text=True, timeout=TIMEOUT_SECONDS).stdout
    if not root or "ONNX support: yes" not in version:
        return None
    case = os.path.join(root, "node", "test_maxpool_2d_default")
    if not os.path.isfile(os.path.join(case, "model.onnx")):
        sys.exit(f"--onnx-data {root}: no node/test_maxpool_2d_default/model.onnx")
    return case


def main():
    global IRLINT, TESTDATA, ONNX_NODE, SCRATCH
    parser = argparse.ArgumentParser()
    parser.add_argument("--irlint", required=True)
    parser.add_argument("--testdata", required=True)
    parser.add_argument("--onnx-data", default="")
    args = parser.parse_args()
    IRLINT, TESTDATA = os.path.abspath(args.irlint), args.testdata
    ONNX_NODE = onnx_node_case(args.onnx_data)
    if not ONNX_NODE:
        print("note: no ONNX test data or no ONNX support: the ONNX models' cases are left out")
    failed = 0
    with tempfile.TemporaryDirectory() as scratch:
        SCRATCH = scratch
        for fn in CHECKS:
            try:
                fn()
            except Failure as e:
                failed += 1
                print(f"FAIL {fn.__name__}: {e}")
            except Exception as e:  # one broken check must not hide the others
                failed += 1
                print(f"FAIL {fn.__name__}: {type(e).__name__}: {e}")
    print(f"{len(CHECKS) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
