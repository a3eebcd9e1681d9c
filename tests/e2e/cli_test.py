#!/usr/bin/env python3
"""End-to-end checks of irlint's command-line surface (the surface is described in docs/cli.md).

    cli_test.py --irlint build/irlint --testdata testdata

Each check runs the real binary. Prints one line per failed check and a closing line `N passed, M failed`;
exits 1 on any failure.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

TIMEOUT_SECONDS = 60
IRLINT = None
TESTDATA = None
CHECKS = []

# contract: a static dim is an int, -1 is fully dynamic, "lo..hi" an interval, "lo.." one with no upper bound
INTERVAL = re.compile(r"^\d+\.\.(\d+)?$")


class Failure(Exception):
    pass


def check(fn):
    CHECKS.append(fn)
    return fn


def run(*args, cwd=None):
    try:
        proc = subprocess.run([IRLINT] + [str(a) for a in args], capture_output=True, text=True, errors="replace",
                              timeout=TIMEOUT_SECONDS, cwd=cwd)
    except subprocess.TimeoutExpired:
        raise Failure(f"`irlint {' '.join(map(str, args))}` did not finish within {TIMEOUT_SECONDS}s")
    if proc.returncode < 0:
        raise Failure(f"`irlint {' '.join(map(str, args))}` was killed by signal {-proc.returncode}")
    return proc


def td(*parts):
    return os.path.join(TESTDATA, *parts)


def expect_exit(proc, code, what):
    if proc.returncode != code:
        detail = (proc.stderr.strip() or proc.stdout.strip())[:300]
        raise Failure(f"{what}: exit {proc.returncode}, expected {code}" + (f" ({detail})" if detail else ""))


def expect(cond, message):
    if not cond:
        raise Failure(message)


def load_json(proc, what):
    try:
        return json.loads(proc.stdout)
    except ValueError as e:
        raise Failure(f"{what}: output is not JSON ({e}): {proc.stdout[:200]!r}")


def is_dim(value):
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return value >= -1
    return isinstance(value, str) and INTERVAL.match(value) is not None


def expect_dims(dims, what):
    expect(isinstance(dims, list), f"{what}: {dims!r} is not a list of dims")
    for d in dims:
        expect(is_dim(d), f"{what}: dim {d!r} in {dims!r} is not an int >= -1, 'lo..hi' or 'lo..'")


def expect_keys(obj, keys, what):
    expect(isinstance(obj, dict), f"{what}: {obj!r} is not an object")
    missing = [k for k in keys if k not in obj]
    expect(not missing, f"{what}: missing keys {missing}")


# ---------------------------------------------------------------- global options

@check
def version_exits_0():
    proc = run("--version")
    expect_exit(proc, 0, "--version")
    expect(re.search(r"\d+\.\d+\.\d+", proc.stdout + proc.stderr), f"--version prints no X.Y.Z: {proc.stdout!r}")


@check
def help_exits_0():
    proc = run("--help")
    expect_exit(proc, 0, "--help")
    for sub in ("check", "infer", "shape", "run", "merge", "rules"):
        expect(sub in proc.stdout, f"--help does not mention the {sub} subcommand")


@check
def options_follow_their_subcommand():
    # Only the invoked subcommand's options are declared: a subcommand's flag given to another one is refused,
    # and a flag before the subcommand does not hide which subcommand runs.
    expect_exit(run("check", "--expect", "y.npy", td("valid")), 2, "check --expect")
    proc = run("-h", "run")
    expect_exit(proc, 0, "irlint -h run")
    expect("--expect" in proc.stdout, f"irlint -h run does not show run's options: {proc.stdout[:300]!r}")


@check
def no_subcommand_is_usage_error():
    expect_exit(run(), 2, "irlint without arguments")


# ---------------------------------------------------------------- check

@check
def check_nonexistent_path_exits_2():
    expect_exit(run("check", td("no-such-dir", "missing.xml")), 2, "check of a path that does not exist")


@check
def check_unknown_flag_exits_2():
    expect_exit(run("check", "--no-such-flag", td("valid")), 2, "check --no-such-flag")


@check
def check_bad_format_exits_2():
    expect_exit(run("check", td("valid"), "--format", "yaml"), 2, "check --format yaml")


@check
def check_directory_without_xml_exits_2():
    with tempfile.TemporaryDirectory() as tmp:
        expect_exit(run("check", tmp), 2, "check of a directory with no .xml files")


@check
def check_valid_directory_exits_0():
    proc = run("check", td("valid"))
    expect_exit(proc, 0, "check testdata/valid")


@check
def check_broken_file_exits_1():
    proc = run("check", td("broken", "output_shape_3d.xml"))
    expect_exit(proc, 1, "check broken/output_shape_3d.xml")
    expect("output-shape-mismatch" in proc.stdout, "the text output does not name the rule output-shape-mismatch")


@check
def check_json_schema():
    proc = run("check", td("spec"), td("valid"), "--format", "json")
    expect_exit(proc, 1, "check spec valid --format json (spec examples 1 and 2 are wrong)")
    report = load_json(proc, "check --format json")
    expect_keys(report, ["tool", "version", "files", "summary"], "report")
    expect(report["tool"] == "irlint", f"tool is {report['tool']!r}, expected 'irlint'")
    expect(isinstance(report["version"], str) and re.match(r"^\d+\.\d+\.\d+", report["version"]),
           f"version {report['version']!r} is not X.Y.Z")
    files = report["files"]
    expect(isinstance(files, list) and files, "files is not a non-empty list")
    n_xml = sum(1 for d in ("spec", "valid") for f in os.listdir(td(d)) if f.endswith(".xml"))
    expect(len(files) == n_xml, f"{len(files)} files reported, {n_xml} .xml files given")
    counts = {"error": 0, "warning": 0, "note": 0}
    for f in files:
        expect_keys(f, ["path", "layers", "checked", "diagnostics"], "files[]")
        expect(isinstance(f["path"], str) and f["path"].endswith(".xml"), f"files[].path {f['path']!r}")
        for key in ("layers", "checked"):
            expect(isinstance(f[key], int) and f[key] >= 0, f"{f['path']}: {key} is {f[key]!r}")
        expect(f["checked"] <= f["layers"], f"{f['path']}: checked {f['checked']} > layers {f['layers']}")
        expect(isinstance(f["diagnostics"], list), f"{f['path']}: diagnostics is not a list")
        for d in f["diagnostics"]:
            expect_keys(d, ["severity", "rule", "message", "line", "layer_id", "layer_name", "layer_type"],
                        f"{f['path']}: diagnostics[]")
            expect(d["severity"] in counts, f"{f['path']}: severity {d['severity']!r}")
            expect(re.match(r"^[a-z]+(-[a-z]+)*$", d["rule"] or ""), f"{f['path']}: rule {d['rule']!r} is not kebab-case")
            expect(isinstance(d["line"], int) and d["line"] >= 0, f"{f['path']}: line {d['line']!r}")
            for key in ("message", "layer_id", "layer_name", "layer_type"):
                expect(isinstance(d[key], str), f"{f['path']}: {key} is not a string")
            counts[d["severity"]] += 1
    spec1 = [f for f in files if f["path"].endswith("avgpool1_example1.xml")]
    expect(len(spec1) == 1, "spec/avgpool1_example1.xml is not in the report")
    errs = [d for d in spec1[0]["diagnostics"] if d["severity"] == "error"]
    expect(any(d["rule"] == "output-shape-mismatch" for d in errs), "avgpool1_example1: no output-shape-mismatch")
    located = [d for d in errs if d["rule"] == "output-shape-mismatch"][0]
    expect(located["layer_id"] == "1" and located["layer_name"] == "pool" and located["layer_type"] == "AvgPool"
           and located["line"] > 0, f"avgpool1_example1: the finding is not located at layer 1 'pool': {located}")
    summary = report["summary"]
    expect_keys(summary, ["files", "errors", "warnings", "notes"], "summary")
    expect(summary["files"] == len(files), f"summary.files {summary['files']} != {len(files)}")
    for sev, key in (("error", "errors"), ("warning", "warnings"), ("note", "notes")):
        expect(summary[key] == counts[sev], f"summary.{key} {summary[key]} != {counts[sev]} {sev} diagnostics")


@check
def check_output_file_matches_stdout():
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "report.json")
        proc = run("check", td("spec"), "--format", "json", "-o", out)
        expect_exit(proc, 1, "check spec --format json -o FILE")
        expect(os.path.isfile(out), "-o FILE did not write FILE")
        with open(out, encoding="utf-8") as f:
            written = f.read()
        stdout = run("check", td("spec"), "--format", "json").stdout
        expect(written == stdout, "the -o file differs from what stdout gets without -o")
        left = sorted(os.listdir(tmp))
        expect(left == ["report.json"], f"-o left other files in the directory: {left}")


@check
def check_output_file_text_format():
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "report.txt")
        proc = run("check", td("broken", "output_shape_3d.xml"), "-o", out)
        expect_exit(proc, 1, "check broken/output_shape_3d.xml -o FILE")
        with open(out, encoding="utf-8") as f:
            written = f.read()
        without_time = lambda text: [line for line in text.splitlines() if "wall time" not in line]
        expect(without_time(written) == without_time(run("check", td("broken", "output_shape_3d.xml")).stdout),
               "the text written with -o differs from stdout (the wall time aside)")
        expect(sorted(os.listdir(tmp)) == ["report.txt"], f"-o left other files: {sorted(os.listdir(tmp))}")


@check
def check_fail_on_never_exits_0_on_errors():
    expect_exit(run("check", td("broken", "output_shape_3d.xml"), "--fail-on", "never"), 0,
                "check --fail-on never on a file with an error")


@check
def check_fail_on_warning_exits_1_on_warning_only():
    path = td("broken", "attr_dilations_maxpool1.xml")
    report = load_json(run("check", path, "--format", "json"), "check attr_dilations_maxpool1.xml")
    sevs = [d["severity"] for f in report["files"] for d in f["diagnostics"]]
    expect("warning" in sevs and "error" not in sevs, f"attr_dilations_maxpool1.xml should give only warnings: {sevs}")
    expect_exit(run("check", path), 0, "check (default --fail-on error) on a file with only a warning")
    expect_exit(run("check", path, "--fail-on", "warning"), 1, "check --fail-on warning on a file with a warning")


@check
def check_fail_on_error_is_default():
    path = td("broken", "output_shape_3d.xml")
    expect_exit(run("check", path, "--fail-on", "error"), 1, "check --fail-on error on a file with an error")


@check
def internal_error_exits_2():
    # Out of memory under a 48 MiB address-space limit is not a finding: exit 2 and a request for a bug report.
    import resource

    with open(IRLINT, "rb") as binary:
        if b"__asan_init" in binary.read():
            return  # a sanitizer build cannot run under an address-space limit (its shadow memory is terabytes)

    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (48 << 20, 48 << 20))

    layer = ('<layer id="{i}" name="r{i}" type="Relu" version="opset1"><input><port id="0" precision="FP32">'
             '<dim>1</dim><dim>64</dim></port></input><output><port id="1" precision="FP32"><dim>1</dim><dim>64</dim>'
             '</port></output></layer>\n')
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "big.xml")
        with open(path, "w") as f:
            f.write('<net name="big" version="11"><layers>\n')
            f.writelines(layer.format(i=i) for i in range(100000))
            f.write("</layers><edges/></net>\n")
        proc = subprocess.run([IRLINT, "infer", path], capture_output=True, text=True, errors="replace",
                              timeout=TIMEOUT_SECONDS, preexec_fn=limit)
        as_json = subprocess.run([IRLINT, "infer", path, "--format", "json"], capture_output=True, text=True,
                                 errors="replace", timeout=TIMEOUT_SECONDS, preexec_fn=limit)
    if "Sanitizer" in proc.stderr:
        return  # a sanitizer build cannot start under an address-space limit
    expect_exit(proc, 2, "infer under a 48 MiB address-space limit")
    expect("internal error: out of memory" in proc.stderr and "please report it" in proc.stderr, proc.stderr)
    # With --format json the error is also the one JSON document on stdout.
    expect_exit(as_json, 2, "infer --format json under a 48 MiB address-space limit")
    doc = load_json(as_json, "infer --format json out of memory")
    expect(doc["status"] == "error" and doc["error"].startswith("internal error: out of memory"), doc)
    expect(doc["diagnostics"][0]["rule"] == "", doc)


# ---------------------------------------------------------------- infer

def infer_json(*args, code=0):
    proc = run("infer", *args, "--format", "json")
    expect_exit(proc, code, "infer " + " ".join(map(str, args)))
    out = load_json(proc, "infer --format json")
    expect_keys(out, ["layers"], "infer output")
    for layer in out["layers"]:
        expect_keys(layer, ["id", "name", "type", "version", "inputs", "declared", "inferred", "status"], "layers[]")
        expect(layer["status"] in ("ok", "mismatch", "invalid", "unsupported"),
               f"layer {layer['name']}: status {layer['status']!r}")
        for key in ("inputs", "declared", "inferred"):
            expect(isinstance(layer[key], list), f"layer {layer['name']}: {key} is not a list")
            for dims in layer[key]:
                expect_dims(dims, f"layer {layer['name']} {key}")
    return out["layers"]


def by_name(layers, name):
    found = [layer for layer in layers if layer["name"] == name]
    expect(len(found) == 1, f"infer: {len(found)} layers named {name!r}")
    return found[0]


@check
def infer_json_layers():
    layers = infer_json(td("valid", "pool_chain.xml"))
    pool1 = by_name(layers, "pool1")
    expect(pool1["id"] == "1" and pool1["type"] == "MaxPool" and pool1["version"] == "opset8",
           f"pool1 is {pool1}")
    expect(pool1["inputs"] == [[1, 3, 64, 64]], f"pool1 inputs {pool1['inputs']}")
    expect(pool1["inferred"] == [[1, 3, 32, 32], [1, 3, 32, 32]], f"pool1 inferred {pool1['inferred']}")
    expect(pool1["declared"] == pool1["inferred"] and pool1["status"] == "ok", f"pool1 is {pool1}")
    pool2 = by_name(layers, "pool2")
    expect(pool2["inferred"] == [[1, 3, 16, 16]], f"pool2 (AvgPool-14 ceil_torch) inferred {pool2['inferred']}")


@check
def infer_interval_spelling():
    layers = infer_json(td("valid", "maxpool8_dynamic_interval.xml"))
    pool = by_name(layers, "pool")
    expect(pool["inputs"] == [[1, 3, "16..64", -1]], f"inputs {pool['inputs']}, expected [[1,3,\"16..64\",-1]]")
    # OpenVINO: floor((16..64 - 2) / 2) + 1 = 8..32; floor((? - 2) / 2) + 1 = 1..
    expected = [[1, 3, "8..32", "1.."], [1, 3, "8..32", "1.."]]
    expect(pool["inferred"] == expected, f"inferred {pool['inferred']}, expected {expected}")
    expect(pool["declared"] == [[1, 3, -1, -1], [1, 3, -1, -1]], f"declared {pool['declared']}")


@check
def infer_mismatch_exits_1():
    layers = infer_json(td("spec", "avgpool1_example1.xml"), code=1)
    pool = by_name(layers, "pool")
    expect(pool["status"] == "mismatch", f"status {pool['status']!r}, expected mismatch")
    expect(pool["declared"] == [[1, 3, 32, 32]] and pool["inferred"] == [[1, 3, 16, 16]],
           f"declared {pool['declared']} inferred {pool['inferred']}")


@check
def infer_layer_filter_by_name_and_id():
    layers = infer_json(td("valid", "pool_chain.xml"), "--layer", "pool2")
    expect([layer["name"] for layer in layers] == ["pool2"], f"--layer pool2 gave {[l['name'] for l in layers]}")
    layers = infer_json(td("valid", "pool_chain.xml"), "--layer", "3")
    expect([layer["name"] for layer in layers] == ["pool3"], f"--layer 3 gave {[l['name'] for l in layers]}")
    layers = infer_json(td("valid", "pool_chain.xml"), "--layer", "pool1", "--layer", "pool3")
    expect(sorted(layer["name"] for layer in layers) == ["pool1", "pool3"],
           f"--layer pool1 --layer pool3 gave {[l['name'] for l in layers]}")


@check
def infer_unknown_layer_exits_2():
    expect_exit(run("infer", td("valid", "pool_chain.xml"), "--layer", "no_such_layer"), 2,
                "infer --layer no_such_layer")


@check
def infer_missing_file_exits_2():
    expect_exit(run("infer", td("valid", "no_such_model.xml")), 2, "infer of a file that does not exist")


def manifest_rows(top):
    """(path, check exit code) of testdata/expectations.tsv rows under testdata/<top>/."""
    rows = []
    with open(td("expectations.tsv"), encoding="utf-8") as f:
        for line in f:
            fields = line.rstrip("\n").split("\t")
            if len(fields) == 4 and fields[0].startswith(top + "/"):
                rows.append((fields[0], int(fields[1])))
    return rows


@check
def infer_fails_where_check_fails():
    # infer reports what check finds: every broken file check fails on makes infer exit 1 too, with the
    # findings on stderr (text) or in "diagnostics" (JSON); the others exit 0.
    rows = manifest_rows("broken")
    expect(len(rows) > 40, f"only {len(rows)} broken rows in expectations.tsv")
    for path, code in rows:
        proc = run("infer", td(path))
        expect_exit(proc, code, f"infer {path}")
        if code:
            expect(re.search(r": error: .*\[[a-z-]+\]", proc.stderr),
                   f"infer {path}: no finding on stderr: {proc.stderr!r}")
        proc = run("infer", td(path), "--format", "json")
        expect_exit(proc, code, f"infer {path} --format json")
        if code and proc.stdout:
            out = load_json(proc, f"infer {path} --format json")
            errors = [d for d in out["diagnostics"] if d["severity"] == "error"]
            expect(errors, f"infer {path} --format json: no error in diagnostics")


@check
def infer_structural_findings_mark_layers_invalid():
    # every layer on the cycle is invalid; the finding names the first
    proc = run("infer", td("broken", "cycle.xml"), "--format", "json")
    expect_exit(proc, 1, "infer cycle.xml")
    out = load_json(proc, "infer cycle.xml")
    # the pooling layers, and every layer with a finding: all on the cycle or fed from it
    expect([(l["name"], l["status"], l["checked"]) for l in out["layers"]] ==
           [("add", "invalid", False), ("pool_a", "invalid", False), ("pool_b", "invalid", False),
            ("output", "invalid", False)], f"cycle.xml rows {out['layers']}")
    expect([d["rule"] for d in out["diagnostics"]] == ["ir-structure"] and "cycle" in out["diagnostics"][0]["message"],
           f"cycle.xml diagnostics {out['diagnostics']}")
    for name, rule in (("input_fed_twice.xml", "fed twice"), ("unconnected_input.xml", "no incoming edge"),
                       ("unknown_precision.xml", "unknown precision 'FP33'")):
        proc = run("infer", td("broken", name))
        expect_exit(proc, 1, f"infer {name}")
        expect(rule in proc.stderr, f"infer {name}: stderr lacks {rule!r}: {proc.stderr!r}")
        expect(re.search(r"^  \d+\s+pool\s+MaxPool\s.*\binvalid$", proc.stdout, re.M), f"infer {name}: {proc.stdout!r}")
    proc = run("infer", td("broken", "no_layers.xml"))
    expect_exit(proc, 1, "infer no_layers.xml")
    expect("no_layers.xml:3: error: <net> has no <layers> element [ir-structure]" in proc.stderr, proc.stderr)


@check
def infer_lists_pooling_layers_unless_all():
    layers = infer_json(td("valid", "pool_chain.xml"))
    expect({l["type"] for l in layers} <= {"MaxPool", "AvgPool", "AdaptiveAvgPool", "AdaptiveMaxPool"} and layers,
           f"default rows {[l['type'] for l in layers]}")
    every = infer_json(td("valid", "pool_chain.xml"), "--all")
    types = [l["type"] for l in every]
    expect("Parameter" in types and "Result" in types and len(every) > len(layers), f"--all rows {types}")
    proc = run("infer", td("valid", "pool_chain.xml"))
    hidden = len(every) - len(layers)
    expect(f"({hidden} other layers not shown: --all lists every layer)" in proc.stdout, proc.stdout)
    proc = run("infer", td("valid", "pool_chain.xml"), "--all")
    expect("not shown" not in proc.stdout and "Parameter" in proc.stdout, proc.stdout)
    out = load_json(run("infer", td("valid", "pool_chain.xml"), "--format", "json"), "infer json")
    expect(out["diagnostics"] == [], f"a valid model has diagnostics {out['diagnostics']}")


# ---------------------------------------------------------------- shape

def shape_json(*args, code=0):
    proc = run("shape", *args, "--format", "json")
    expect_exit(proc, code, "shape " + " ".join(map(str, args)))
    if code != 0:
        return None
    out = load_json(proc, "shape --format json")
    expect_keys(out, ["outputs", "pads_begin", "pads_end"], "shape output")
    for dims in out["outputs"]:
        expect_dims(dims, "shape outputs")
    return out


@check
def shape_maxpool14_ceil_torch():
    out = shape_json("--op", "MaxPool", "--opset", "14", "--input", "1,64,112,112", "--attr", "kernel=3,3",
                     "--attr", "strides=2,2", "--attr", "rounding_type=ceil_torch")
    expect(out["outputs"] == [[1, 64, 56, 56], [1, 64, 56, 56]], f"outputs {out['outputs']}")
    expect(out["pads_begin"] == [0, 0] and out["pads_end"] == [0, 0],
           f"pads {out['pads_begin']} / {out['pads_end']}, expected [0,0] / [0,0]")


@check
def shape_ceil_torch_drops_window_in_padding():
    args = ["--op", "MaxPool", "--opset", "14", "--input", "1,1,5,5", "--attr", "kernel=2,2", "--attr",
            "strides=2,2", "--attr", "pads_begin=1,1", "--attr", "pads_end=1,1"]
    out = shape_json(*args, "--attr", "rounding_type=ceil_torch")
    expect(out["outputs"][0] == [1, 1, 3, 3], f"ceil_torch: {out['outputs'][0]}, expected [1,1,3,3]")
    out = shape_json(*args, "--attr", "rounding_type=ceil")
    expect(out["outputs"][0] == [1, 1, 4, 4], f"ceil: {out['outputs'][0]}, expected [1,1,4,4]")


@check
def shape_avgpool1_explicit_pads():
    out = shape_json("--op", "AvgPool", "--opset", "1", "--input", "1,3,32,32", "--attr", "kernel=5,5",
                     "--attr", "strides=2,2", "--attr", "pads_begin=1,1", "--attr", "pads_end=1,1",
                     "--attr", "exclude-pad=false")
    expect(out["outputs"] == [[1, 3, 15, 15]], f"outputs {out['outputs']}, expected [[1,3,15,15]]")
    expect(out["pads_begin"] == [1, 1] and out["pads_end"] == [1, 1], f"pads {out['pads_begin']} {out['pads_end']}")


@check
def shape_same_upper_stride2():
    out = shape_json("--op", "AvgPool", "--opset", "1", "--input", "1,3,32,32", "--attr", "kernel=2,2",
                     "--attr", "strides=2,2", "--attr", "auto_pad=same_upper")
    expect(out["outputs"] == [[1, 3, 16, 16]], f"outputs {out['outputs']}, expected ceil(32/2) = 16")
    # kernel 5, stride 2: total padding (16-1)*2+5-32 = 3; same_upper puts the odd one at the end
    out = shape_json("--op", "AvgPool", "--opset", "1", "--input", "1,3,32,32", "--attr", "kernel=5,5",
                     "--attr", "strides=2,2", "--attr", "auto_pad=same_upper")
    expect(out["outputs"] == [[1, 3, 16, 16]], f"k5 outputs {out['outputs']}")
    expect(out["pads_begin"] == [1, 1] and out["pads_end"] == [2, 2],
           f"same_upper pads {out['pads_begin']} / {out['pads_end']}, expected [1,1] / [2,2]")
    out = shape_json("--op", "AvgPool", "--opset", "1", "--input", "1,3,32,32", "--attr", "kernel=5,5",
                     "--attr", "strides=2,2", "--attr", "auto_pad=same_lower")
    expect(out["pads_begin"] == [2, 2] and out["pads_end"] == [1, 1],
           f"same_lower pads {out['pads_begin']} / {out['pads_end']}, expected [2,2] / [1,1]")


@check
def shape_valid_applies_rounding():
    out = shape_json("--op", "MaxPool", "--opset", "8", "--input", "1,1,3,3", "--attr", "kernel=2,2",
                     "--attr", "strides=2,2", "--attr", "auto_pad=valid", "--attr", "rounding_type=ceil",
                     "--attr", "pads_begin=1,1", "--attr", "pads_end=1,1")
    expect(out["outputs"][0] == [1, 1, 2, 2], f"valid + ceil on 3x3: {out['outputs'][0]}, expected [1,1,2,2]")


@check
def shape_bad_attribute_exits_1():
    shape_json("--op", "AvgPool", "--opset", "1", "--input", "1,3,32,32", "--attr", "kernel=0,5",
               "--attr", "strides=2,2", code=1)
    shape_json("--op", "MaxPool", "--opset", "8", "--input", "1,3,32,32", "--attr", "kernel=2,2",
               "--attr", "strides=2,2", "--attr", "rounding_type=ceil_torch", code=1)


@check
def shape_interval_input():
    out = shape_json("--op", "MaxPool", "--input", "1,3,2..10,?", "--attr", "kernel=3,3", "--attr", "strides=1,1")
    # OpenVINO: (2..10) - 3 saturates at 0 -> 0..7, +1 -> 1..8; ? -> 1..
    expect(out["outputs"][0] == [1, 3, "1..8", "1.."], f"outputs {out['outputs'][0]}, expected [1,3,\"1..8\",\"1..\"]")
    out = shape_json("--op", "MaxPool", "--input", "1,3,5..,-1", "--attr", "kernel=3,3", "--attr", "strides=2,2")
    expect(out["outputs"][0] == [1, 3, "2..", "1.."], f"outputs {out['outputs'][0]}, expected [1,3,\"2..\",\"1..\"]")


@check
def shape_adaptive_output_size():
    out = shape_json("--op", "AdaptiveAvgPool", "--input", "1,3,32,32", "--output-size", "7,7")
    expect(out["outputs"] == [[1, 3, 7, 7]], f"outputs {out['outputs']}")
    out = shape_json("--op", "AdaptiveMaxPool", "--input", "2,8,40", "--output-size", "5")
    expect(out["outputs"] == [[2, 8, 5], [2, 8, 5]], f"AdaptiveMaxPool outputs {out['outputs']}")
    # the same DIMS syntax as --input: intervals and dynamic dims pass through, as OpenVINO propagates them
    out = shape_json("--op", "AdaptiveAvgPool", "--input", "1,3,32,32,32", "--output-size", "2..6,3,12..13")
    expect(out["outputs"] == [[1, 3, "2..6", 3, "12..13"]], f"interval output_size: {out['outputs']}")
    out = shape_json("--op", "AdaptiveMaxPool", "--input", "1,3,32,32", "--output-size", "-1,4..")
    expect(out["outputs"] == [[1, 3, -1, "4.."], [1, 3, -1, "4.."]], f"dynamic output_size: {out['outputs']}")
    proc = run("shape", "--op", "AdaptiveAvgPool", "--input", "1,3,32,32,32", "--output-size", "2..6,3,12..13")
    expect("dim 2: output_size = 2..6\n" in proc.stdout and "output 0: [1,3,2..6,3,12..13]" in proc.stdout,
           proc.stdout)
    expect_exit(run("shape", "--op", "AdaptiveAvgPool", "--input", "1,3,8,8", "--output-size", "x,2"), 2,
                "shape --output-size x,2")
    expect_exit(run("shape", "--op", "AdaptiveAvgPool", "--input", "1,3,8,8", "--output-size", "2,2,2"), 1,
                "shape --output-size with one value too many")


@check
def shape_usage_errors_exit_2():
    expect_exit(run("shape", "--op", "MaxPool", "--input", "1,3,x,8", "--attr", "kernel=2,2"), 2,
                "shape with an unparsable --input")
    expect_exit(run("shape", "--input", "1,3,8,8"), 2, "shape without --op")


CONV_ARGS = ["--op", "Convolution", "--input", "1,3,224,224", "--input", "64,3,7,7", "--attr", "strides=2,2",
             "--attr", "pads_begin=3,3", "--attr", "pads_end=3,3", "--attr", "dilations=1,1", "--attr", "auto_pad=explicit"]


def registry_json(*args, code=0):
    proc = run("shape", *args, "--format", "json")
    expect_exit(proc, code, "shape " + " ".join(map(str, args)))
    out = load_json(proc, "shape --format json")
    if code == 0:
        expect(list(out)[:2] == ["outputs", "types"] and "pads_begin" not in out, f"keys {list(out)}")
        for dims in out["outputs"]:
            expect_dims(dims, "shape outputs")
    return out


@check
def shape_registry_convolution_arithmetic():
    proc = run("shape", *CONV_ARGS)
    expect_exit(proc, 0, "shape --op Convolution")
    expect(proc.stdout.startswith("Convolution-1 on [1,3,224,224]:f32 [64,3,7,7]:f32\n"), proc.stdout)
    expect("  output 0: [1,64,112,112]:f32\n    dim 2: floor((224+3+3-7)/2)+1 = 112\n"
           "    dim 3: floor((224+3+3-7)/2)+1 = 112\n" in proc.stdout, proc.stdout)
    # the type compared without regard to case, as OpenVINO reads IR types
    out = registry_json(*["convolution" if a == "Convolution" else a for a in CONV_ARGS])
    expect(out == {"outputs": [[1, 64, 112, 112]], "types": ["f32"]}, out)


@check
def shape_registry_reshape_values():
    args = ["--op", "Reshape", "--input", "1,3,224,224", "--input", "2:i64", "--attr", "special_zero=false"]
    out = registry_json(*args, "--value", "1=1,-1")
    expect(out == {"outputs": [[1, 150528]], "types": ["f32"]}, out)
    # without :TYPE an input with values is i64
    proc = run("shape", "--op", "Reshape", "--input", "2,3,4", "--input", "3", "--value", "1=0,4,-1",
               "--attr", "special_zero=true")
    expect_exit(proc, 0, "shape --op Reshape with special_zero")
    expect(proc.stdout.startswith("Reshape-1 on [2,3,4]:f32 [3]:i64\n") and "output 0: [2,4,3]:f32" in proc.stdout,
           proc.stdout)
    # values that do not fit the input's dims are usage errors that say so
    proc = run("shape", *args, "--value", "1=1,-1,3")
    expect_exit(proc, 2, "shape --value with 3 values for a [2] input")
    expect("--value 1=1,-1,3: input 1 [2] has 2 elements" in proc.stderr, proc.stderr)
    for bad, message in [("1=1,x", "'x' is not an integer"), ("2=1,1", "input 2 is not given"),
                         ("one=1", "expected INDEX=v1,v2,..."), ("0=1", "give static dims")]:
        proc = run("shape", "--op", "Reshape", "--input", "?,3", "--input", "2:i64", "--value", bad)
        expect_exit(proc, 2, f"shape --value {bad}")
        expect(message in proc.stderr, f"--value {bad}: {proc.stderr!r}")
    proc = run("shape", "--op", "Reshape", "--input", "1", "--input", "4097", "--value", "1=1")
    expect_exit(proc, 2, "shape --value for an input of 4097 elements")
    expect("more than 4096 elements" in proc.stderr, proc.stderr)


@check
def shape_registry_missing_value():
    proc = run("shape", "--op", "Reshape", "--input", "1,3,224,224", "--input", "2:i64", "--attr", "special_zero=false")
    expect_exit(proc, 0, "shape --op Reshape without the target's values")
    expect("  output 0: [?,?]:f32\n" in proc.stdout, proc.stdout)
    expect("  note: the target shape (input 1) is not known;" in proc.stdout, proc.stdout)
    out = registry_json("--op", "Reshape", "--input", "1,3,224,224", "--input", "2:i64", "--attr", "special_zero=false")
    expect(out["outputs"] == [[-1, -1]] and "target shape" in out.get("unknown", ""), out)


@check
def shape_registry_invalid_layer():
    args = [a if a != "64,3,7,7" else "64,4,7,7" for a in CONV_ARGS]
    proc = run("shape", *args)
    expect_exit(proc, 1, "shape --op Convolution with 4 filter channels for 3 data channels")
    expect(proc.stdout == "" and
           "irlint: error: Convolution-1: data channels 3 do not match the filters' input channels 4" in proc.stderr,
           proc.stderr)
    doc = registry_json(*args, code=1)
    expect(doc["status"] == "error" and doc["outputs"] == [] and doc["types"] == [], doc)
    expect(doc["diagnostics"][0]["rule"] == "input-invalid", doc)


@check
def shape_registry_json_types():
    out = registry_json("--op", "TopK", "--input", "1,10", "--input", ":i64", "--value", "1=3", "--attr", "axis=1",
                        "--attr", "mode=max", "--attr", "sort=value", "--attr", "index_element_type=i64")
    expect(out == {"outputs": [[1, 3], [1, 3]], "types": ["f32", "i64"]}, out)
    out = registry_json("--op", "ShapeOf", "--input", "1,3,?,2..5:f16")
    expect(out == {"outputs": [[4]], "types": ["i64"]}, out)


@check
def shape_registry_unknown_op_and_opset():
    proc = run("shape", "--op", "NoSuchOp", "--input", "1,3")
    expect_exit(proc, 2, "shape --op NoSuchOp")
    expect("`irlint ops`" in proc.stderr, proc.stderr)
    proc = run("shape", "--op", "Gelu", "--opset", "1", "--input", "1,3")
    expect_exit(proc, 2, "shape --op Gelu --opset 1")
    expect("exists from opset2 on" in proc.stderr, proc.stderr)
    expect_exit(run("shape", "--op", "Reshape", "--input", "1,3", "--input", "2:q7"), 2, "shape --input 2:q7")
    expect_exit(run("shape", "--op", "MaxPool", "--input", "1,3,8,8", "--input", "2", "--attr", "kernel=2,2",
                    "--attr", "strides=2,2"), 2, "shape --op MaxPool with two --input")


@check
def shape_registry_broadcasting():
    out = registry_json("--op", "Add", "--input", "8,1,6,1", "--input", "7,1,5")
    expect(out == {"outputs": [[8, 7, 6, 5]], "types": ["f32"]}, out)
    out = registry_json("--op", "Multiply", "--input", "2..4,1", "--input", "?,3:f32")
    expect(out["outputs"] == [["2..4", 3]], out)
    proc = run("shape", "--op", "Add", "--input", "8,2,6,1", "--input", "7,1,5")
    expect_exit(proc, 1, "shape --op Add of shapes that do not broadcast")
    expect("Add-1: [8,2,6,1] and [7,1,5] do not broadcast" in proc.stderr, proc.stderr)


@check
def messages_name_one_thing_one_way():
    # a tensor's "dim N" in errors as in the arithmetic; counted nouns
    proc = run("shape", "--op", "MaxPool", "--input", "1,3,8,8", "--attr", "kernel=3,9", "--attr", "strides=1,1")
    expect_exit(proc, 1, "shape with a kernel wider than the input")
    expect("MaxPool-14: dim 3: the kernel after dilation (9) is larger than the padded input 8+0+0 = 8" in proc.stderr,
           proc.stderr)
    proc = run("shape", "--op", "MaxPool", "--input", "1,3,8,8", "--attr", "kernel=2", "--attr", "strides=1")
    expect("kernel has 1 value (2), but the 4D input [1,3,8,8] has 2 spatial axes" in proc.stderr, proc.stderr)
    proc = run("check", td("hostile", "layer_no_attributes.xml"), "--format", "json")
    notes = [d["message"] for f in load_json(proc, "check layer_no_attributes.xml")["files"] for d in f["diagnostics"]
             if d["rule"] == "unsupported-op"]
    expect(notes == ["1 layer of 1 type without rules was not checked: (no type) x1"], notes)


def main():
    global IRLINT, TESTDATA
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--irlint", required=True, help="the irlint binary")
    ap.add_argument("--testdata", required=True, help="the testdata directory")
    args = ap.parse_args()
    IRLINT = os.path.abspath(args.irlint)
    TESTDATA = os.path.abspath(args.testdata)

    passed = failed = 0
    for fn in CHECKS:
        try:
            fn()
        except Failure as e:
            print(f"FAIL {fn.__name__}: {e}")
            failed += 1
        except Exception as e:  # a bug in this script or an unexpected output shape
            print(f"FAIL {fn.__name__}: {type(e).__name__}: {e}")
            failed += 1
        else:
            passed += 1
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
