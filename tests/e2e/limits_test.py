#!/usr/bin/python3
"""End-to-end checks of the batch limits: --timeout-per-file and Ctrl-C during `irlint check`, and that a
file irlint could not check (check-failed) is reported and fails the run whatever the selection says.

    limits_test.py --irlint BUILD/irlint --testdata testdata/ --gen-ir bench/gen_ir.py
"""
import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time

from irlint_process import run

FAILURES = []


def check(name, condition, detail=""):
    if not condition:
        FAILURES.append(f"{name}: {detail}")


TIMEOUT_MESSAGE = "checking took longer than --timeout-per-file 0.001 s; the file was not checked fully"


def make_models(gen_ir, tmp):
    """A model too big to check in a millisecond (20,000 layers take about 0.2 s), and a directory of a small one."""
    big = os.path.join(tmp, "big.xml")
    subprocess.run([sys.executable, gen_ir, "--layers", "20000", "--out", big], check=True, capture_output=True)
    small = os.path.join(tmp, "small")
    os.makedirs(small)
    subprocess.run([sys.executable, gen_ir, "--layers", "40", "--out", os.path.join(small, "a.xml")], check=True,
                   capture_output=True)
    return big, small


def files_by_name(out):
    report = json.loads(out) if out.strip() else {"files": []}
    return {os.path.basename(f["path"]): f for f in report["files"]}


def timed_out(file_report):
    """Whether a file's findings are exactly the check-failed error of the time limit."""
    return [(d["severity"], d["rule"], d["message"]) for d in file_report.get("diagnostics", [])] == [
        ("error", "check-failed", TIMEOUT_MESSAGE)]


def test_timeout(irlint, big, small):
    code, out, err = run(irlint, ["check", big, small, "--timeout-per-file", "0.001", "--format", "json"], 120)
    check("timeout exit", code == 1, f"{code} {err}")
    by_name = files_by_name(out)
    check("timeout reported", timed_out(by_name.get("big.xml", {})), by_name.get("big.xml"))
    check("the run went on to the next file", "a.xml" in by_name, sorted(by_name))
    code, out, err = run(irlint, ["check", big, "--timeout-per-file", "0.001", "-q"], 120)
    check("timeout text", f"{big}: error: {TIMEOUT_MESSAGE} [check-failed]" in out, out)
    code, out, err = run(irlint, ["check", small, "--timeout-per-file", "60", "-q"], 60)
    check("generous timeout", code == 0 and "check-failed" not in out, f"{code} {out} {err}")


# Flags that hide, lower or forgive findings: none of them hides a file that could not be checked.
HIDING_FLAGS = [["--ignore", "check-failed"], ["--ignore", "check-timeout"], ["--select", "attr-invalid"],
                ["--severity", "check-failed=off"], ["--severity", "check-timeout=note"], ["--min-severity", "error"],
                ["--fail-on", "never"],
                ["--ignore", "check-failed", "--severity", "check-failed=warning", "--fail-on", "warning"]]


def test_check_failed_flags(irlint, big):
    for flags in HIDING_FLAGS:
        code, out, err = run(irlint, ["check", big, "--timeout-per-file", "0.001", "--format", "json"] + flags, 120)
        by_name = files_by_name(out)
        check(f"{flags}: exit", code == 1, f"{code} {err}")
        check(f"{flags}: reported", timed_out(by_name.get("big.xml", {})), by_name.get("big.xml"))
        check(f"{flags}: counted", json.loads(out)["summary"]["errors"] == 1 if out.strip() else False, out[-200:])
    code, out, err = run(irlint, ["check", big, "--timeout-per-file", "0.001", "--ignore", "check-failed"], 120)
    check("text: reported though ignored", code == 1 and f"{big}: error: {TIMEOUT_MESSAGE} [check-failed]" in out,
          f"{code} {out}")
    code, out, err = run(irlint, ["check", big, "--timeout-per-file", "0.001", "--format", "sarif", "--ignore",
                                  "check-failed"], 120)
    sarif = json.loads(out)["runs"][0]
    rule_ids = [r["id"] for r in sarif["tool"]["driver"]["rules"]]
    check("sarif: reported", code == 1 and [r["ruleId"] for r in sarif["results"]] == ["check-failed"],
          f"{code} {sarif['results']}")
    check("sarif: in the rule table", "check-failed" in rule_ids and "check-timeout" not in rule_ids, rule_ids)


def test_check_failed_configuration(irlint, big, tmp):
    """A configuration that ignores it, by its old id too, turns it off and forgives everything: no effect."""
    config = os.path.join(tmp, "hiding.toml")
    with open(config, "w") as f:
        f.write('ignore = ["check-timeout", "check-failed"]\nfail-on = "never"\nmin-severity = "error"\n'
                '[severity]\ncheck-failed = "off"\n[[overrides]]\npaths = ["**"]\nselect = ["attr-invalid"]\n'
                'severity = { check-timeout = "note" }\n')
    code, out, err = run(irlint, ["check", big, "--timeout-per-file", "0.001", "--config", config, "--format",
                                  "json"], 120)
    check("config: not a usage error, exit 1", code == 1, f"{code} {err}")
    check("config: reported", timed_out(files_by_name(out).get("big.xml", {})), out[:400])
    # Found by discovery beside the file, as an older configuration naming only check-timeout would be.
    found = os.path.join(tmp, "discovered")
    os.makedirs(os.path.join(found, ".git"))
    os.link(big, os.path.join(found, "big.xml"))
    with open(os.path.join(found, "irlint.toml"), "w") as f:
        f.write('ignore = ["check-timeout"]\n')
    code, out, err = run(irlint, ["check", found, "--timeout-per-file", "0.001", "--format", "json"], 120)
    check("discovered config: exit 1", code == 1, f"{code} {err}")
    check("discovered config: reported", timed_out(files_by_name(out).get("big.xml", {})), out[:400])


