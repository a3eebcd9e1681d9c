#!/usr/bin/python3
"""Generate a directory of OpenVINO IR files whose sizes spread like those of real models, for batch runs.

    gen_corpus.py --count 1000 --out /tmp/corpus        # set0/model_0000.xml ... set9/model_0999.xml

Each file is a gen_ir.py model (a shape-consistent CNN, no errors) of N layers, N drawn log-uniformly from
--min-layers to --max-layers (default 40 to 2500, i.e. about 25 KB to 1.5 MB of XML, the range of the
models OpenVINO's model zoo publishes). Prints the totals. The same arguments give the same bytes.
"""
import argparse
import math
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_ir  # noqa: E402


def layer_counts(count, lo, hi, seed):
    rng = random.Random(seed)
    return [int(round(math.exp(rng.uniform(math.log(lo), math.log(hi))))) for _ in range(count)]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=1000, help="number of .xml files (default 1000)")
    ap.add_argument("--out", required=True, help="directory to write them into")
    ap.add_argument("--min-layers", type=int, default=40)
    ap.add_argument("--max-layers", type=int, default=2500)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    total_bytes = total_layers = 0
    for i, layers in enumerate(layer_counts(args.count, args.min_layers, args.max_layers, args.seed)):
        parts = []
        gen_ir.write_ir(gen_ir.generate(layers, args.seed * 100003 + i), parts)
        text = "".join(parts)
        path = os.path.join(args.out, f"set{i % 10}", f"model_{i:04d}.xml")
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
        total_bytes += len(text.encode())
        total_layers += layers
    print(f"{args.count} files, {total_layers} layers, {total_bytes / 1e6:.1f} MB", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
