#!/usr/bin/env python3
"""Opens irlint's HTML reports in a real browser (headless Chromium, with every host name unresolvable, so that
a report that needed the network would show it): a check report of testdata/, a run report of one layer and a
--data run report, on a model whose pooling layer has a hostile name. Each page is rendered to a PNG, which
must not be blank, and its DOM is dumped after its script ran; the test looks for the elements and numbers
that must be there and for the hostile name shown as text.

    html_browser_test.py --irlint build/irlint --testdata testdata --chromium /usr/bin/chromium

Prints one line per failed check and a closing line `N passed, M failed`; exits 1 on any failure.
"""
import argparse
import html
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

import numpy as np

ARGS = None
CHECKS = []
TMP = None
HOSTILE = "<script>document.title='pwned'</script>\"'&" + "n" * 50000


class Failure(Exception):
    pass


def check(fn):
    CHECKS.append(fn)
    return fn


def expect(cond, what):
    if not cond:
        raise Failure(what)


def irlint(*args):
    return subprocess.run([ARGS.irlint] + [str(a) for a in args], capture_output=True, text=True, timeout=120)


def chromium(*args):
    base = [ARGS.chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
            "--host-resolver-rules=MAP * ~NOTFOUND", f"--user-data-dir={os.path.join(TMP, 'profile')}"]
    return subprocess.run(base + list(args), capture_output=True, text=True, timeout=120)


def dom_of(page):
    proc = chromium("--dump-dom", "file://" + page)
    expect(proc.returncode == 0 and "<body" in proc.stdout, f"--dump-dom of {page}: exit {proc.returncode}")
    return proc.stdout


