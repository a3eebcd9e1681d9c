#!/usr/bin/python3
"""Models whose names and ids carry terminal and CI-log injections, run through every command and format.

    untrusted_test.py --irlint BUILD/irlint

The generated IR and ONNX models name their pooling layer with ESC sequences, BEL, CR, LF followed by a
GitHub Actions workflow command, bidi overrides, bytes that are not UTF-8 and 20 KB of text, and give
layers path-like ids. For check (text, json, sarif, junit, html), merge, infer (text, json), run and run --data
(text, json, and the --report page), the test asserts that:
- text output has no raw control byte but newline and tab, no raw bidi control, no C1 control, and no line
  that starts with "::" (a workflow command) or with anything from the model;
- JSON and SARIF parse, JUnit parses as XML 1.0;
- an HTML page has no raw control byte, bidi or C1 control either, and no element but its own (one script,
  the tags irlint writes);
- run --data opens nothing outside DIR: a planted file at DIR/../outside/p.in0.npy, which a layer whose id
  is "../outside/p" would name, is not run.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

import numpy as np

FAILURES = []
TIMEOUT = 120

# Names as they appear inside an XML attribute (character references where XML needs them).
HOSTILE_XML_NAMES = {
    "esc_bel_cr": "pool&#27;[31mRED&#27;[0m&#7;&#13;fake: ok",
    "lf_workflow_command": "pool&#10;::error file=README.md,line=1::injected",
    "bidi_override": "pool\u202efdp.exe\u2066x\u2069\u200f\u061c",
    "c1_csi": "pool\u009b31m",
    "long_20k": "n" * 20000,
}
BIDI = re.compile("[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]")
C1 = re.compile("[\u0080-\u009f]")


def check(name, condition, detail=""):
    if not condition:
        FAILURES.append(f"{name}: {detail}"[:600])
    return condition


def dims(shape):
    return "".join(f"<dim>{d}</dim>" for d in shape)


def ir_model(pool_name, pool_id="1", raw_name_bytes=b""):
    """Parameter [1,1,4,4] -> MaxPool-1 k2 s2 -> Result; the pool's name and id as given."""
    text = (
        '<?xml version="1.0"?>\n<net name="hostile" version="11">\n<layers>\n'
        '<layer id="0" name="input" type="Parameter" version="opset1"><data shape="1,1,4,4" element_type="f32"/>'
        f'<output><port id="0" precision="FP32">{dims([1, 1, 4, 4])}</port></output></layer>\n'
        f'<layer id="{pool_id}" name="{pool_name}@@RAW@@" type="MaxPool" version="opset1">'
        '<data kernel="2,2" strides="2,2" pads_begin="0,0" pads_end="0,0" auto_pad="explicit" rounding_type="floor"/>'
        f'<input><port id="0" precision="FP32">{dims([1, 1, 4, 4])}</port></input>'
        f'<output><port id="1" precision="FP32">{dims([1, 1, 2, 2])}</port></output></layer>\n'
        '<layer id="2" name="out" type="Result" version="opset1">'
        f'<input><port id="0" precision="FP32">{dims([1, 1, 2, 2])}</port></input></layer>\n'
        f'</layers>\n<edges>\n<edge from-layer="0" from-port="0" to-layer="{pool_id}" to-port="0"/>\n'
        f'<edge from-layer="{pool_id}" from-port="1" to-layer="2" to-port="0"/>\n</edges>\n</net>\n')
    return text.encode("utf-8").replace(b"@@RAW@@", raw_name_bytes)


def onnx_model(path, node_name):
    import onnx
    from onnx import TensorProto, helper
    node = helper.make_node("MaxPool", ["x"], ["y"], name=node_name, kernel_shape=[2, 2], strides=[2, 2])
    graph = helper.make_graph([node], "hostile\x1b[2J", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 1, 4, 4])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 1, 2, 2])])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 12)])
    model.ir_version = 7
    onnx.save(model, path)


