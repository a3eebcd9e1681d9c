"""Type stubs of irlint._irlint, the extension module the package irlint re-exports."""

import os
from typing import Dict, Iterator, List, Literal, NamedTuple, Optional, Sequence, Tuple, Union

import numpy as np

__version__: str

_StrPath = Union[str, bytes, "os.PathLike[str]"]
_Level = Literal["error", "warning", "note"]
# Dims as the JSON reports spell them: an int per static dim, -1 for a dynamic one, "lo..hi" for an
# interval; None for a dynamic rank.
_Dims = Optional[List[Union[int, str]]]

class Error(Exception):
    """The base of every error irlint raises; str(e) is the message the command line prints."""

class UsageError(Error):
    """Bad arguments: what the command line rejects with exit code 2 (a missing path, an unknown rule, ...)."""

class ModelError(Error):
    """A model that cannot be read or checked."""

class ConfigError(Error):
    """An irlint.toml that cannot be read or is invalid."""

class DataError(Error):
    """A tensor, .npy file or array that cannot be used."""

class LayerRef(NamedTuple):
    """The layer (IR) or node (ONNX) a finding is about: id, name, type."""
    id: str
    name: str
    type: str

class Finding:
    """One finding: what `irlint check` prints on one line."""

    @property
    def rule(self) -> str:
        """The rule id, e.g. 'output-shape-mismatch'."""
    @property
    def severity(self) -> _Level:
        """'error', 'warning' or 'note' (after the severity overrides)."""
    @property
    def path(self) -> str:
        """The file, as the walk reached it."""
    @property
    def line(self) -> int:
        """The line in the file; 0 when none."""
    @property
    def layer(self) -> Optional[LayerRef]:
        """The layer the finding is about, a LayerRef (id, name, type), or None."""
    @property
    def message(self) -> str:
        """The message, with its arithmetic."""
    @property
    def fingerprint(self) -> str:
        """16 hex digits that stay when lines move (what --baseline files hold)."""
    @property
    def port(self) -> str:
        """The port id the finding is about; '' when none."""
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

class Report:
    """The result of irlint.check: the findings of every file and the totals, as `irlint check` reports them.
    Iterating yields the findings; len() is their number."""

    @property
    def findings(self) -> List[Finding]:
        """Every finding, file by file in path order."""
    @property
    def errors(self) -> int:
        """How many errors."""
    @property
    def warnings(self) -> int:
        """How many warnings."""
    @property
    def notes(self) -> int:
        """How many notes."""
    @property
    def files(self) -> List[str]:
        """The files checked, in path order."""
    @property
    def layers(self) -> int:
        """Layers in the files."""
    @property
    def checked(self) -> int:
        """Layers whose shapes were inferred and compared."""
    @property
    def exit_code(self) -> int:
        """The exit code `irlint check` would give: 0 clean, 1 findings at --fail-on or a file that could not be
        checked, 2 an internal error."""
    @property
    def ok(self) -> bool:
        """exit_code == 0."""
    def __iter__(self) -> Iterator[Finding]: ...
    def __len__(self) -> int: ...
    def to_json(self) -> str:
        """The JSON report: the bytes of `irlint check --format json` for the same run."""
    def to_sarif(self) -> str:
        """The SARIF 2.1.0 report, URIs relative to the working directory of the check."""
    def to_junit(self) -> str:
        """The JUnit XML report."""
    def to_text(self) -> str:
        """The text report, uncolored, with its summary table (including the wall time)."""

def check(
    paths: Union[_StrPath, Sequence[_StrPath]],
    *,
    select: Union[str, Sequence[str], None] = None,
    ignore: Union[str, Sequence[str], None] = None,
    severity: Optional[Dict[str, Optional[Literal["error", "warning", "note", "off"]]]] = None,
    config: Union[_StrPath, Literal[False], None] = None,
    min_severity: Optional[_Level] = None,
    threads: Optional[int] = None,
    timeout_per_file: Optional[float] = None,
    exclude: Union[str, Sequence[str], None] = None,
) -> Report:
    """Checks IR (.xml) and ONNX (.onnx) files and directories, as `irlint check` does.

    paths: a path (str or os.PathLike) or a list of them; directories are searched for *.xml and *.onnx.
    select, ignore: rule ids (a str "a,b" or a list). severity: {rule: "error"|"warning"|"note"|"off"}.
    config: an irlint.toml for every path, None to use the nearest irlint.toml of each file, False for none.
    min_severity: the lowest severity kept in the report (default: note, as the JSON report).
    threads: files checked in parallel (-j; default: the hardware's). timeout_per_file: seconds per file.
    exclude: globs of paths to skip (--exclude).

    The GIL is released while the files are checked; Ctrl-C raises KeyboardInterrupt.
    Raises UsageError (a missing path, an unknown rule, ...) and ConfigError (an invalid irlint.toml).
    """

