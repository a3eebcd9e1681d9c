"""The stub and the package name every public name of the module, so that neither drifts from it."""

import ast
import pathlib

import irlint
import irlint._irlint as module


def stub_names():
    stub = pathlib.Path(module.__file__).with_name("_irlint.pyi")
    tree = ast.parse(stub.read_text())
    names = set()
    for node in tree.body:
        if isinstance(node, (ast.ClassDef, ast.FunctionDef)):
            names.add(node.name)
        elif isinstance(node, ast.AnnAssign):
            names.add(node.target.id)
    return names


def public_names():
    return {n for n in dir(module) if not n.startswith("_")} | {"__version__"}


def test_every_public_name_is_in_the_stub():
    assert public_names() - stub_names() == set()


def test_the_package_exports_every_public_name():
    assert set(irlint.__all__) == public_names()
    for name in irlint.__all__:
        assert getattr(irlint, name) is getattr(module, name)


def test_every_function_and_class_has_a_docstring():
    for name in public_names() - {"__version__"}:
        assert (getattr(module, name).__doc__ or "").strip(), name
    for cls in (irlint.Finding, irlint.Report, irlint.InferResult):
        for attr, value in vars(cls).items():
            if not attr.startswith("_"):
                assert (value.__doc__ or "").strip(), f"{cls.__name__}.{attr}"


def test_py_typed_is_beside_the_package():
    assert pathlib.Path(irlint.__file__).with_name("py.typed").exists()
