#!/usr/bin/python3
"""Real-architecture ONNX models, generated here: `check` and `run --data` on every pooling node.

    torch_corpus_test.py --irlint BUILD/irlint [--work DIR] [--keep]

Small networks in the style of ResNet, GoogLeNet, SqueezeNet, Inception-v3, DenseNet, a 1D temporal network,
a 3D (video) network and a SegNet-style encoder, with random weights, are exported by PyTorch's TorchScript
exporter at opsets 10, 11, 13 and 17, and 19 and 21 where the installed exporter offers them. Every pooling node's input and output is dumped as DIR/<node-index>.in0.npy
and .out0.npy (and .out1.npy for the indices of the SegNet pool), the way one would dump a real model to
compare a runtime with. Then, per model:
  - `irlint check` reports no error and no warning;
  - `irlint run model.onnx --data DIR` runs exactly the expected number of nodes, every one ok (exit 0), and an
    output without an expected file is reported with "compared": false;
  - per architecture, at the last opset, one element of one node's expected output is changed: exactly that node
    mismatches, at that element, and every other node stays ok.

How the dumps are taken: forward hooks on the pooling modules record what each module receives and returns.
The exporter gives each node a scope named after its module (`/features/features.3/MaxPool`), which ties a
node to its module. Where the exporter puts a `Pad` node before the pooling node (AvgPool with
count_include_pad and padding, or ceil_mode), the node's real input is the module's input padded as that Pad
says: the pads are read from the graph and applied with NumPy (constant zeros, exact). ONNX's reference
evaluator (onnx.reference) would give the same tensors, but the ONNX Python package of Debian 12 predates it.
A pooling module with return_indices becomes two MaxPool nodes: the pool itself, whose ONNX indices are flat
over the whole tensor (PyTorch's per-plane index plus the plane's offset), and a kernel-1 MaxPool the exporter
uses to find those offsets, whose values are its input.

Exits 77 (CTest's skip code) when torch or onnx cannot be imported; prints one line per failure, a table of the
models run and `N models, M failures`; exits 1 on any failure.
"""
import argparse
import inspect
import json
import os
import shutil
import sys
import tempfile
import time
import warnings

import numpy as np

from irlint_process import run

try:
    import onnx
    import onnx.numpy_helper
    import torch
    import torch.nn as nn
except ImportError as e:
    print(f"SKIP: {e} (install python3-torch and python3-onnx)")
    sys.exit(77)


def exporter_opsets():
    """10, 11, 13 and 17, and 19 and 21 where the installed TorchScript exporter goes that far."""
    try:
        from torch.onnx._constants import ONNX_MAX_OPSET as newest
    except ImportError:
        newest = 17
    return [10, 11, 13, 17] + [opset for opset in (19, 21) if opset <= newest]


OPSETS = exporter_opsets()
POOL_OPS = ("MaxPool", "AveragePool", "GlobalAveragePool", "GlobalMaxPool")
POOL_MODULES = (nn.MaxPool1d, nn.MaxPool2d, nn.MaxPool3d, nn.AvgPool1d, nn.AvgPool2d, nn.AvgPool3d,
                nn.AdaptiveAvgPool1d, nn.AdaptiveAvgPool2d, nn.AdaptiveAvgPool3d)
TIMEOUT = 60
FAILURES = []


def check(name, condition, detail=""):
    if not condition:
        FAILURES.append(f"{name}: {detail}")
    return condition


def conv_bn_relu(cin, cout, k, s=1, p=0, dims=2):
    conv = {1: nn.Conv1d, 2: nn.Conv2d, 3: nn.Conv3d}[dims]
    bn = {1: nn.BatchNorm1d, 2: nn.BatchNorm2d, 3: nn.BatchNorm3d}[dims]
    return nn.Sequential(conv(cin, cout, k, s, p, bias=False), bn(cout), nn.ReLU())