class InferResult:
    """What irlint.infer found: the model's inputs and outputs, every layer's declared and inferred shapes, the
    findings; after a reshape, what changed and what fails."""

    @property
    def path(self) -> str:
        """The model file."""
    @property
    def ir_version(self) -> Optional[int]:
        """The IR version (of an ONNX model: its ModelProto.ir_version)."""
    @property
    def producer(self) -> Optional[str]:
        """What wrote the model (an IR's rt_info, an ONNX model's producer_name and version), or None."""
    @property
    def inputs(self) -> List[Dict[str, object]]:
        """The model's inputs: dicts with name, dims, type, layout."""
    @property
    def outputs(self) -> List[Dict[str, object]]:
        """The model's outputs: dicts with name, dims, type, layout."""
    @property
    def layers(self) -> List[Dict[str, object]]:
        """Every layer: dicts with id, name, type, version, inputs, declared, inferred, declared_types,
        inferred_types, status ('ok', 'mismatch', ...), checked, not_checked."""
    @property
    def findings(self) -> List[Finding]:
        """Every finding `check` gives on the model (after a reshape: on the reshaped model)."""
    @property
    def changed(self) -> List[Dict[str, object]]:
        """After a reshape: the layers whose outputs change, dicts with id, name, type, before, after."""
    @property
    def failing(self) -> List[Finding]:
        """After a reshape: the reshape-incompatible findings, the layers that cannot take the new shapes."""
    def write(self, path: _StrPath) -> None:
        """Writes the reshaped model (IR or ONNX) to path atomically, as `infer --reshape ... -o` does; raises ModelError when a
        layer fails or the file cannot be rewritten."""

def infer(
    model: _StrPath,
    *,
    reshape: Union[str, Sequence[int], Dict[str, Union[str, Sequence[int]]], None] = None,
) -> InferResult:
    """Infers every layer's output dims and element types, as `irlint infer --all` does.

    model: an IR .xml or an ONNX .onnx path (str or os.PathLike).
    reshape: new input dims, as `--reshape`: a dims string "1,3,320,320" or a list of ints for a model with one
    input, or a dict {input name: dims string or list}. The whole model is inferred again from them.

    Raises UsageError (no such file, a bad reshape argument) and ModelError (a file that is not a readable model).
    """

class ShapeResult:
    """What irlint.shape inferred: the outputs' dims and element types, or the findings that say why OpenVINO
    would reject the layer (ok is False)."""

    @property
    def ok(self) -> bool:
        """True when the layer is valid; False when OpenVINO would reject it (see findings)."""
    @property
    def label(self) -> str:
        """The op version, e.g. 'MaxPool-14'."""
    @property
    def outputs(self) -> List[_Dims]:
        """Each output's dims: an int per static dim, -1 dynamic, 'lo..hi' an interval; None for a dynamic rank."""
    @property
    def types(self) -> List[Optional[str]]:
        """Each output's element type ('f32', 'i64', ...), or None when the op does not say."""
    @property
    def notes(self) -> List[List[str]]:
        """Per output, the arithmetic of each dim (may be empty)."""
    @property
    def formulas(self) -> List[str]:
        """Pooling ops: the arithmetic of each spatial axis."""
    @property
    def pads_begin(self) -> List[int]:
        """Pooling ops: the effective pads after auto_pad."""
    @property
    def pads_end(self) -> List[int]:
        """Pooling ops: the effective pads after auto_pad."""
    @property
    def unknown(self) -> Optional[str]:
        """A value the op needed and was not given (give it with values=), or None."""
    @property
    def findings(self) -> List[Finding]:
        """Why OpenVINO would reject the layer, as `check` would report it (warnings about attributes too)."""

_DimsArg = Union[str, Sequence[Union[int, str]]]

