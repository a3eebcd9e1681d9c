"""irlint: OpenVINO IR and ONNX models checked against the runtime's shape rules.

check() reports what `irlint check` reports, infer() what `irlint infer` infers, shape() what
`irlint shape --op` answers, run() what `irlint run` computes (NumPy arrays in and out), compare() what it
compares; every error irlint raises is an irlint.Error. See docs/python.md.
"""

from ._irlint import (
    Comparison,
    ConfigError,
    DataError,
    Error,
    Explanation,
    Finding,
    InferResult,
    LayerRef,
    Mismatch,
    MismatchMap,
    ModelError,
    OutputResult,
    Report,
    RunResult,
    ShapeResult,
    UsageError,
    check,
    compare,
    infer,
    run,
    shape,
    __version__,
)

__all__ = [
    "Comparison",
    "ConfigError",
    "DataError",
    "Error",
    "Explanation",
    "Finding",
    "InferResult",
    "LayerRef",
    "Mismatch",
    "MismatchMap",
    "ModelError",
    "OutputResult",
    "Report",
    "RunResult",
    "ShapeResult",
    "UsageError",
    "check",
    "compare",
    "infer",
    "run",
    "shape",
    "__version__",
]