class BasicBlock(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.body = nn.Sequential(conv_bn_relu(c, c, 3, p=1), nn.Conv2d(c, c, 3, padding=1, bias=False),
                                  nn.BatchNorm2d(c))

    def forward(self, x):
        return torch.relu(self.body(x) + x)


class ResNetStem(nn.Module):
    """ResNet-18's stem (conv 7x7/2, MaxPool k3 s2 p1), one basic block, global average pool, classifier."""

    def __init__(self):
        super().__init__()
        self.stem = conv_bn_relu(3, 16, 7, 2, 3)
        self.maxpool = nn.MaxPool2d(3, 2, 1)
        self.layer1 = BasicBlock(16)
        self.avgpool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(16, 10)

    def forward(self, x):
        return self.fc(torch.flatten(self.avgpool(self.layer1(self.maxpool(self.stem(x)))), 1))


class GoogLeNetInception(nn.Module):
    def __init__(self, cin, c):
        super().__init__()
        self.branch1 = conv_bn_relu(cin, c, 1)
        self.branch2 = nn.Sequential(conv_bn_relu(cin, c, 1), conv_bn_relu(c, c, 3, p=1))
        self.branch3 = nn.Sequential(conv_bn_relu(cin, c, 1), conv_bn_relu(c, c, 3, p=1))
        self.branch4 = nn.Sequential(nn.MaxPool2d(3, 1, 1, ceil_mode=True), conv_bn_relu(cin, c, 1))

    def forward(self, x):
        return torch.cat([self.branch1(x), self.branch2(x), self.branch3(x), self.branch4(x)], 1)


class GoogLeNet(nn.Module):
    """torchvision's GoogLeNet layout: every MaxPool with ceil_mode, an inception pool branch k3 s1 p1 ceil."""

    def __init__(self):
        super().__init__()
        self.conv1 = conv_bn_relu(3, 8, 7, 2, 3)
        self.maxpool1 = nn.MaxPool2d(3, 2, ceil_mode=True)
        self.conv2 = conv_bn_relu(8, 8, 1)
        self.conv3 = conv_bn_relu(8, 16, 3, p=1)
        self.maxpool2 = nn.MaxPool2d(3, 2, ceil_mode=True)
        self.inception3a = GoogLeNetInception(16, 4)
        self.maxpool3 = nn.MaxPool2d(3, 2, ceil_mode=True)
        self.inception4a = GoogLeNetInception(16, 4)
        self.maxpool4 = nn.MaxPool2d(2, 2, ceil_mode=True)
        self.avgpool = nn.AdaptiveAvgPool2d((1, 1))
        self.fc = nn.Linear(16, 10)

    def forward(self, x):
        x = self.maxpool2(self.conv3(self.conv2(self.maxpool1(self.conv1(x)))))
        x = self.maxpool4(self.inception4a(self.maxpool3(self.inception3a(x))))
        return self.fc(torch.flatten(self.avgpool(x), 1))


class Fire(nn.Module):
    def __init__(self, cin, squeeze, expand):
        super().__init__()
        self.squeeze = nn.Sequential(nn.Conv2d(cin, squeeze, 1), nn.ReLU())
        self.expand1x1 = nn.Sequential(nn.Conv2d(squeeze, expand, 1), nn.ReLU())
        self.expand3x3 = nn.Sequential(nn.Conv2d(squeeze, expand, 3, padding=1), nn.ReLU())

    def forward(self, x):
        x = self.squeeze(x)
        return torch.cat([self.expand1x1(x), self.expand3x3(x)], 1)


class SqueezeNet(nn.Module):
    """SqueezeNet 1.0: MaxPool k3 s2 ceil_mode between fire modules, conv classifier, global average pool."""

    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 16, 7, stride=2), nn.ReLU(), nn.MaxPool2d(3, 2, ceil_mode=True),
            Fire(16, 4, 8), Fire(16, 4, 8), nn.MaxPool2d(3, 2, ceil_mode=True),
            Fire(16, 4, 8), nn.MaxPool2d(3, 2, ceil_mode=True), Fire(16, 4, 8))
        self.classifier = nn.Sequential(nn.Dropout(0.5), nn.Conv2d(16, 10, 1), nn.ReLU(), nn.AdaptiveAvgPool2d((1, 1)))

    def forward(self, x):
        return torch.flatten(self.classifier(self.features(x)), 1)


