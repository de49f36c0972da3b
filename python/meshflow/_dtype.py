"""Element types: meshflow.float32, float64, int32, int64."""
import numpy as _np


class dtype:
    __slots__ = ("name", "numpy")

    def __init__(self, name):
        self.name = name
        self.numpy = _np.dtype(name)

    def __repr__(self):
        return f"meshflow.{self.name}"

    def __eq__(self, other):
        return isinstance(other, dtype) and other.name == self.name

    def __hash__(self):
        return hash(self.name)


float32 = dtype("float32")
float64 = dtype("float64")
int32 = dtype("int32")
int64 = dtype("int64")
_BY_NAME = {d.name: d for d in (float32, float64, int32, int64)}


def to_dtype(value):
    """A meshflow dtype from a meshflow dtype, a NumPy dtype or type, or a name."""
    if isinstance(value, dtype):
        return value
    try:
        name = _np.dtype(value).name
    except TypeError:
        name = str(value)
    if name not in _BY_NAME:
        raise ValueError(f"unsupported dtype '{name}'; expected one of float32, float64, int32, int64")
    return _BY_NAME[name]
