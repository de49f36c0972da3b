"""torch.testing.assert_close: tensors (or nested containers of them, or numbers) equal within
torch's default tolerances for their dtype, raising AssertionError naming the worst element."""
import numpy as _np

from ._tensor import Tensor

__all__ = ["assert_close"]

# torch's defaults (rtol, atol) by dtype; integers and bool compare exactly.
_TOLERANCES = {"float16": (1e-3, 1e-5), "bfloat16": (1.6e-2, 1e-5), "float32": (1.3e-6, 1e-5),
               "float64": (1e-7, 1e-7)}


def _array(x):
    if isinstance(x, Tensor):
        return x.detach().cpu()._numpy() if not x.is_global else x.detach()._part()._numpy(), x.dtype.name
    a = _np.asarray(x)
    return a, "float32" if a.dtype.kind == "f" else a.dtype.name


def assert_close(actual, expected, *, allow_subclasses=True, rtol=None, atol=None, equal_nan=False,
                 check_device=True, check_dtype=True, check_layout=True, check_stride=False, msg=None):
    if isinstance(actual, (list, tuple)) and isinstance(expected, (list, tuple)):
        if len(actual) != len(expected):
            raise AssertionError(f"The length of the sequences mismatch: {len(actual)} != {len(expected)}")
        for a, e in zip(actual, expected):
            assert_close(a, e, rtol=rtol, atol=atol, equal_nan=equal_nan, check_dtype=check_dtype, msg=msg)
        return
    if isinstance(actual, dict) and isinstance(expected, dict):
        if set(actual) != set(expected):
            raise AssertionError(f"The keys of the mappings do not match: {sorted(actual)} != {sorted(expected)}")
        for k in actual:
            assert_close(actual[k], expected[k], rtol=rtol, atol=atol, equal_nan=equal_nan, check_dtype=check_dtype,
                         msg=msg)
        return
    (a, a_dtype), (e, e_dtype) = _array(actual), _array(expected)
    if (rtol is None) != (atol is None):
        raise ValueError("Both 'rtol' and 'atol' must be either specified or omitted")
    if check_dtype and isinstance(actual, Tensor) and isinstance(expected, Tensor) and a_dtype != e_dtype:
        raise AssertionError(f"The values for attribute 'dtype' do not match: {a_dtype} != {e_dtype}.")
    if a.shape != e.shape:
        raise AssertionError(f"The values for attribute 'shape' do not match: {a.shape} != {e.shape}.")
    if rtol is None:
        rtol, atol = max(_TOLERANCES.get(a_dtype, (0.0, 0.0)), _TOLERANCES.get(e_dtype, (0.0, 0.0)))
    a64, e64 = a.astype(_np.float64), e.astype(_np.float64)
    close = _np.isclose(a64, e64, rtol=rtol, atol=atol, equal_nan=equal_nan)
    if not close.all():
        diff = _np.abs(a64 - e64)
        worst = _np.unravel_index(_np.nanargmax(_np.where(close, -1, diff)), a.shape) if a.ndim else ()
        text = (f"Tensor-likes are not close!\n\nMismatched elements: {int((~close).sum())} / {close.size}\n"
                f"Greatest absolute difference: {float(_np.nanmax(diff))} at index {tuple(int(i) for i in worst)} "
                f"(up to {atol} allowed)\nGreatest relative difference: "
                f"{float(_np.nanmax(diff / _np.abs(e64).clip(1e-300)))} (up to {rtol} allowed)")
        raise AssertionError(msg if isinstance(msg, str) else msg(text) if callable(msg) else text)
