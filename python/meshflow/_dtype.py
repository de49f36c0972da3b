"""Element types: meshflow.float32, float64, int32, int64, bfloat16, float16 (half), bool,
uint8, int8, int16, complex64 (cfloat) and complex128 (cdouble) (NumPy's of the same names;
images arrive as uint8).

bfloat16 has no NumPy type: its values come out of numpy() as float32 (exactly), and data
given with dtype=bfloat16 is rounded from float32 to the nearest bfloat16 (ties to even).
"""
import numpy as _np


class dtype:
    __slots__ = ("name", "numpy")

    def __init__(self, name, numpy=None):
        self.name = name
        self.numpy = _np.dtype(numpy or name)  # the NumPy dtype its values come out as

    def __repr__(self):
        return f"meshflow.{self.name}"

    def __eq__(self, other):
        return isinstance(other, dtype) and other.name == self.name

    def __hash__(self):
        return hash(self.name)

    @property
    def is_floating_point(self):
        """Whether it is float16, bfloat16, float32 or float64, as torch.dtype's: the halves
        count, so that ops asking "float or integer?" never treat them as integers."""
        return self.name in ("float16", "bfloat16", "float32", "float64")

    @property
    def is_complex(self):
        return self.name in ("complex64", "complex128")

    @property
    def is_signed(self):
        return self.numpy.kind not in "bu"  # bool, uint8, quint8

    def to_complex(self):
        """The complex dtype of a float32 or float64 one's precision, as torch.dtype's
        (complex ones as they are; meshflow has no complex32, float16's)."""
        if self.name not in ("float32", "float64", "complex64", "complex128"):
            raise RuntimeError(f"to_complex: {self!r} has no complex counterpart; expected float32 or float64")
        return complex_of(self)

    def to_real(self):
        """The float dtype of a complex dtype's parts; real ones as they are (torch.dtype's)."""
        return real_of(self)

    @property
    def itemsize(self):
        """Bytes per element, as torch.dtype's (bfloat16: 2, though its NumPy values are float32)."""
        return 2 if self.name == "bfloat16" else self.numpy.itemsize


float32 = dtype("float32")
float64 = dtype("float64")
int32 = dtype("int32")
int64 = dtype("int64")
bfloat16 = dtype("bfloat16", numpy="float32")
bool_ = dtype("bool")  # meshflow.bool (NumPy's bool_); named bool_ here not to hide Python's bool
float16 = dtype("float16")  # a storage type as bfloat16 (NumPy's float16: the same bits)
half = float16
uint8 = dtype("uint8")
int8 = dtype("int8")
int16 = dtype("int16")
complex64 = dtype("complex64")
complex128 = dtype("complex128")
cfloat, cdouble = complex64, complex128
# torch's quantized element types, only as names for quantize_dynamic's dtype= (ao/quantization):
# no tensor holds them (to_dtype refuses them).
qint8 = dtype("qint8", numpy="int8")
quint8 = dtype("quint8", numpy="uint8")
qint32 = dtype("qint32", numpy="int32")
_BY_NAME = {d.name: d for d in (float32, float64, int32, int64, bfloat16, bool_, float16, uint8, int8, int16, complex64,
                                 complex128)}


class _DTypeNameError(TypeError, ValueError):
    """A string that names no meshflow dtype: torch's TypeError (it takes no strings), and a
    ValueError as meshflow raised before."""


def to_dtype(value):
    """A meshflow dtype from a meshflow dtype, a NumPy dtype or type, or the name of a meshflow
    dtype (NumPy's other names are refused: its "float" and "int" are not torch's)."""
    if isinstance(value, dtype):
        if value.name not in _BY_NAME:
            raise TypeError(f"no tensor holds {value} (meshflow has no quantized tensors); expected one of "
                            + ", ".join(_BY_NAME))
        return value
    if isinstance(value, str):  # tensors' own dtypes: no NumPy parsing, whose "float" is float64
        if value in _BY_NAME:
            return _BY_NAME[value]
        raise _DTypeNameError(f"dtype must be a meshflow.dtype, got the string {value!r}; expected "
                              "meshflow.float32 and the like, or one of the names " + ", ".join(_BY_NAME))
    if callable(value) and isinstance(getattr(value, "dtype", None), dtype):  # mf.FloatTensor, ...
        return value.dtype
    try:
        name = _np.dtype(value).name
    except TypeError:
        name = str(value)
    if name not in _BY_NAME:
        raise ValueError(f"unsupported dtype '{name}'; expected one of float32, float64, int32, int64, bfloat16, bool, "
                         "float16, uint8, int8, int16, complex64, complex128")
    return _BY_NAME[name]


globals()["bool"] = bool_  # meshflow.bool, as torch.bool


def complex_of(d):
    """The complex dtype of a float dtype's precision (float64: complex128; others complex64)."""
    return complex128 if d in (float64, complex128) else complex64


def real_of(d):
    """The float dtype of a complex dtype's parts; other dtypes as they are."""
    return {"complex64": float32, "complex128": float64}.get(d.name, d)
