#!/usr/bin/env python3
"""End-to-end checks of `irlint infer --reshape` on real IRs.

    reshape_test.py --irlint build/irlint --dir testdata/realir [--dir ../shared/realir]...

- Identity: every IR with its .bin, reshaped to its own Parameter shapes, gives every layer its declared dims
  back (no layer changes, no finding; after an op irlint does not infer, no layer changes either); an IR without
  Parameters is a legacy one that OpenVINO does not read, and says so.
- testdata/realir/omz-SampLeNet-v10: batches 8 and 16 give IRs (-o) that check clean and hold the new dims;
  64x64 breaks its flattening Reshape (reshape-incompatible, exit 1, with the arithmetic) and -o writes nothing;
  the JSON holds the reshape section; a wrong input name and a malformed shape are usage errors.
- With --real-reshapes DIR: four real detection/regression models of DIR, each reshaped to three other batches
  or resolutions, give IRs (-o) that check clean; face-detection-retail-0005 at batch 2 reports the one layer
  its batch-1 Reshape target breaks (its DetectionOutput), with the arithmetic.
Prints one line per failure and a closing line; exits 1 on any failure.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

IRLINT = None
FAILURES = []


def run(*args):
    return subprocess.run([IRLINT, *[str(a) for a in args]], capture_output=True, text=True, timeout=120)


def expect(cond, message):
    if not cond:
        FAILURES.append(message)
    return cond


def parameters(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    return re.findall(r'<layer [^>]*name="([^"]+)"[^>]*type="Parameter"[^>]*>\s*<data [^>]*shape="([^"]*)"', text)


def identity(directory):
    """Every IR with its .bin: an IR version OpenVINO does not read is rejected as such; every other one,
    extension ops or not, changes no layer and has no finding."""
    done = 0
    for name in sorted(os.listdir(directory)):
        path = os.path.join(directory, name)
        if not name.endswith(".xml") or not os.path.exists(path[:-4] + ".bin"):
            continue
        params = parameters(path)
        if not params:
            proc = run("infer", path)
            expect(proc.returncode == 1 and "unsupported IR version" in proc.stderr,
                   f"{name}: no Parameter, yet not rejected as a legacy IR: exit {proc.returncode} {proc.stderr[:200]}")
            continue
        args = [a for n, s in params for a in ("--reshape", f"{n}={s}")]
        proc = run("infer", path, *args, "--format", "json")
        if not expect(proc.returncode == 0, f"{name}: identity reshape exit {proc.returncode}: {proc.stderr[:200]}"):
            continue
        report = json.loads(proc.stdout)
        reshape = report["reshape"]
        done += 1
        # Layers after an extension op (unknown_layers) cannot be told, but none may change from its declaration.
        expect(reshape["changed_layers"] == 0 and not report["diagnostics"],
               f"{name}: identity reshape changes {reshape['changed_layers']} layers, e.g. {reshape['layers'][:2]}, "
               f"findings {[d['message'] for d in report['diagnostics']][:2]}")
    return done


def samplenet(directory, work):
    model = os.path.join(work, "samplenet.xml")
    shutil.copy(os.path.join(directory, "omz-SampLeNet-v10.xml"), model)
    shutil.copy(os.path.join(directory, "omz-SampLeNet-v10.bin"), os.path.join(work, "samplenet.bin"))
    for batch in (8, 16):
        out = os.path.join(work, f"samplenet_b{batch}.xml")
        proc = run("infer", model, "--reshape", f"{batch},3,32,32", "-o", out)
        expect(proc.returncode == 0, f"batch {batch}: exit {proc.returncode}: {proc.stderr[:300]}")
        expect(f"[1,10]:f32 -> [{batch},10]:f32" in proc.stdout, f"batch {batch}: output line: {proc.stdout[:400]}")
        shutil.copy(os.path.join(work, "samplenet.bin"), out[:-4] + ".bin")
        check = run("check", out, "--format", "json")
        report = json.loads(check.stdout) if check.stdout else {"files": []}
        errors = [d for f in report["files"] for d in f["diagnostics"] if d["severity"] != "note"]
        expect(check.returncode == 0 and not errors, f"batch {batch}: the reshaped IR does not check clean: {errors[:2]}")
        with open(out, encoding="utf-8") as f:
            text = f.read()
        expect(f'shape="{batch},3,32,32"' in text, f"batch {batch}: the Parameter's shape attribute is not rewritten")
    out = os.path.join(work, "samplenet_64.xml")
    proc = run("infer", model, "--reshape", "data=1,3,64,64", "-o", out)
    expect(proc.returncode == 1, f"64x64: exit {proc.returncode}, expected 1")
    expect("(Reshape): Reshape-1: the target dims other than -1 (of [-1,400]) do not evenly divide the input "
           "[1,16,13,13] [reshape-incompatible]" in proc.stderr, f"64x64: stderr {proc.stderr[:400]}")
    expect(not os.path.exists(out), "64x64: -o wrote a file although a layer failed")
    report = json.loads(run("infer", model, "--reshape", "1,3,64,64", "--format", "json").stdout)
    expect(report["reshape"]["inputs"] == [{"name": "data", "dims": [1, 3, 64, 64]}], f"JSON inputs {report['reshape']['inputs']}")
    expect([d["rule"] for d in report["diagnostics"]] == ["reshape-incompatible"], f"JSON findings {report['diagnostics']}")
    conv = [l for l in report["reshape"]["layers"] if l["type"] == "Convolution"][0]
    expect(conv["before"] == [[1, 6, 28, 28]] and conv["after"] == [[1, 6, 60, 60]], f"JSON conv {conv}")
    bad = run("infer", model, "--reshape", "nope=1,3,32,32")
    expect(bad.returncode == 2 and "no input (Parameter) named 'nope'; its inputs: data" in bad.stderr, bad.stderr)
    bad = run("infer", model, "--reshape", "1,3,x,32")
    expect(bad.returncode == 2 and "cannot parse dimension 'x'" in bad.stderr, bad.stderr)


REAL_RESHAPES = {
    "obd-face-detection-adas-0001-fp16": ("4,3,384,672", "1,3,768,1344", "2,3,480,640"),
    "dm-face-detection-0200": ("2,3,320,320", "1,3,512,512", "4,3,256,256"),
    "dm-person-vehicle-bike-detection-2001": ("2,3,384,384", "1,3,512,512", "1,3,320,320"),
    "lof-landmarks-regression-retail-0009": ("8,3,48,48", "1,3,64,64", "16,3,48,48"),
}


def reshaped_checks_clean(directory, work, model, dims):
    out = os.path.join(work, f"{model}-{dims.replace(',', 'x')}.xml")
    proc = run("infer", os.path.join(directory, model + ".xml"), "--reshape", dims, "-o", out)
    if not expect(proc.returncode == 0 and os.path.exists(out), f"{model} {dims}: exit {proc.returncode}: {proc.stderr[:300]}"):
        return
    shutil.copy(os.path.join(directory, model + ".bin"), out[:-4] + ".bin")
    with open(out, encoding="utf-8") as f:
        expect(f'shape="{dims}"' in f.read(), f"{model} {dims}: the Parameter's shape attribute is not rewritten")
    check = run("check", out, "--format", "json")
    report = json.loads(check.stdout) if check.stdout else {"files": []}
    findings = [d["message"] for f in report["files"] for d in f["diagnostics"] if d["severity"] != "note"]
    expect(check.returncode == 0 and not findings, f"{model} {dims}: the reshaped IR does not check clean: {findings[:2]}")
    checked = sum(f.get("checked", 0) for f in report["files"])
    expect(checked > 0, f"{model} {dims}: no layer of the reshaped IR was checked")


def real_reshapes(directory, work):
    for model, shapes in REAL_RESHAPES.items():
        for dims in shapes:
            reshaped_checks_clean(directory, work, model, dims)
    model = os.path.join(directory, "lof-face-detection-retail-0005.xml")
    proc = run("infer", model, "--reshape", "2,3,300,300", "--format", "json")
    report = json.loads(proc.stdout) if proc.stdout else {"diagnostics": []}
    failing = [(d["layer_type"], d["rule"]) for d in report["diagnostics"]]
    expect(proc.returncode == 1 and failing == [("DetectionOutput", "reshape-incompatible")],
           f"face-detection-retail-0005 at batch 2: exit {proc.returncode}, findings {failing}")
    expect(any("must be num_prior_boxes * prior_box_size (25992)" in d["message"] for d in report["diagnostics"]),
           f"face-detection-retail-0005 at batch 2: no arithmetic in {report['diagnostics'][:1]}")


def main():
    global IRLINT
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--irlint", required=True)
    ap.add_argument("--dir", action="append", required=True)
    ap.add_argument("--real-reshapes", help="directory holding the real models of REAL_RESHAPES with their .bin")
    args = ap.parse_args()
    IRLINT = os.path.abspath(args.irlint)
    identities = sum(identity(d) for d in args.dir)
    expect(identities >= 1, "no IR with its .bin was reshaped to itself")
    project = [d for d in args.dir if os.path.exists(os.path.join(d, "omz-SampLeNet-v10.bin"))]
    expect(bool(project), "omz-SampLeNet-v10 (with its .bin) is in none of the directories")
    with tempfile.TemporaryDirectory(prefix="irlint-reshape-") as work:
        if project:
            samplenet(project[0], work)
        if args.real_reshapes:
            real_reshapes(args.real_reshapes, work)
    for message in FAILURES:
        print(f"FAIL {message}")
    print(f"{identities} identity reshapes; {len(FAILURES)} failures")
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
