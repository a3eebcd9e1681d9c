"""irlint: OpenVINO IR and ONNX models checked against the runtime's shape rules.

check() reports what `irlint check` reports, infer() what `irlint infer` infers, shape() what
`irlint shape --op` answers; every error irlint raises is
an irlint.Error. See docs/python.md.
"""

from ._irlint import (
    ConfigError,
    DataError,
    Error,
    Finding,
    InferResult,
    ModelError,
    Report,
    ShapeResult,
    UsageError,
    __version__,
    check,
    infer,
    shape,
)

__all__ = [
    "ConfigError",
    "DataError",
    "Error",
    "Finding",
    "InferResult",
    "ModelError",
    "Report",
    "ShapeResult",
    "UsageError",
    "__version__",
    "check",
    "infer",
    "shape",
]

# run and compare: see run_bindings.cpp