def shape(
    op: str,
    inputs: Sequence[Union[_DimsArg, Tuple[_DimsArg, str]]],
    *,
    opset: Optional[int] = None,
    attrs: Optional[Dict[str, Union[str, int, float, bool, Sequence[int]]]] = None,
    values: Optional[Dict[int, Sequence[Union[int, float]]]] = None,
    output_size: Optional[_DimsArg] = None,
    domain: Optional[str] = None,
) -> ShapeResult:
    """Infers what comes out of one layer, as `irlint shape --op` does, for any op `irlint ops` lists.

    op: the IR type, any case ("MaxPool", "Convolution", "Reshape", ...); with domain ("ai.onnx" or
    "com.microsoft") the ONNX op type as spelled ("Conv", "Gemm", ...). opset: the opset, or the ONNX model's
    import of the domain (default: the newest).
    inputs: in input order, each dims as a str "1,3,224,224" (or "1,3,224,224:f32") or a list [1, 3, 224, 224]
    (-1 or "?" dynamic, "2..10" an interval), or a (dims, element type) pair. Without a type an input is f32, or
    i64 when values gives its values.
    attrs: {name: value} as in the IR (lists as [3, 3] or "3,3", bools as True/False).
    values: {input index: [v1, v2, ...]}, the values of small inputs such as a target shape.
    output_size: adaptive pools, the output_size dims.

    Returns a ShapeResult (ok is False when OpenVINO would reject the layer). Raises UsageError for arguments
    the command line would reject.
    """


# ---- irlint.run, irlint.compare (src/python/run_bindings.cpp, run_results.cpp) ----------------------------


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
    def text(self) -> str:
        """The block map `irlint run` prints."""
    def to_json(self) -> str:
        """The map as `run --format json` writes it."""

class Explanation:
    """A convention of another producer under which the expected data matches (docs/diagnosis.md)."""
    convention: str
    description: str

class Comparison:
    """irlint.compare's result: the error statistics, the first and worst mismatch, the map; true when the
    arrays match."""
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
    """One output of a run: the computed array (irlint's buffer, no copy) and its comparison."""
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
    """What irlint.run computed and compared: the layer, every output with its array and statistics."""
    status: str  # "ok", "mismatch", "not_compared"
    ok: bool
    layer: dict[str, str]  # id, name, type, version
    op: str  # "MaxPool-8"
    input: np.ndarray  # the input as the layer took it: the caller's array when not copied
    outputs: list[OutputResult]
    warnings: list[str]
    kernel_ms: float
    def to_json(self) -> str:
        """The run as `irlint run --format json` prints it."""

ArrayLike = Union[np.ndarray, Sequence[float]]

def run(model: Union[str, os.PathLike[str]], layer: str, inputs: Union[ArrayLike, Sequence[ArrayLike]], *,
        expect: Union[None, ArrayLike, Sequence[Optional[ArrayLike]]] = None,
        output_size: Optional[ArrayLike] = None, atol: Optional[float] = None, rtol: Optional[float] = None,
        threads: Optional[int] = None) -> RunResult:
    """Runs one pooling layer of an IR or ONNX model on an array, as `irlint run` does.

    model: path of the IR .xml or the .onnx model; layer: its id or name (ONNX: name, index or first output);
    inputs: the input array, or [input, output_size] for an adaptive pool; expect: the expected array, or a
    list per output (values, indices) with None for an output not compared; atol, rtol: the tolerance (default
    by dtype); threads: kernel threads (0 or None: all). The input is viewed, not copied, when it is
    C-contiguous, native-endian and of the layer's dtype; bf16 is given and returned as uint16 bits.
    Raises UsageError, ModelError or DataError with the messages `irlint run` prints.
    """

def compare(actual: ArrayLike, expected: ArrayLike, *, atol: Optional[float] = None, rtol: Optional[float] = None,
            threads: Optional[int] = None, dtype: Optional[str] = None) -> Comparison:
    """Compares two arrays as `irlint run` compares an output with its expected data:
    |actual - expected| <= atol + rtol * |expected|, NaN equal to NaN, defaults by dtype. dtype='bf16' reads
    uint16 arrays as bf16 bits and rounds float32 arrays to bf16. Raises DataError when the shapes or dtypes
    differ.
    """