def test_check_failed_baseline(irlint, big, tmp):
    baseline = os.path.join(tmp, "baseline.json")
    code, out, err = run(irlint, ["check", big, "--timeout-per-file", "0.001", "--write-baseline", baseline,
                                  "--format", "json"], 120)
    check("write-baseline: exit 1 for a file not checked", code == 1, f"{code} {err}")
    check("write-baseline: written", os.path.isfile(baseline), os.listdir(tmp))
    if not os.path.isfile(baseline):
        return
    with open(baseline) as f:
        prints = json.load(f)["fingerprints"]
    check("write-baseline: holds the finding", len(prints) == 1, prints)
    code, out, err = run(irlint, ["check", big, "--timeout-per-file", "0.001", "--baseline", baseline, "--format",
                                  "json"], 120)
    check("baseline: exit 1", code == 1, f"{code} {err}")
    check("baseline: still reported", timed_out(files_by_name(out).get("big.xml", {})), out[:400])


def test_check_failed_merge(irlint, big, small, tmp):
    """Shards that ignore it and never fail: the shard and the merge of all shards report it and exit 1."""
    shards = []
    for k in (1, 2):
        shard = os.path.join(tmp, f"shard-{k}.json")
        code, out, err = run(irlint, ["check", big, small, "--timeout-per-file", "0.001", "--shard", f"{k}/2",
                                      "--ignore", "check-failed", "--fail-on", "never", "--format", "json", "-o",
                                      shard], 120)
        check(f"shard {k}: written", os.path.isfile(shard), f"{code} {err}")
        with open(shard) as f:
            has_big = "big.xml" in files_by_name(f.read())
        # The other shard's small file may time out as well on a busy machine.
        check(f"shard {k}: exit", code == 1 if has_big else code in (0, 1), f"{code} {err}")
        shards.append(shard)
    if not all(os.path.isfile(s) for s in shards):
        return
    code, out, err = run(irlint, ["merge"] + shards + ["--fail-on", "never", "--format", "json"], 60)
    check("merge: exit 1", code == 1, f"{code} {err}")
    check("merge: reported", timed_out(files_by_name(out).get("big.xml", {})), out[:400])
    code, out, err = run(irlint, ["merge"] + shards + ["--fail-on", "never", "--min-severity", "error"], 60)
    check("merge text: exit 1 and the line", code == 1 and f"{big}: error: {TIMEOUT_MESSAGE} [check-failed]" in out,
          f"{code} {out}")


def test_interrupt(irlint, gen_ir, tmp):
    corpus = os.path.join(tmp, "corpus")
    os.makedirs(corpus)
    source = os.path.join(tmp, "model.xml")
    subprocess.run([sys.executable, gen_ir, "--layers", "2000", "--out", source], check=True, capture_output=True)
    for i in range(500):  # links: many files to check, no disk space
        os.link(source, os.path.join(corpus, f"m{i:05d}.xml"))
    report = os.path.join(tmp, "report.json")
    proc = subprocess.Popen([irlint, "check", corpus, "-j", "1", "--format", "json", "-o", report],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(0.5)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    if proc.returncode == 0:
        print("note: the corpus was checked before the interrupt arrived; nothing to test on this machine")
        return
    check("interrupt exit", proc.returncode == 130, f"{proc.returncode} {err}")
    check("interrupt message", "interrupted:" in err and "of 500 files checked" in err, err)
    check("no partial report", not os.path.exists(report), os.listdir(tmp))
    check("no temporary files", not [f for f in os.listdir(tmp) if f.endswith(".tmp")], os.listdir(tmp))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--irlint", required=True)
    parser.add_argument("--testdata", required=True)
    parser.add_argument("--gen-ir", required=True)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        big, small = make_models(args.gen_ir, tmp)
        for test in (lambda: test_timeout(args.irlint, big, small),
                     lambda: test_check_failed_flags(args.irlint, big),
                     lambda: test_check_failed_configuration(args.irlint, big, tmp),
                     lambda: test_check_failed_baseline(args.irlint, big, tmp),
                     lambda: test_check_failed_merge(args.irlint, big, small, tmp),
                     lambda: test_interrupt(args.irlint, args.gen_ir, tmp)):
            try:
                test()
            except Exception as e:  # one broken test must not hide the others
                check("exception", False, repr(e))
    for f in FAILURES:
        print("FAIL", f)
    print(f"limits: {len(FAILURES)} failures")
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