class InceptionA(nn.Module):
    """Inception-v3's InceptionA; the pool branch is AvgPool k3 s1 p1, with or without count_include_pad."""

    def __init__(self, cin, count_include_pad):
        super().__init__()
        self.branch1x1 = conv_bn_relu(cin, 8, 1)
        self.branch5x5 = nn.Sequential(conv_bn_relu(cin, 6, 1), conv_bn_relu(6, 8, 5, p=2))
        self.branch3x3dbl = nn.Sequential(conv_bn_relu(cin, 8, 1), conv_bn_relu(8, 8, 3, p=1))
        self.branch_pool = nn.Sequential(nn.AvgPool2d(3, 1, 1, count_include_pad=count_include_pad),
                                         conv_bn_relu(cin, 8, 1))

    def forward(self, x):
        return torch.cat([self.branch1x1(x), self.branch5x5(x), self.branch3x3dbl(x), self.branch_pool(x)], 1)


class Inception(nn.Module):
    """Inception-v3 style: MaxPool k3 s2 stem, two InceptionA, a ceil_mode AvgPool with padding, the auxiliary
    classifier's AvgPool k5 s3 (ceil_mode here), a global average pool."""

    def __init__(self):
        super().__init__()
        self.stem = conv_bn_relu(3, 16, 3, 2)
        self.maxpool = nn.MaxPool2d(3, 2)
        self.mixed_5b = InceptionA(16, count_include_pad=True)
        self.mixed_5c = InceptionA(32, count_include_pad=False)
        self.reduce = nn.AvgPool2d(3, 2, 1, ceil_mode=True)
        self.aux_pool = nn.AvgPool2d(5, 3, ceil_mode=True)
        self.aux_fc = nn.Linear(32 * 2 * 2, 10)
        self.avgpool = nn.AdaptiveAvgPool2d((1, 1))
        self.fc = nn.Linear(32, 10)

    def forward(self, x):
        x = self.mixed_5c(self.mixed_5b(self.maxpool(self.stem(x))))
        aux = self.aux_fc(torch.flatten(self.aux_pool(x), 1))
        return self.fc(torch.flatten(self.avgpool(self.reduce(x)), 1)), aux


class DenseLayer(nn.Module):
    def __init__(self, cin, growth):
        super().__init__()
        self.body = nn.Sequential(nn.BatchNorm2d(cin), nn.ReLU(), nn.Conv2d(cin, growth, 3, padding=1, bias=False))

    def forward(self, x):
        return torch.cat([x, self.body(x)], 1)


def transition(cin, cout):
    """DenseNet's transition: BN, ReLU, conv 1x1, AvgPool k2 s2."""
    return nn.Sequential(nn.BatchNorm2d(cin), nn.ReLU(), nn.Conv2d(cin, cout, 1, bias=False), nn.AvgPool2d(2, 2))


class DenseNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 8, 7, 2, 3, bias=False), nn.BatchNorm2d(8), nn.ReLU(), nn.MaxPool2d(3, 2, 1),
            DenseLayer(8, 4), DenseLayer(12, 4), transition(16, 8),
            DenseLayer(8, 4), DenseLayer(12, 4), transition(16, 8),
            DenseLayer(8, 4), nn.BatchNorm2d(12), nn.ReLU())
        self.avgpool = nn.AdaptiveAvgPool2d((1, 1))
        self.classifier = nn.Linear(12, 10)

    def forward(self, x):
        return self.classifier(torch.flatten(self.avgpool(self.features(x)), 1))


class Temporal1d(nn.Module):
    """A 1D convolutional network over a sequence: MaxPool1d k3 s2 p1, MaxPool1d k2 ceil_mode, global pool."""

    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(conv_bn_relu(4, 8, 5, p=2, dims=1), nn.MaxPool1d(3, 2, 1),
                                      conv_bn_relu(8, 8, 3, p=1, dims=1), nn.MaxPool1d(2, ceil_mode=True))
        self.avgpool = nn.AdaptiveAvgPool1d(1)
        self.fc = nn.Linear(8, 5)

    def forward(self, x):
        return self.fc(torch.flatten(self.avgpool(self.features(x)), 1))


class Video3d(nn.Module):
    """A 3D (video) network: AvgPool3d over space only, k3 s1 p1 with count_include_pad, k2 ceil_mode without."""

    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            conv_bn_relu(3, 8, 3, p=1, dims=3), nn.AvgPool3d((1, 2, 2)),
            conv_bn_relu(8, 8, 3, p=1, dims=3), nn.AvgPool3d(3, 1, 1),
            nn.AvgPool3d(2, ceil_mode=True, count_include_pad=False))
        self.avgpool = nn.AdaptiveAvgPool3d(1)
        self.fc = nn.Linear(8, 5)

    def forward(self, x):
        return self.fc(torch.flatten(self.avgpool(self.features(x)), 1))


