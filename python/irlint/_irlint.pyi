
# ---- irlint.run, irlint.compare (src/python/run_bindings.cpp, run_results.cpp) ----------------------------

import os
from typing import Optional, Sequence, Union

import numpy as np

class Mismatch:
    """An element outside the tolerance."""
    index: tuple[int, ...]
    expected: float
    actual: float

class MismatchMap:
    """Where the mismatches are, on the output's plane grid (summed over batch, channels and depth)."""
    cells: np.ndarray  # grid_rows x grid_cols, uint64 counts
    fractions: np.ndarray  # grid_rows x grid_cols, the share of the elements behind each cell that mismatch
    channels: np.ndarray  # per channel (or block of channel_block channels), uint64
    depths: np.ndarray  # per depth plane of a 5D output, uint64; empty otherwise
    bands: dict[str, int]  # first_row, last_row, first_column, last_column, first_plane, last_plane, interior
    mismatches: int
    plane: tuple[int, int]  # rows, cols of the output's spatial plane
    block: tuple[int, int]  # plane positions per cell
    channel_block: int
    depth_block: int
    elements_per_position: int
    def text(self) -> str: ...
    def to_json(self) -> str: ...

class Explanation:
    """A convention of another producer under which the expected data matches (docs/diagnosis.md)."""
    convention: str
    description: str

class Comparison:
    total: int
    mismatches: int
    max_abs_err: float
    max_rel_err: float
    mean_abs_err: float
    histogram: dict[str, int]
    matches: bool
    shape: tuple[int, ...]
    dtype: str
    tolerance: tuple[float, float]  # atol, rtol
    first_mismatch: Optional[Mismatch]
    worst_mismatch: Optional[Mismatch]
    map: MismatchMap
    def __bool__(self) -> bool: ...

class OutputResult:
    index: int
    role: str  # "values" or "indices"
    array: np.ndarray  # irlint's buffer, no copy; bf16: uint16 bits
    dtype: str  # "f32", "bf16", "i64", ...
    shape: tuple[int, ...]
    tolerance: tuple[float, float]
    compared: bool
    matches: bool
    problem: Optional[str]
    total: int
    mismatches: int
    max_abs_err: float
    max_rel_err: float
    mean_abs_err: float
    histogram: dict[str, int]
    first_mismatch: Optional[Mismatch]
    worst_mismatch: Optional[Mismatch]
    map: Optional[MismatchMap]
    explanations: list[Explanation]
    diagnosed: bool

class RunResult:
    status: str  # "ok", "mismatch", "not_compared"
    ok: bool
    layer: dict[str, str]  # id, name, type, version
    op: str  # "MaxPool-8"
    input: np.ndarray  # the input as the layer took it: the caller's array when not copied
    outputs: list[OutputResult]
    warnings: list[str]
    kernel_ms: float
    def to_json(self) -> str: ...

ArrayLike = Union[np.ndarray, Sequence[float]]

def run(model: Union[str, os.PathLike[str]], layer: str, inputs: Union[ArrayLike, Sequence[ArrayLike]], *,
        expect: Union[None, ArrayLike, Sequence[Optional[ArrayLike]]] = None,
        output_size: Optional[ArrayLike] = None, atol: Optional[float] = None, rtol: Optional[float] = None,
        threads: Optional[int] = None) -> RunResult: ...

def compare(actual: ArrayLike, expected: ArrayLike, *, atol: Optional[float] = None, rtol: Optional[float] = None,
            threads: Optional[int] = None, dtype: Optional[str] = None) -> Comparison: ...