def run(irlint, *args):
    return subprocess.run([irlint, *args], capture_output=True, timeout=TIMEOUT, env=dict(os.environ, NO_COLOR="1"))


def no_raw_controls(label, data):
    """No raw control byte but LF and TAB, no C1 or bidi control; returns the text."""
    bad = sorted({b for b in data if (b < 0x20 and b not in (0x0A, 0x09)) or b == 0x7F})
    check(f"{label}: control bytes", not bad, f"raw bytes {bad}")
    text = data.decode("utf-8", errors="replace")
    check(f"{label}: bidi controls", not BIDI.search(text), repr(BIDI.findall(text)))
    check(f"{label}: C1 controls", not C1.search(text), repr(C1.findall(text)))
    return text


def safe_text(label, data):
    """Text output: no raw controls, no '::' line start, no line starting with model text."""
    text = no_raw_controls(label, data)
    for line in text.split("\n"):
        check(f"{label}: workflow command", not line.startswith("::"), repr(line[:120]))
        check(f"{label}: line starts with model text", not line.startswith(("pool", "n" * 10, "../", "hostile")),
              repr(line[:120]))


def parses_as_json(label, data):
    try:
        json.loads(data)
        return True
    except ValueError as e:
        return check(f"{label}: JSON", False, str(e))


def parses_as_xml(label, data):
    try:
        ET.fromstring(data)  # expat: XML 1.0, which has no way to write ESC or BEL
        return True
    except ET.ParseError as e:
        return check(f"{label}: JUnit XML 1.0", False, str(e))


HTML_TAGS = {"html", "head", "meta", "title", "style", "body", "script", "h1", "h2", "h3", "h4", "p", "b", "span",
             "table", "thead", "tbody", "tr", "th", "td", "a", "code", "div", "label", "select", "option", "section",
             "details", "summary", "ul", "li", "figure", "figcaption", "svg", "rect", "text", "line", "circle"}


def safe_html(label, data):
    """An HTML page: no raw controls, only irlint's own tags."""
    text = no_raw_controls(label, data)
    tags = set(re.findall(r"<([a-zA-Z][a-zA-Z0-9-]*)", text))
    check(f"{label}: tags", tags <= HTML_TAGS, repr(sorted(tags - HTML_TAGS)))
    check(f"{label}: scripts", text.count("<script") <= 1, str(text.count("<script")))


def every_command(irlint, model, tmp, label, layer_selector):
    """check/merge/infer/run in every format on one model."""
    proc = run(irlint, "check", model, "--format", "html")
    safe_html(f"{label} check html", proc.stdout)
    for fmt in ("text", "json", "sarif", "junit"):
        proc = run(irlint, "check", model, "--format", fmt)
        check(f"{label} check {fmt}: exit", proc.returncode in (0, 1), f"exit {proc.returncode} {proc.stderr[-300:]}")
        safe_text(f"{label} check {fmt} stderr", proc.stderr)
        if fmt == "text":
            safe_text(f"{label} check text", proc.stdout)
        elif fmt == "junit":
            parses_as_xml(f"{label} check junit", proc.stdout)
        else:
            parses_as_json(f"{label} check {fmt}", proc.stdout)
    shard = os.path.join(tmp, "shard.json")
    run(irlint, "check", model, "--format", "json", "-o", shard)
    for fmt in ("text", "json", "sarif", "junit", "html"):
        proc = run(irlint, "merge", shard, "--format", fmt)
        safe_text(f"{label} merge {fmt} stderr", proc.stderr)
        if fmt == "text":
            safe_text(f"{label} merge text", proc.stdout)
        elif fmt == "html":
            safe_html(f"{label} merge html", proc.stdout)
    for fmt in ("text", "json"):
        proc = run(irlint, "infer", model, "--all", "--format", fmt)
        safe_text(f"{label} infer {fmt} stderr", proc.stderr)
        if fmt == "text":
            safe_text(f"{label} infer text", proc.stdout)
        else:
            parses_as_json(f"{label} infer json", proc.stdout)
    x = os.path.join(tmp, "x.npy")
    np.save(x, np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4))
    for fmt in ("text", "json"):
        proc = run(irlint, "run", model, "--layer", layer_selector, "--input", x, "--format", fmt)
        safe_text(f"{label} run {fmt} stderr", proc.stderr)
        if fmt == "text":
            safe_text(f"{label} run text", proc.stdout)
        else:
            parses_as_json(f"{label} run json", proc.stdout)
    # A report of a mismatching run: the layer's name is in its headings, tables and heatmap captions.
    expected = os.path.join(tmp, "y.npy")
    np.save(expected, np.full((1, 1, 2, 2), 99, dtype=np.float32))
    report = os.path.join(tmp, "report.html")
    proc = run(irlint, "run", model, "--layer", layer_selector, "--input", x, "--expect", expected, "--report", report)
    check(f"{label} run --report: exit", proc.returncode == 1, f"exit {proc.returncode} {proc.stderr[-300:]}")
    with open(report, "rb") as f:
        safe_html(f"{label} run --report", f.read())


