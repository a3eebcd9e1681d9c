#!/usr/bin/env python3
"""Plants one wrong output dim on checked layers of real IRs and expects irlint to find exactly it.

    realir_planted_test.py --irlint build/irlint --dir ../shared/realir [--min-types N] [--seed S] [--every K]

For every .xml in DIR, `irlint check --format json` names the layers it checked. For each layer type among them
(Parameter, Const and Result aside), one layer chosen at random gets +1 on one static dim of one output port, and
the same +1 on the input ports its edges feed (so that the edges stay consistent). irlint must then report
`output-shape-mismatch` on that layer, with its consequence (an error when the dim reaches a model output or
breaks a layer, a warning when a layer downstream absorbs it), and no error on any other layer: a wrong port is
one finding, not a cascade. The consequence may be unknown only in a file where some layer is not checked (a
value its dims depend on is unknown). The closing line counts the consequences by kind. At least N layer types (default 20) must be planted across the directory. `--every K` plants one type in
K per file (a different one in each file), for builds that run slowly (sanitizers).
Prints one line per failure and a closing line; exits 1 on any failure.
"""
import argparse
import json
import os
import random
import re
import shutil
import sys
import tempfile

import irlint_process

TIMEOUT_SECONDS = 120
IR_OWN_TYPES = {"Parameter", "Const", "Result"}


def run_check(irlint, path):
    code, out, err = irlint_process.run(irlint, ["check", path, "--format", "json", "--min-severity", "warning"],
                                        TIMEOUT_SECONDS)
    if code not in (0, 1):
        raise RuntimeError(f"check {os.path.basename(path)}: exit {code} ({err.strip()[:200]})")
    return json.loads(out)["files"][0]


def element_span(text, start, tag):
    """The end of the element <tag ...> that opens at START (nested elements of the same tag included)."""
    depth, pos = 0, start
    pattern = re.compile(rf"<(/?){tag}\b[^>]*?(/?)>")
    for m in pattern.finditer(text, start):
        if m.group(1):
            depth -= 1
        elif not m.group(2):
            depth += 1
        if depth == 0:
            return m.end()
    raise ValueError(f"<{tag}> at {start} is not closed")


def layer_span(text, layer_id):
    """The (start, end) of the one <layer id="LAYER_ID">; None when there is none or more than one (bodies)."""
    starts = [m.start() for m in re.finditer(rf'<layer\b[^>]*\bid="{re.escape(layer_id)}"', text)]
    if len(starts) != 1:
        return None
    return starts[0], element_span(text, starts[0], "layer")


def port_dims(text, span, section, port_id):
    """The (start, end, value) of each <dim> of port PORT_ID in the layer's <input> or <output>."""
    start, end = span
    sec = re.search(rf"<{section}>", text[start:end])
    if not sec:
        return []
    sec_start = start + sec.start()
    sec_end = element_span(text, sec_start, section)
    port = re.search(rf'<port\b[^>]*\bid="{re.escape(port_id)}"[^>]*>', text[sec_start:sec_end])
    if not port or port.group(0).endswith("/>"):
        return []
    p_start = sec_start + port.start()
    p_end = element_span(text, p_start, "port")
    return [(p_start + m.start(1), p_start + m.end(1), int(m.group(1)))
            for m in re.finditer(r"<dim>\s*(-?\d+)\s*</dim>", text[p_start:p_end])]


def output_ports(text, span):
    start, end = span
    sec = re.search(r"<output>", text[start:end])
    if not sec:
        return []
    sec_start = start + sec.start()
    sec_end = element_span(text, sec_start, "output")
    return re.findall(r'<port\b[^>]*\bid="([^"]+)"', text[sec_start:sec_end])


def plant(text, layer_id, rng):
    """TEXT with +1 on a static dim of an output port of LAYER_ID and on the inputs it feeds; None if it has none."""
    span = layer_span(text, layer_id)
    if not span:
        return None
    choices = [(port, i) for port in output_ports(text, span)
               for i, (_, _, v) in enumerate(port_dims(text, span, "output", port)) if v >= 0]
    if not choices:
        return None
    port, dim = rng.choice(choices)
    edits = [port_dims(text, span, "output", port)[dim]]
    edge = re.compile(rf'<edge\b[^>]*\bfrom-layer="{re.escape(layer_id)}"[^>]*\bfrom-port="{re.escape(port)}"'
                      r'[^>]*\bto-layer="([^"]+)"[^>]*\bto-port="([^"]+)"')
    for m in edge.finditer(text):
        consumer = layer_span(text, m.group(1))
        if not consumer:
            return None
        dims = port_dims(text, consumer, "input", m.group(2))
        if dim < len(dims) and dims[dim][2] >= 0:
            edits.append(dims[dim])
    for start, end, value in sorted(edits, reverse=True):
        text = text[:start] + str(value + 1) + text[end:]
    return text, port, dim


# The severity a planted dim's finding has for each kind of consequence.
SEVERITY_OF = {"absorbed": "warning", "reaches": "error", "breaks": "error"}


