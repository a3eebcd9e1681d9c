#!/usr/bin/python3
"""The layers of docs/architecture.md hold in the code: a folder of src/ includes only itself and the
folders listed above it in the table of layers.

    layers_test.py --source-dir DIR
"""
import argparse
import os
import re
import sys

TABLE_ROW = re.compile(r"^\| `src/(\w+)` \|")
INCLUDE = re.compile(r'^#include "((\w+)/[^"]+)"', re.MULTILINE)
# Headers a lower folder may include, as docs/architecture.md says: the rule registry is data over core/
# alone, and the IR reader reports its findings with its entries.
EXCEPTIONS = {("ir", "rules/registry.hpp")}


def layer_order(architecture_md):
    with open(architecture_md, encoding="utf-8") as f:
        return [m.group(1) for m in map(TABLE_ROW.match, f) if m]


def included_folders(folder):
    found = {}
    for root, _, files in os.walk(folder):
        for name in files:
            if not name.endswith((".cpp", ".hpp")):
                continue
            path = os.path.join(root, name)
            with open(path, encoding="utf-8") as f:
                for header, target in INCLUDE.findall(f.read()):
                    found.setdefault((target, header), path)
    return found


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--source-dir", required=True)
    args = parser.parse_args()
    order = layer_order(os.path.join(args.source_dir, "docs", "architecture.md"))
    src = os.path.join(args.source_dir, "src")
    folders = sorted(d for d in os.listdir(src) if os.path.isdir(os.path.join(src, d)))
    failures = []
    if sorted(order) != folders:
        failures.append(f"docs/architecture.md lists {sorted(order)}, src/ has {folders}")
    for rank, folder in enumerate(order):
        allowed = set(order[: rank + 1])
        for (target, header), path in sorted(included_folders(os.path.join(src, folder)).items()):
            if target not in allowed and (folder, header) not in EXCEPTIONS:
                failures.append(f"{os.path.relpath(path, args.source_dir)} includes {target}/, which the table "
                                f"lists below {folder}/")
    for failure in failures:
        print("FAIL " + failure)
    print(f"{len(order)} layers, {len(failures)} violations")
    return 1 if failures or len(order) < 8 else 0


if __name__ == "__main__":
    sys.exit(main())