def data_dir_outside(irlint, tmp):
    """A layer id that is a path is reported and skipped: the planted file outside DIR is not run."""
    data = os.path.join(tmp, "dumps", "data")
    outside = os.path.join(tmp, "dumps", "outside")
    os.makedirs(data)
    os.makedirs(outside)
    x = np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4)
    np.save(os.path.join(outside, "p.in0.npy"), x)  # DIR/../outside/p.in0.npy
    model = os.path.join(tmp, "path_id.xml")
    with open(model, "wb") as f:
        f.write(ir_model("pool", pool_id="../outside/p"))
    for fmt in ("text", "json"):
        proc = run(irlint, "run", model, "--data", data, "--format", fmt)
        out = proc.stdout.decode("utf-8", errors="replace")
        err = proc.stderr.decode("utf-8", errors="replace")
        check(f"--data path id {fmt}: nothing run", proc.returncode == 2 and "p.in0" not in out,
              f"exit {proc.returncode} {out[:300]} {err[:300]}")
        check(f"--data path id {fmt}: reported", "is not a non-negative integer" in err and "../outside/p" in err, err)
        safe_text(f"--data path id {fmt} stderr", proc.stderr)
    # A decimal id beside it still runs: the check skips only what is not one.
    np.save(os.path.join(data, "1.in0.npy"), x)
    good = os.path.join(tmp, "good.xml")
    with open(good, "wb") as f:
        f.write(ir_model("pool\u202eloop"))
    proc = run(irlint, "run", good, "--data", data, "--format", "text")
    check("--data decimal id runs", proc.returncode == 0 and b"1 layer run: 0 ok, 0 mismatch, 0 error, 1 not compared"
          in proc.stdout, proc.stdout[-300:])
    safe_text("--data text", proc.stdout)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--irlint", required=True)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        cases = [(name, ir_model(text)) for name, text in HOSTILE_XML_NAMES.items()]
        cases.append(("invalid_utf8", ir_model("pool", raw_name_bytes=b"\xff\xfe\xc0\x80")))
        cases.append(("path_like_name", ir_model("../../etc/passwd&#10;::add-mask::x")))
        for name, content in cases:
            model = os.path.join(tmp, f"{name}.xml")
            with open(model, "wb") as f:
                f.write(content)
            every_command(args.irlint, model, tmp, name, "1")
        try:
            import onnx  # noqa: F401
            for name, node_name in (("onnx_lf", "pool\n::error::injected"), ("onnx_esc", "pool\x1b]0;title\x07"),
                                    ("onnx_bidi", "pool\u202e"), ("onnx_long", "n" * 20000)):
                model = os.path.join(tmp, f"{name}.onnx")
                onnx_model(model, node_name)
                every_command(args.irlint, model, tmp, name, "0")
        except ImportError:
            FAILURES.append("python3-onnx is not installed: the ONNX cases did not run")
        data_dir_outside(args.irlint, tmp)
    for f in FAILURES:
        print("FAIL", f)
    print(f"{len(FAILURES)} failures")
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