def planted_finding(diagnostics, layer_id):
    """The output-shape-mismatch on LAYER_ID: an error, or a warning when absorbed downstream; None if none."""
    for d in diagnostics:
        if d.get("rule") == "output-shape-mismatch" and d.get("layer_id") == layer_id and \
                d.get("severity") in ("error", "warning"):
            kind = (d.get("consequence") or {}).get("kind")
            if d.get("severity") == "error" or kind == "absorbed":
                return d
    return None


def consequence_failure(finding):
    """What is wrong with the consequence of a planted dim's finding, or None."""
    c = finding.get("consequence")
    if not c:
        return "no consequence"
    if SEVERITY_OF.get(c.get("kind")) != finding["severity"]:
        return f"consequence {c.get('kind')} on a finding of severity {finding['severity']}"
    if c["kind"] == "reaches" and not (c.get("outputs") and c.get("layers", 0) >= 1):
        return f"consequence {c} names no output"
    if c["kind"] != "reaches" and not c.get("by", {}).get("id"):
        return f"consequence {c} names no layer"
    return None


def plant_file(irlint, path, rng, work, every=1, kinds=None):
    """Failures, and the layer types planted, for one file; KINDS counts the consequences by kind."""
    name = os.path.basename(path)
    report = run_check(irlint, path)
    known_errors = {(d.get("layer_id"), d.get("rule"), d.get("line")) for d in report["diagnostics"]
                    if d.get("severity") == "error"}
    by_type = {}
    for c in report.get("checked_layers", []):
        if c["type"] not in IR_OWN_TYPES:
            by_type.setdefault(c["type"], []).append(c["id"])
    with open(path, encoding="utf-8") as f:
        text = f.read()
    bin_path = path[:-4] + ".bin"
    planted_path = os.path.join(work, name)
    if os.path.exists(bin_path):
        shutil.copyfile(bin_path, planted_path[:-4] + ".bin")
    failures, planted_types = [], set()
    offset = rng.randrange(every)
    for index, layer_type in enumerate(sorted(by_type)):
        if (index + offset) % every:
            continue
        layer_id = rng.choice(by_type[layer_type])
        planted = plant(text, layer_id, rng)
        if not planted:
            continue
        new_text, port, dim = planted
        with open(planted_path, "w", encoding="utf-8") as f:
            f.write(new_text)
        result = run_check(irlint, planted_path)
        errors = [d for d in result["diagnostics"] if d.get("severity") == "error"]
        finding = planted_finding(result["diagnostics"], layer_id)
        where = f"{name}: layer {layer_id} ({layer_type}) output {port} dim {dim} +1"
        if not finding:
            failures.append(f"{where}: no output-shape-mismatch on the layer")
        elif not finding.get("consequence") and result["checked"] < result["layers"]:
            # A consumer whose dims depend on values irlint does not know may or may not take the change.
            if kinds is not None:
                kinds["unknown"] = kinds.get("unknown", 0) + 1
        elif consequence_failure(finding):
            failures.append(f"{where}: {consequence_failure(finding)}: {finding.get('message', '')[:300]}")
        elif kinds is not None:
            kind = finding["consequence"]["kind"]
            kinds[kind] = kinds.get(kind, 0) + 1
        for d in errors:
            if d.get("layer_id") != layer_id and (d.get("layer_id"), d.get("rule"), d.get("line")) not in known_errors:
                failures.append(f"{where}: also {d.get('rule')} on layer {d.get('layer_id')} "
                                f"({d.get('layer_type')}): {d.get('message', '')[:300]}")
        planted_types.add(layer_type)
    return failures, planted_types


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--irlint", required=True)
    ap.add_argument("--dir", required=True)
    ap.add_argument("--min-types", type=int, default=20)
    ap.add_argument("--seed", type=int, default=34)
    ap.add_argument("--every", type=int, default=1)
    args = ap.parse_args()
    irlint = os.path.abspath(args.irlint)
    names = sorted(n for n in os.listdir(args.dir) if n.endswith(".xml"))
    failures, types, kinds = [], set(), {}
    if not names:
        failures.append(f"{args.dir}: no .xml files")
    with tempfile.TemporaryDirectory(prefix="irlint-planted-") as work:
        for name in names:
            rng = random.Random(f"{args.seed}:{name}")
            try:
                f, t = plant_file(irlint, os.path.join(args.dir, name), rng, work, args.every, kinds)
            except (RuntimeError, ValueError, KeyError) as e:
                f, t = [f"{name}: {e}"], set()
            failures += f
            types |= t
    if len(types) < args.min_types:
        failures.append(f"only {len(types)} layer types planted, expected at least {args.min_types}")
    for message in failures:
        print(f"FAIL {message}")
    print(f"{len(types)} layer types planted in {len(names)} files: {', '.join(sorted(types))}; "
          f"consequences: {', '.join(f'{k} {n}' for k, n in sorted(kinds.items())) or 'none'}; "
          f"{len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