def png_pixels(path):
    """The distinct RGB colors of an 8-bit RGB or RGBA PNG (no interlace), decoded with zlib alone."""
    data = open(path, "rb").read()
    expect(data[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG")
    pos, idat, header = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, color, _, _, interlace = header
    expect(depth == 8 and color in (2, 6) and interlace == 0, f"{path}: PNG type {color}/{depth}/{interlace}")
    bpp = 3 if color == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows = np.zeros((height, stride), dtype=np.int32)
    prev = np.zeros(stride, dtype=np.int32)
    for y in range(height):
        kind = raw[y * (stride + 1)]
        line = np.frombuffer(raw, dtype=np.uint8, count=stride, offset=y * (stride + 1) + 1).astype(np.int32)
        if kind == 0:
            cur = line
        elif kind == 2:
            cur = (line + prev) & 255
        else:  # Sub, Average and Paeth depend on the pixel to the left: one pixel at a time
            cur = np.zeros(stride, dtype=np.int32)
            for i in range(stride):
                a = cur[i - bpp] if i >= bpp else 0
                b, c = prev[i], (prev[i - bpp] if i >= bpp else 0)
                if kind == 1:
                    pred = a
                elif kind == 3:
                    pred = (a + b) // 2
                else:
                    p = a + b - c
                    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                    pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                cur[i] = (line[i] + pred) & 255
        rows[y] = cur
        prev = cur
    pixels = rows.reshape(height, width, bpp)[:, :, :3]
    return {tuple(p) for p in pixels.reshape(-1, 3)[::7]}


def screenshot(page, height):
    png = page + ".png"
    proc = chromium(f"--screenshot={png}", f"--window-size=1280,{height}", "file://" + page)
    expect(os.path.exists(png), f"no screenshot of {page}: {proc.stderr[-300:]}")
    colors = png_pixels(png)
    expect(len(colors) > 20, f"{png}: {len(colors)} colors, a blank page?")
    return png


def make_model():
    """A copy of testdata/valid/avgpool1_ceil.xml whose pooling layer has the hostile name, its input and an
    expected output with mismatches planted in channel 5 and one element of channel 7."""
    text = open(os.path.join(ARGS.testdata, "valid", "avgpool1_ceil.xml"), encoding="utf-8").read()
    text = text.replace('name="pool"', 'name="' + html.escape(HOSTILE, quote=True) + '"', 1)
    model = os.path.join(TMP, "model.xml")
    with open(model, "w", encoding="utf-8") as f:
        f.write(text)
    rng = np.random.default_rng(3)
    np.save(os.path.join(TMP, "x.npy"), rng.random((1, 64, 112, 112), dtype=np.float32))
    saved = irlint("run", model, "--layer", "1", "--input", os.path.join(TMP, "x.npy"), "--save",
                   os.path.join(TMP, "y.npy"))
    expect(saved.returncode == 0, f"irlint run --save: {saved.stderr}")
    y = np.load(os.path.join(TMP, "y.npy"))
    y[0, 5, 10:20, 30:40] += 0.5
    y[0, 5, 14, 33] += 3.0  # the worst element
    y[0, 7, 3, 3] += 1e-3
    np.save(os.path.join(TMP, "y_bad.npy"), y)
    data = os.path.join(TMP, "data")
    os.makedirs(data)
    shutil.copy(os.path.join(TMP, "x.npy"), os.path.join(data, "1.in0.npy"))
    shutil.copy(os.path.join(TMP, "y_bad.npy"), os.path.join(data, "1.out0.npy"))
    return model


def text_of(dom):
    return html.unescape(re.sub(r"<[^>]+>", " ", dom))


@check
def check_report_renders_with_its_numbers():
    page = os.path.join(TMP, "check.html")
    proc = irlint("check", ARGS.testdata, "--format", "html", "-o", page)
    expect(proc.returncode == 1, f"check --format html: exit {proc.returncode}")
    summary = json.loads(irlint("check", ARGS.testdata, "--format", "json").stdout)["summary"]
    dom = dom_of(page)
    for key in ("files", "errors", "warnings", "notes"):
        expect(f'id="sum-{key}">{summary[key]}<' in dom, f"the {key} count {summary[key]} is not in the page")
    expect('id="controls" hidden' not in dom and 'id="controls"' in dom, "the script did not show the filters")
    rows = dom.count('class="finding"')
    expect(rows == summary["errors"] + summary["warnings"] + summary["notes"], f"{rows} finding rows")
    expect('href="https://github.com/irlint/irlint/blob/main/docs/rules.md#output-shape-mismatch"' in dom,
           "no link to the documentation of output-shape-mismatch")
    screenshot(page, 1600)
    shutil.copy(page + ".png", os.path.join(TMP, "keep-check.png"))


@check
def run_report_shows_the_heatmap_of_the_mismatching_channel():
    model = make_model()
    page = os.path.join(TMP, "run.html")
    proc = irlint("run", model, "--layer", "1", "--input", os.path.join(TMP, "x.npy"), "--expect",
                  os.path.join(TMP, "y_bad.npy"), "--report", page)
    expect(proc.returncode == 1, f"run --report: exit {proc.returncode}: {proc.stderr[-300:]}")
    dom = dom_of(page)
    text = text_of(dom)
    expect("<title>irlint run report</title>" in dom, "the page title changed: an injected script ran?")
    expect("document.title='pwned'" in text, "the hostile layer name is not shown as text")
    expect("<script>document.title" not in dom, "the hostile name became an element")
    expect("n=0, c=5: 100 mismatches" in text, "the plane of channel 5 is not drawn with its count")
    expect("n=0, c=7: 1 mismatch" in text, "the plane of channel 7 is not drawn")
    expect("[0,5,14,33]: expected" in text, "the worst mismatch is not [0,5,14,33]")
    expect('<circle class="worst"' in dom and "worst element [0,5,14,33]" in dom, "the worst element is not marked")
    expect("W (column index)" in text and "H (row index)" in text, "axis labels missing")
    expect("absolute error |computed − expected|" in text, "the legend's unit is missing")
    expect(dom.count('class="bar"') == 10, "the histogram does not have its 10 bars")
    expect(re.search(r"mismatches\s+101\b", text), "the mismatch count 101 is not shown")
    screenshot(page, 1500)
    shutil.copy(page + ".png", os.path.join(TMP, "keep-run.png"))


@check
def data_run_report_starts_with_the_layers():
    model = os.path.join(TMP, "model.xml")
    expect(os.path.exists(model), "the model of the previous check is missing")
    page = os.path.join(TMP, "data.html")
    proc = irlint("run", model, "--data", os.path.join(TMP, "data"), "--report", page)
    expect(proc.returncode == 1, f"run --data --report: exit {proc.returncode}")
    dom = dom_of(page)
    expect('<table class="layers">' in dom, "no table of layers")
    expect('href="#layer-0"' in dom and 'id="layer-0"' in dom, "the table does not link to the layer")
    expect("101/200704" in text_of(dom), "the table does not count 101 of 200704 elements")
    screenshot(page, 1200)


@check
def reports_name_no_url_but_the_rule_documentation():
    for name in ("check.html", "run.html", "data.html"):
        page = open(os.path.join(TMP, name), encoding="utf-8").read()
        for bad in ("<script src", "<link", "@import", "url(", "<img", "<iframe"):
            expect(bad not in page, f"{name} contains {bad}")
        urls = re.findall(r"https?://[^\"'<> ]+", page)
        expect(all(u.startswith("https://github.com/irlint/irlint/blob/main/docs/rules.md#") for u in urls),
               f"{name} names {sorted(set(urls))[:3]}")


def main():
    global ARGS, TMP
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--irlint", required=True)
    ap.add_argument("--testdata", required=True)
    ap.add_argument("--chromium", required=True)
    ap.add_argument("--keep", help="copy the screenshots here (the docs' pictures)")
    ARGS = ap.parse_args()
    ARGS.irlint = os.path.abspath(ARGS.irlint)
    ARGS.testdata = os.path.abspath(ARGS.testdata)
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        TMP = tmp
        for fn in CHECKS:
            try:
                fn()
            except (Failure, OSError, ValueError, KeyError, subprocess.TimeoutExpired) as e:
                failed += 1
                print(f"FAIL {fn.__name__}: {e!r}")
        if ARGS.keep:
            for name in ("keep-check.png", "keep-run.png"):
                if os.path.exists(os.path.join(tmp, name)):
                    shutil.copy(os.path.join(tmp, name), os.path.join(ARGS.keep, name[len("keep-"):]))
    print(f"{len(CHECKS) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
