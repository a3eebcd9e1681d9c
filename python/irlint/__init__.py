"""irlint: OpenVINO IR and ONNX models checked against the runtime's shape rules."""

from ._irlint import *  # noqa: F401,F403
from ._irlint import __version__  # noqa: F401