class SegNetEncoder(nn.Module):
    """SegNet's encoder stage: MaxPool k2 s2 returning the indices a decoder would unpool with."""

    def __init__(self):
        super().__init__()
        self.conv = conv_bn_relu(3, 8, 3, p=1)
        self.pool = nn.MaxPool2d(2, 2, return_indices=True)

    def forward(self, x):
        return self.pool(self.conv(x))


# name -> (module class, input shape, pooling nodes in the exported graph)
ARCHITECTURES = {
    "resnet": (ResNetStem, (1, 3, 40, 40), 2),
    "googlenet": (GoogLeNet, (1, 3, 57, 57), 7),
    "squeezenet": (SqueezeNet, (1, 3, 63, 63), 4),
    "inception": (Inception, (1, 3, 35, 35), 6),
    "densenet": (DenseNet, (1, 3, 60, 60), 4),
    "temporal1d": (Temporal1d, (1, 4, 50), 3),
    "video3d": (Video3d, (1, 3, 4, 14, 14), 4),
    "segnet": (SegNetEncoder, (1, 3, 13, 12), 2),
}


def build(cls, seed):
    """The network in eval mode with random weights and random batch-norm statistics."""
    torch.manual_seed(seed)
    model = cls()
    for m in model.modules():
        if isinstance(m, (nn.BatchNorm1d, nn.BatchNorm2d, nn.BatchNorm3d)):
            m.running_mean.uniform_(-0.5, 0.5)
            m.running_var.uniform_(0.5, 2.0)
            m.weight.data.uniform_(0.5, 1.5)
            m.bias.data.uniform_(-0.5, 0.5)
    return model.eval()


def capture_pools(model, x):
    """module qualified name -> (input, output or (values, indices)) as NumPy arrays, for every pooling module."""
    seen, handles = {}, []
    names = {m: n for n, m in model.named_modules()}

    def hook(module, inputs, output):
        name = names[module]
        assert name not in seen, f"module {name} is called twice: its dumps would be ambiguous"
        out = tuple(o.detach().numpy() for o in output) if isinstance(output, tuple) else output.detach().numpy()
        seen[name] = (inputs[0].detach().numpy(), out)

    for m in model.modules():
        if isinstance(m, POOL_MODULES):
            handles.append(m.register_forward_hook(hook))
    with torch.no_grad():
        model(x)
    for h in handles:
        h.remove()
    return seen


def export(model, x, opset, path):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        # the TorchScript exporter: newer PyTorch defaults to the dynamo one, which needs onnxscript
        extra = {"dynamo": False} if "dynamo" in inspect.signature(torch.onnx.export).parameters else {}
        torch.onnx.export(model, x, path, opset_version=opset, do_constant_folding=True, **extra)
    return onnx.load(path)


def constant_values(graph, name):
    """The value of a Constant node's output or an initializer, as a NumPy array."""
    for init in graph.initializer:
        if init.name == name:
            return onnx.numpy_helper.to_array(init)
    for node in graph.node:
        if node.op_type == "Constant" and node.output[0] == name:
            return onnx.numpy_helper.to_array(node.attribute[0].t)
    raise ValueError(f"{name} is not a constant")


def real_input(graph, node, module_input):
    """What `node` receives: the module's input, padded as a Pad node between them says."""
    producer = next((n for n in graph.node if node.input[0] in n.output), None)
    if producer is None or producer.op_type != "Pad":
        return module_input
    attrs = {a.name: onnx.helper.get_attribute_value(a) for a in producer.attribute}
    mode = attrs.get("mode", b"constant")
    assert mode == b"constant", f"{producer.name}: Pad mode {mode}"
    pads = attrs["pads"] if "pads" in attrs else constant_values(graph, producer.input[1]).tolist()
    value = attrs.get("value", 0.0)
    if len(producer.input) > 2 and producer.input[2]:
        value = float(constant_values(graph, producer.input[2]))
    rank = module_input.ndim
    widths = [(pads[a], pads[a + rank]) for a in range(rank)]
    assert all(b >= 0 and e >= 0 for b, e in widths), f"{producer.name}: negative pads {pads}"
    return np.pad(module_input, widths, mode="constant", constant_values=value).astype(module_input.dtype)


