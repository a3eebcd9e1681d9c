#!/usr/bin/python3
"""Writes the hostile inputs that are too big to keep in the repository (testdata/hostile/manifest.tsv
names them as {gen}/NAME).

    make_hostile.py DIR     write every file into DIR (created if needed)

Each generator is deterministic; a file that already holds the right size is not written again.
"""
import os
import sys

DEPTH = 100_000                 # nesting depth of the deep files
BIG_ATTRIBUTE = 50 * 1024 * 1024  # bytes of the huge attribute values
CHAIN_LAYERS = 100_000
MANY_PORTS = 100_000

PARAMETER = ('<layer id="0" name="input" type="Parameter" version="opset1">'
             '<data shape="1,1,4,4" element_type="f32"/>'
             '<output><port id="0" precision="FP32"><dim>1</dim><dim>1</dim><dim>4</dim><dim>4</dim></port>'
             '</output></layer>\n')
DIMS_4x4 = "<dim>1</dim><dim>1</dim><dim>4</dim><dim>4</dim>"
DIMS_2x2 = "<dim>1</dim><dim>1</dim><dim>2</dim><dim>2</dim>"


def pool_model(pool_data, pool_name="pool", comment=""):
    """Parameter [1,1,4,4] -> MaxPool-1 -> Result, with the pool's <data> attributes given as text."""
    return "".join([
        f'<?xml version="1.0"?>\n<!-- {comment} -->\n<net name="generated" version="11">\n<layers>\n',
        PARAMETER,
        f'<layer id="1" name="{pool_name}" type="MaxPool" version="opset1"><data {pool_data}/>',
        f'<input><port id="0" precision="FP32">{DIMS_4x4}</port></input>',
        f'<output><port id="1" precision="FP32">{DIMS_2x2}</port></output></layer>\n',
        f'<layer id="2" name="out" type="Result" version="opset1"><input><port id="0" precision="FP32">{DIMS_2x2}'
        '</port></input></layer>\n',
        '</layers>\n<edges>\n<edge from-layer="0" from-port="0" to-layer="1" to-port="0"/>\n',
        '<edge from-layer="1" from-port="1" to-layer="2" to-port="0"/>\n</edges>\n</net>\n',
    ])


GOOD_ATTRS = 'strides="2,2" pads_begin="0,0" pads_end="0,0" auto_pad="explicit" rounding_type="floor"'


