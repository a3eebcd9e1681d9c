"""A corpus of small OpenVINO IR files with planted defects, and what irlint must report on each.

    files = write_corpus(directory, count=300, seed=1)

Every model is Parameter -> a chain of one to three pooling layers -> Result, with dims that follow
OpenVINO's pooling rule, so a clean model has no finding at all. Defects are planted in turn, one kind per
file, on the last pooling layer or around it. Returns a list of CorpusFile (relative path, defect, expected
findings as (severity, rule, layer id) triples, the layer id None when any layer will do).
Standard library only; the same count and seed give the same bytes.
"""
import os
import random

POOLS = [("MaxPool", "opset1"), ("MaxPool", "opset8"), ("AvgPool", "opset1"), ("AvgPool", "opset14")]

DEFECTS = [None, "output-shape", None, "output-type", "edge-shape", None, "zero-stride", "float-strides",
           "malformed", "not-ir", "unsupported-op"]


class CorpusFile:
    def __init__(self, relative, defect, expected):
        self.relative = relative
        self.defect = defect
        self.expected = expected


def ceil_div(a, b):
    return -(-a // b)


def pool_out(n, k, s, pb, pe, rounding):
    span = n + pb + pe - k
    return (span // s if rounding == "floor" else ceil_div(span, s)) + 1


def port(port_id, precision, dims, indent="\t\t\t\t"):
    body = "".join(f"{indent}\t<dim>{d}</dim>\n" for d in dims)
    return f'{indent}<port id="{port_id}" precision="{precision}">\n{body}{indent}</port>\n'


class Pool:
    def __init__(self, rng, lid, in_dims):
        self.id = lid
        self.type, self.version = rng.choice(POOLS)
        self.k = min(rng.choice([2, 3]), min(in_dims[2:]))  # a kernel no larger than the input
        self.s = rng.choice([1, 2])
        self.pb, self.pe = rng.choice([0, 1]), rng.choice([0, 1])
        if self.k == 1:  # a one-tap window over a pad would lie wholly in the padding: OpenVINO rejects it
            self.pb = self.pe = 0
        self.rounding = rng.choice(["floor", "ceil"])
        self.in_dims = in_dims
        spatial = [pool_out(n, self.k, self.s, self.pb, self.pe, self.rounding) for n in in_dims[2:]]
        self.out_dims = in_dims[:2] + spatial
        self.strides = f"{self.s},{self.s}"
        self.precisions = ["FP32", "I64"] if self.has_indices() else ["FP32"]
        self.declared = [list(self.out_dims) for _ in self.precisions]

    def has_indices(self):
        return self.type == "MaxPool" and self.version == "opset8"

    def data(self):
        pairs = [("auto_pad", "explicit"), ("kernel", f"{self.k},{self.k}"), ("pads_begin", f"{self.pb},{self.pb}"),
                 ("pads_end", f"{self.pe},{self.pe}"), ("rounding_type", self.rounding), ("strides", self.strides)]
        if self.type == "AvgPool":
            pairs.append(("exclude-pad", "true"))
        if self.has_indices():
            pairs += [("axis", "0"), ("dilations", "1,1"), ("index_element_type", "i64")]
        return " ".join(f'{k}="{v}"' for k, v in sorted(pairs))

    def xml(self):
        outputs = "".join(port(i + 1, p, d) for i, (p, d) in enumerate(zip(self.precisions, self.declared)))
        return (f'\t\t<layer id="{self.id}" name="pool{self.id}" type="{self.type}" version="{self.version}">\n'
                f'\t\t\t<data {self.data()}/>\n'
                f'\t\t\t<input>\n{port(0, "FP32", self.in_dims)}\t\t\t</input>\n'
                f'\t\t\t<output>\n{outputs}\t\t\t</output>\n\t\t</layer>\n')


def simple_layer(lid, name, ltype, inputs, outputs, data=""):
    text = f'\t\t<layer id="{lid}" name="{name}" type="{ltype}" version="opset1">\n'
    if data:
        text += f"\t\t\t<data {data}/>\n"
    if inputs:
        text += "\t\t\t<input>\n" + "".join(port(i, p, d) for i, (p, d) in enumerate(inputs)) + "\t\t\t</input>\n"
    if outputs:
        text += "\t\t\t<output>\n" + "".join(port(i + len(inputs), p, d) for i, (p, d) in enumerate(outputs))
        text += "\t\t\t</output>\n"
    return text + "\t\t</layer>\n"


def model_xml(rng, name, defect):
    """Returns (xml text, expected findings)."""
    dims = [1, rng.choice([3, 8, 16]), rng.randint(8, 40), rng.randint(8, 40)]
    pools = []
    for lid in range(1, rng.randint(1, 3) + 1):
        pools.append(Pool(rng, lid, pools[-1].out_dims if pools else dims))
    last = pools[-1]
    expected = []
    result_in = ("FP32", list(last.out_dims))
    if defect == "output-shape":
        last.declared[0][2] += 1
        result_in = ("FP32", list(last.declared[0]))
        expected.append(("error", "output-shape-mismatch", str(last.id)))
    elif defect == "output-type":
        if last.has_indices():  # nothing consumes the indices: stale metadata OpenVINO never reads
            last.precisions[1] = "I32"
            expected.append(("warning", "output-type-mismatch", str(last.id)))
        else:
            last.precisions[0] = "FP16"
            result_in = ("FP16", list(last.out_dims))
            expected.append(("error", "output-type-mismatch", str(last.id)))
    elif defect == "edge-shape":
        result_in = ("FP32", last.out_dims[:3] + [last.out_dims[3] + 2])
        expected.append(("error", "edge-shape-mismatch", None))
    elif defect == "zero-stride":
        last.strides = "0,0"
        expected.append(("error", "attr-invalid", str(last.id)))
    elif defect == "float-strides":
        last.strides = f"{last.s}.0,{last.s}.0"
        expected.append(("warning", "attr-invalid", str(last.id)))

    layers = simple_layer(0, "input", "Parameter", [], [("FP32", dims)],
                          f'element_type="f32" shape="{",".join(map(str, dims))}"')
    layers += "".join(p.xml() for p in pools)
    edges = [(p.id - 1, 0 if p.id == 1 else 1, p.id, 0) for p in pools]
    next_id = last.id + 1
    if defect == "unsupported-op":
        # an extension op, which irlint has no inference for
        layers += simple_layer(next_id, "custom", "CustomActivation", [result_in], [result_in])
        edges.append((last.id, 1, next_id, 0))
        edges.append((next_id, 1, next_id + 1, 0))
        next_id += 1
        expected.append(("note", "unsupported-op", None))
    else:
        edges.append((last.id, 1, next_id, 0))
    layers += simple_layer(next_id, "output", "Result", [result_in], [])
    edge_xml = "".join(f'\t\t<edge from-layer="{a}" from-port="{b}" to-layer="{c}" to-port="{d}"/>\n'
                       for a, b, c, d in edges)
    root = "graph" if defect == "not-ir" else "net"
    text = (f'<?xml version="1.0"?>\n<{root} name="{name}" version="11">\n\t<layers>\n{layers}\t</layers>\n'
            f'\t<edges>\n{edge_xml}\t</edges>\n\t<rt_info/>\n</{root}>\n')
    if defect == "not-ir":
        expected = [("note", "ir-structure", None)]
    elif defect == "malformed":
        text = text[: len(text) * 2 // 3]
        expected = [("error", "xml-malformed", None)]
    return text, expected


def relative_path(i):
    if i % 37 == 5:
        name = f"model {i:03d}.xml"  # a space: percent-encoded in SARIF
    elif i % 53 == 7:
        name = f"mod\u00e8le_{i:03d}.xml"
    else:
        name = f"model_{i:03d}.xml"
    return os.path.join(f"set{i % 5}", f"part{i % 3}", name)


def write_corpus(directory, count=300, seed=1):
    rng = random.Random(seed)
    files = []
    for i in range(count):
        defect = DEFECTS[i % len(DEFECTS)]
        relative = relative_path(i)
        text, expected = model_xml(rng, f"m{i}", defect)
        path = os.path.join(directory, relative)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        files.append(CorpusFile(relative, defect, expected))
    return files