def module_of(node, captured):
    """The pooling module a node was exported from, by the node's scope: `/inception3a/branch4/branch4.0/MaxPool`
    is module `inception3a.branch4.0` (a scope repeats its parent's name before a child's index)."""
    segments = [seg for part in node.name.split("/")[1:-1] for seg in part.split(".")]
    joined = ".".join(seg for k, seg in enumerate(segments) if k == 0 or seg != segments[k - 1])
    if joined in captured:
        return joined
    last = node.name.split("/")[-2]
    candidates = [name for name in captured if name == last or name.endswith("." + last)]
    assert len(candidates) == 1, f"{node.name}: no single pooling module for the scope, candidates {candidates}"
    return candidates[0]


def dump_pools(onnx_model, captured, data_dir):
    """Writes DIR/<node-index>.in0.npy / .out0.npy (/.out1.npy) for every pooling node.
    Returns {node index: (the node, how many of its outputs have an expected file)}."""
    graph = onnx_model.graph
    os.makedirs(data_dir, exist_ok=True)
    dumped = {}
    per_module = {}
    for index, node in enumerate(graph.node):
        if node.op_type not in POOL_OPS:
            continue
        module = module_of(node, captured)
        nth = per_module.get(module, 0)
        per_module[module] = nth + 1
        module_in, module_out = captured[module]
        x = real_input(graph, node, module_in)
        outputs = []
        if isinstance(module_out, tuple):
            values, plane_idx = module_out
            spatial = int(np.prod(module_in.shape[2:]))
            if nth == 0:  # the pool itself: values and whole-tensor indices
                offsets = np.arange(plane_idx.shape[0] * plane_idx.shape[1], dtype=np.int64)
                offsets = offsets.reshape(plane_idx.shape[0], plane_idx.shape[1], *([1] * (plane_idx.ndim - 2)))
                outputs = [values, plane_idx.astype(np.int64) + offsets * spatial]
            else:  # the exporter's kernel-1 MaxPool: its values are its input; its indices are not dumped
                attrs = {a.name: onnx.helper.get_attribute_value(a) for a in node.attribute}
                assert all(k == 1 for k in attrs["kernel_shape"]), f"{node.name}: {attrs}"
                outputs = [x]
        else:
            outputs = [module_out]
        np.save(os.path.join(data_dir, f"{index}.in0.npy"), np.ascontiguousarray(x))
        for k, out in enumerate(outputs):
            np.save(os.path.join(data_dir, f"{index}.out{k}.npy"), np.ascontiguousarray(out))
        dumped[index] = (node, len(outputs))
    return dumped


def irlint_json(irlint, args):
    code, out, err = run(irlint, args + ["--format", "json"], TIMEOUT)
    try:
        return code, json.loads(out), err
    except ValueError:
        return code, None, err


def check_model(irlint, label, model_path, data_dir, dumped, want_nodes):
    code, report, err = irlint_json(irlint, ["check", model_path])
    if check(f"{label}: check", code == 0 and report is not None, f"exit {code} {err.strip()[:300]}"):
        diags = [d for f in report["files"] for d in f["diagnostics"] if d["severity"] in ("error", "warning")]
        check(f"{label}: check findings", not diags, [f"{d['rule']}: {d['message']}" for d in diags][:3])
    check(f"{label}: pooling nodes", len(dumped) == want_nodes, f"{len(dumped)} nodes, expected {want_nodes}")

    code, report, err = irlint_json(irlint, ["run", model_path, "--data", data_dir])
    if not check(f"{label}: run --data", code == 0 and report is not None, f"exit {code} {err.strip()[:300]}"
                 f"{'' if report is None else [r.get('error') or r['status'] for r in report['runs']]}"):
        return 0
    check(f"{label}: summary", report["summary"] == {"layers": want_nodes, "ok": want_nodes, "mismatch": 0,
                                                      "error": 0, "not_compared": 0}, report["summary"])
    for r in report["runs"]:
        index = int(r["layer"]["id"])
        node, files = dumped.get(index, (None, 0))
        if not check(f"{label}: node {index} run", node is not None and r["status"] == "ok",
                     r.get("error") or r["status"]):
            continue
        outputs = r["outputs"]
        check(f"{label}: node {index} outputs", len(outputs) == len([o for o in node.output if o]),
              f"{len(outputs)} reported, the node has {list(node.output)}")
        compared = [o["compared"] for o in outputs]
        check(f"{label}: node {index} compared", compared == [k < files for k in range(len(outputs))], compared)
    return len(report["runs"])