def repeated(unit, total):
    return unit * (total // len(unit))


def deep_xml_nesting():
    return ('<?xml version="1.0"?>\n<net name="deep" version="11"><layers/>' + "<a>" * DEPTH + "</a>" * DEPTH
            + "</net>\n")


def deep_unclosed_nesting():
    return '<?xml version="1.0"?>\n<net name="deep" version="11"><layers/>' + "<a>" * DEPTH


def deep_body_nesting():
    """TensorIterator bodies inside bodies, DEPTH levels."""
    open_level = '<layer id="0" name="ti" type="TensorIterator" version="opset1"><body><layers>'
    close_level = "</layers></body></layer>"
    return ('<?xml version="1.0"?>\n<net name="deep_bodies" version="11"><layers>' + open_level * DEPTH
            + close_level * DEPTH + "</layers></net>\n")


def huge_kernel_attribute():
    return pool_model(f'kernel="{repeated("1,", BIG_ATTRIBUTE)}2" {GOOD_ATTRS}',
                      comment="a kernel attribute of 50 MB")


def huge_unknown_attribute():
    return pool_model(f'kernel="2,2" {GOOD_ATTRS} comment="{repeated("x", BIG_ATTRIBUTE)}"',
                      comment="an attribute MaxPool does not have, 50 MB long")


def huge_layer_name():
    return pool_model(f'kernel="2,2" {GOOD_ATTRS}', pool_name=repeated("n", BIG_ATTRIBUTE),
                      comment="a layer name of 50 MB")


def huge_parameter_shape():
    text = pool_model(f'kernel="2,2" {GOOD_ATTRS}', comment="a Parameter shape attribute of 50 MB")
    return text.replace('shape="1,1,4,4"', f'shape="{repeated("1,", BIG_ATTRIBUTE)}1"', 1)


def long_chain():
    """CHAIN_LAYERS layers each feeding the next: a graph as deep as it is long."""
    parts = ['<?xml version="1.0"?>\n<net name="chain" version="11">\n<layers>\n', PARAMETER.replace(DIMS_4x4, "<dim>1</dim>").replace("1,1,4,4", "1")]
    for i in range(1, CHAIN_LAYERS):
        parts.append(f'<layer id="{i}" name="r{i}" type="Relu" version="opset1"><input><port id="0" precision="FP32">'
                     f'<dim>1</dim></port></input><output><port id="1" precision="FP32"><dim>1</dim></port></output>'
                     '</layer>\n')
    parts.append(f'<layer id="{CHAIN_LAYERS}" name="out" type="Result" version="opset1"><input>'
                 '<port id="0" precision="FP32"><dim>1</dim></port></input></layer>\n</layers>\n<edges>\n')
    parts.append('<edge from-layer="0" from-port="0" to-layer="1" to-port="0"/>\n')
    for i in range(1, CHAIN_LAYERS):
        parts.append(f'<edge from-layer="{i}" from-port="1" to-layer="{i + 1}" to-port="0"/>\n')
    parts.append("</edges>\n</net>\n")
    return "".join(parts)


def many_ports():
    """One layer with MANY_PORTS inputs, each fed by its own edge."""
    ports = "".join(f'<port id="{p}" precision="FP32"><dim>1</dim></port>' for p in range(MANY_PORTS))
    edges = "".join(f'<edge from-layer="0" from-port="{MANY_PORTS + p}" to-layer="1" to-port="{p}"/>\n'
                    for p in range(MANY_PORTS))
    outs = "".join(f'<port id="{MANY_PORTS + p}" precision="FP32"><dim>1</dim></port>' for p in range(MANY_PORTS))
    return ('<?xml version="1.0"?>\n<net name="ports" version="11">\n<layers>\n'
            f'<layer id="0" name="src" type="Split" version="opset1"><output>{outs}</output></layer>\n'
            f'<layer id="1" name="sink" type="Concat" version="opset1"><input>{ports}</input>'
            f'<output><port id="{2 * MANY_PORTS}" precision="FP32"><dim>1</dim></port></output></layer>\n'
            '<layer id="2" name="out" type="Result" version="opset1"><input><port id="0" precision="FP32">'
            '<dim>1</dim></port></input></layer>\n</layers>\n<edges>\n' + edges
            + f'<edge from-layer="1" from-port="{2 * MANY_PORTS}" to-layer="2" to-port="0"/>\n</edges>\n</net>\n')


def onnx_if_nested_10000():
    """An If in the then-branch of an If, 10,000 deep: far past protobuf's recursion limit."""
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path.insert(0, os.path.join(here, "..", "..", "testdata", "hostile"))
    import make_binaries  # the ONNX message writers of the committed hostile models
    return make_binaries.nested_ifs(10_000)


def onnx_if_nested_reading_100000():
    """24 nested Ifs (protobuf parses 25), the innermost reading 100,000 values of the main graph: 2.4 million
    hand-downs."""
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path.insert(0, os.path.join(here, "..", "..", "testdata", "hostile"))
    import make_binaries
    return make_binaries.nested_ifs_reading_outer(24, 100_000)


def onnx_values_chain_20000():
    """20,000 Adds on a known int64 tensor of 4,096 values: without a budget, 80 million values held."""
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path.insert(0, os.path.join(here, "..", "..", "testdata", "hostile"))
    import make_binaries
    return make_binaries.values_chain(20_000, 4096)


def deep_json_report():
    return "[" * DEPTH + "]" * DEPTH + "\n"


GENERATORS = {
    "deep_xml_nesting.xml": deep_xml_nesting,
    "deep_unclosed_nesting.xml": deep_unclosed_nesting,
    "deep_body_nesting.xml": deep_body_nesting,
    "huge_kernel_attribute.xml": huge_kernel_attribute,
    "huge_unknown_attribute.xml": huge_unknown_attribute,
    "huge_layer_name.xml": huge_layer_name,
    "huge_parameter_shape.xml": huge_parameter_shape,
    "long_chain.xml": long_chain,
    "many_ports.xml": many_ports,
    "deep_json_report.json": deep_json_report,
    "onnx_if_nested_10000.onnx": onnx_if_nested_10000,
    "onnx_if_nested_reading_100000.onnx": onnx_if_nested_reading_100000,
    "onnx_values_chain_20000.onnx": onnx_values_chain_20000,
}


def generate(directory):
    """Writes every file into directory; returns their names."""
    os.makedirs(directory, exist_ok=True)
    for name, make in GENERATORS.items():
        data = make()
        text = data if isinstance(data, bytes) else data.encode()
        path = os.path.join(directory, name)
        if os.path.exists(path) and os.path.getsize(path) == len(text):
            continue
        with open(path, "wb") as f:
            f.write(text)
    return sorted(GENERATORS)


def main(argv):
    if len(argv) != 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    for name in generate(argv[1]):
        print(name)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
