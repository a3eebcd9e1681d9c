"""The irlint package under test is the build tree's: CTest passes PYTHONPATH=BUILD/python and
IRLINT_PYTHON_DIR=BUILD/python, IRLINT_BINARY (the command line, to compare with) and IRLINT_TESTDATA.
Without them, or when `import irlint` finds another copy, the suite fails instead of testing something else."""

import os
import pathlib
import shutil

import pytest


def _required(name):
    value = os.environ.get(name)
    if not value:
        raise pytest.UsageError(f"{name} is not set: run the suite through CTest (ctest -R python)")
    return value


PYTHON_DIR = pathlib.Path(_required("IRLINT_PYTHON_DIR")).resolve()
BINARY = pathlib.Path(_required("IRLINT_BINARY")).resolve()
TESTDATA = pathlib.Path(_required("IRLINT_TESTDATA")).resolve()

import irlint  # noqa: E402

if not pathlib.Path(irlint.__file__).resolve().is_relative_to(PYTHON_DIR):
    raise pytest.UsageError(f"import irlint found {irlint.__file__}, not the build tree's {PYTHON_DIR}")
for path in (BINARY, TESTDATA / "valid", TESTDATA / "spec"):
    if not path.exists():
        raise pytest.UsageError(f"{path} is missing")


@pytest.fixture(scope="session")
def binary():
    return str(BINARY)


@pytest.fixture(scope="session")
def testdata():
    return TESTDATA


@pytest.fixture(scope="session")
def big_directory(tmp_path_factory):
    """300 names of one real IR of 400 layers (hard links, else copies): a few tenths of a second of work with
    one thread, enough to time and to interrupt."""
    root = tmp_path_factory.mktemp("big")
    source = TESTDATA / "realir" / "obd-selfie_multiclass_f32_256x256.xml"
    assert source.exists(), f"{source} is missing"
    for i in range(300):
        target = root / f"d{i // 100}" / f"m{i:04}.xml"
        target.parent.mkdir(exist_ok=True)
        try:
            os.link(source, target)
        except OSError:
            shutil.copy(source, target)
    return root