def check_planted(irlint, label, model_path, data_dir, dumped, work):
    """One element of one node's expected values changed: exactly that node mismatches, at that element."""
    planted_dir = os.path.join(work, "planted")
    shutil.copytree(data_dir, planted_dir)
    index = sorted(dumped)[len(dumped) // 2]
    path = os.path.join(planted_dir, f"{index}.out0.npy")
    expected = np.load(path)
    flat = expected.size // 2
    position = np.unravel_index(flat, expected.shape)
    expected[position] += 1.0 + abs(expected[position])
    np.save(path, expected)
    code, report, err = irlint_json(irlint, ["run", model_path, "--data", planted_dir])
    if not check(f"{label}: planted run", code == 1 and report is not None, f"exit {code} {err.strip()[:300]}"):
        return
    statuses = {int(r["layer"]["id"]): r["status"] for r in report["runs"]}
    check(f"{label}: planted statuses", statuses == {i: "mismatch" if i == index else "ok" for i in dumped}, statuses)
    hit = next((r for r in report["runs"] if int(r["layer"]["id"]) == index), None)
    if check(f"{label}: planted node outputs", hit and hit["outputs"], hit and (hit.get("error") or hit["status"])):
        out = hit["outputs"][0]
        check(f"{label}: planted count", out["mismatches"] == 1, out["mismatches"])
        check(f"{label}: planted position", out["first_mismatch"] and out["first_mismatch"]["index"] ==
              [int(p) for p in position], out["first_mismatch"])


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--irlint", required=True)
    ap.add_argument("--work", help="keep the models and dumps here (default: a temporary directory)")
    args = ap.parse_args()
    irlint = os.path.abspath(args.irlint)
    torch.set_num_threads(1)
    work = args.work or tempfile.mkdtemp(prefix="irlint-torch-corpus-")
    start = time.monotonic()
    table = []
    try:
        for seed, (name, (cls, shape, want_nodes)) in enumerate(ARCHITECTURES.items()):
            model = build(cls, seed)
            x = torch.randn(*shape, generator=torch.Generator().manual_seed(100 + seed))
            captured = capture_pools(model, x)
            for opset in OPSETS:
                label = f"{name} opset {opset}"
                model_dir = os.path.join(work, f"{name}-opset{opset}")
                os.makedirs(model_dir, exist_ok=True)
                model_path = os.path.join(model_dir, "model.onnx")
                data_dir = os.path.join(model_dir, "data")
                try:
                    exported = export(model, x, opset, model_path)
                    dumped = dump_pools(exported, captured, data_dir)
                    ran = check_model(irlint, label, model_path, data_dir, dumped, want_nodes)
                    if opset == OPSETS[-1]:
                        check_planted(irlint, label, model_path, data_dir, dumped, model_dir)
                except Exception as e:  # a problem with one model fails it, the others still run
                    check(label, False, f"{type(e).__name__}: {e}")
                    continue
                ops = sorted({n.op_type for n, _ in dumped.values()})
                table.append((name, opset, ran, ",".join(ops)))
    finally:
        if not args.work:
            shutil.rmtree(work, ignore_errors=True)
    print(f"{'architecture':<12} {'opset':>5} {'nodes run':>9}  pooling ops")
    for name, opset, ran, ops in table:
        print(f"{name:<12} {opset:>5} {ran:>9}  {ops}")
    for f in FAILURES:
        print("FAIL", f)
    print(f"{len(table)} models, {sum(r[2] for r in table)} nodes run, {time.monotonic() - start:.1f} s, "
          f"{len(FAILURES)} failures")
    return 1 if FAILURES or not table else 0


if __name__ == "__main__":
    sys.exit(main())
