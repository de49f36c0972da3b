"""meshflow.fft: torch.fft's discrete Fourier transforms.

    fft ifft rfft irfft          one dim (n: the signal's length, cropped or zero-padded)
    hfft ihfft                   one dim, of a Hermitian signal (irfft's and rfft's ops, conjugated)
    fft2 ifft2 rfft2 irfft2      the last two dims (s: their lengths)
    fftn ifftn rfftn irfftn      any dims (s, dim)
    fftfreq rfftfreq             the sample frequencies
    fftshift ifftshift           the zero frequency moved to the middle, and back

norm: "backward" (the default: the forward transform unscaled, the inverse by 1/n), "ortho"
(both by 1/sqrt(n)) or "forward" (the forward by 1/n). Integer inputs compute in the default
float dtype; float32 gives complex64 and float64 complex128. The transforms are three C++ ops
(meshflow/ops/fft.cc: fft_c2c, fft_r2c, fft_c2r), each differentiable as torch's, so spectral
losses and Fourier layers train.
"""
from . import _dtype
from ._promotion import get_default_dtype as _default_dtype
from ._tensor import Tensor as _Tensor, apply as _apply

__all__ = ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft", "fft2", "ifft2", "rfft2", "irfft2", "fftn", "ifftn", "rfftn", "irfftn",
           "fftfreq", "rfftfreq", "fftshift", "ifftshift"]


def _norm_mode(norm, forward):
    """torch's fft_norm_mode: 0 none, 1 by sqrt(n), 2 by n."""
    if norm is None or norm == "backward":
        return 0 if forward else 2
    if norm == "ortho":
        return 1
    if norm == "forward":
        return 2 if forward else 0
    raise ValueError(f"Invalid normalization mode: {norm!r}; expected 'backward', 'ortho' or 'forward'")


def _floating(name, x, complex_ok=True):
    """x as a float or complex tensor: integers and bool in the default float dtype."""
    if not isinstance(x, _Tensor):
        raise TypeError(f"{name}(): argument 'input' must be Tensor, not {type(x).__name__}")
    if x.dtype.is_complex:
        if not complex_ok:
            raise RuntimeError(f"{name} expects a real input tensor, but got {x.dtype.name}")
        return x
    if x.dtype.name not in ("float32", "float64"):
        x = x.to(_default_dtype() if not x.dtype.is_floating_point else _dtype.float32)
    return x


def _as_complex(x):
    return x if x.dtype.is_complex else x.to(_dtype.complex_of(x.dtype))


def _dims_and_sizes(name, x, s, dim, default_all=True):
    """torch's rule: dim None and s None -> every dim (or the last two for the 2-d forms,
    which pass dim); s alone -> the last len(s) dims; s entries of -1 keep the size."""
    ndim = x.ndim
    if dim is not None:
        dims = [dim] if isinstance(dim, int) else list(dim)
    elif s is not None:
        dims = list(range(ndim - len(s), ndim))
    else:
        dims = list(range(ndim))
    dims = [d + ndim if d < 0 else d for d in dims]
    if any(not 0 <= d < ndim for d in dims):
        raise IndexError(f"{name}: dim {dim} out of range for a tensor of {ndim} dims")
    if len(set(dims)) != len(dims):
        raise RuntimeError(f"{name}: dims must be unique, got {dims}")
    if s is None:
        sizes = [x.shape[d] for d in dims]
    else:
        s = [s] if isinstance(s, int) else list(s)
        if len(s) != len(dims):
            raise RuntimeError(f"{name}: When given, dim and shape arguments must have the same length")
        sizes = [x.shape[d] if n == -1 else n for n, d in zip(s, dims)]
    if any(n < 1 for n in sizes):
        raise RuntimeError(f"{name}: Invalid number of data points ({min(sizes)}) specified")
    return dims, sizes


def _resized(x, dims, sizes):
    """x cropped or zero-padded at the end of each dim to its size (torch's resize of the signal)."""
    from ._ops_creation import zeros
    from ._ops_shape import cat, narrow
    for d, n in zip(dims, sizes):
        have = x.shape[d]
        if have > n:
            x = narrow(x, d, 0, n)
        elif have < n:
            shape = list(x.shape)
            shape[d] = n - have
            x = cat([x, zeros(shape, dtype=x.dtype, device=x.device)], d)
    return x


def _c2c(x, dims, norm, forward):
    return _apply("fft_c2c", [_as_complex(x)], {"dims": dims, "norm": _norm_mode(norm, forward), "forward": forward})[0]


def _fftn(name, x, s, dim, norm, forward):
    x = _floating(name, x)
    dims, sizes = _dims_and_sizes(name, x, s, dim)
    x = _resized(x, dims, sizes)
    if forward and not x.dtype.is_complex:  # a real signal: r2c's full spectrum
        return _apply("fft_r2c", [x], {"dims": dims, "norm": _norm_mode(norm, True), "onesided": False})[0]
    return _c2c(x, dims, norm, forward)


def _rfftn(name, x, s, dim, norm, forward=True):
    """The real-to-complex transform; forward=False: ihfft's, scaled as an inverse and
    conjugated (torch's fft_r2c)."""
    x = _floating(name, x, complex_ok=False)
    dims, sizes = _dims_and_sizes(name, x, s, dim)
    x = _resized(x, dims, sizes)
    out = _apply("fft_r2c", [x], {"dims": dims, "norm": _norm_mode(norm, forward), "onesided": True})[0]
    return out if forward else out.conj()


def _irfftn(name, x, s, dim, norm, forward=False):
    """The complex-to-real transform; forward=True: hfft's, of the conjugated input scaled as a
    forward transform (torch's fft_c2r)."""
    x = _as_complex(_floating(name, x))
    if forward:
        x = x.conj()
    dims, sizes = _dims_and_sizes(name, x, s, dim)
    given = s is not None and ([s] if isinstance(s, int) else list(s))[-1] != -1
    last = sizes[-1] if given else 2 * (x.shape[dims[-1]] - 1)  # the output's length on the last dim
    if last < 1:
        raise RuntimeError(f"{name}: Invalid number of data points ({last}) specified")
    x = _resized(x, dims, sizes[:-1] + [last // 2 + 1])
    return _apply("fft_c2r", [x], {"dims": dims, "norm": _norm_mode(norm, forward), "last_dim_size": last})[0]


def fft(input, n=None, dim=-1, norm=None):
    """The 1-d discrete Fourier transform along `dim`."""
    return _fftn("fft", input, None if n is None else [n], [dim], norm, True)


def ifft(input, n=None, dim=-1, norm=None):
    """The 1-d inverse discrete Fourier transform along `dim`."""
    return _fftn("ifft", input, None if n is None else [n], [dim], norm, False)


def rfft(input, n=None, dim=-1, norm=None):
    """The 1-d transform of a real signal: the n // 2 + 1 non-negative frequencies."""
    return _rfftn("rfft", input, None if n is None else [n], [dim], norm)


def irfft(input, n=None, dim=-1, norm=None):
    """rfft's inverse: a real signal of length n (default 2 (m - 1) for m frequencies)."""
    return _irfftn("irfft", input, None if n is None else [n], [dim], norm)


def hfft(input, n=None, dim=-1, norm=None):
    """The transform of a Hermitian signal given by its first half: a real signal of length n
    (default 2 (m - 1)), as torch.fft.hfft."""
    return _irfftn("hfft", input, None if n is None else [n], [dim], norm, forward=True)


def ihfft(input, n=None, dim=-1, norm=None):
    """hfft's inverse: the n // 2 + 1 first values of a real signal's inverse transform."""
    return _rfftn("ihfft", input, None if n is None else [n], [dim], norm, forward=False)


def fft2(input, s=None, dim=(-2, -1), norm=None):
    """The 2-d transform of the last two dims (or `dim`)."""
    return _fftn("fft2", input, s, dim, norm, True)


def ifft2(input, s=None, dim=(-2, -1), norm=None):
    """fft2's inverse."""
    return _fftn("ifft2", input, s, dim, norm, False)


def rfft2(input, s=None, dim=(-2, -1), norm=None):
    """The 2-d transform of a real signal: the last of `dim` keeps its non-negative frequencies."""
    return _rfftn("rfft2", input, s, dim, norm)


def irfft2(input, s=None, dim=(-2, -1), norm=None):
    """rfft2's inverse: a real signal (the last dim's length s[-1], default 2 (m - 1))."""
    return _irfftn("irfft2", input, s, dim, norm)


def fftn(input, s=None, dim=None, norm=None):
    """The transform over `dim` (every dim by default; the last len(s) with `s`)."""
    return _fftn("fftn", input, s, dim, norm, True)


def ifftn(input, s=None, dim=None, norm=None):
    """fftn's inverse."""
    return _fftn("ifftn", input, s, dim, norm, False)


def rfftn(input, s=None, dim=None, norm=None):
    """fftn of a real signal: the last of `dim` keeps its non-negative frequencies."""
    return _rfftn("rfftn", input, s, dim, norm)


def irfftn(input, s=None, dim=None, norm=None):
    """rfftn's inverse: a real signal (the last dim's length s[-1], default 2 (m - 1))."""
    return _irfftn("irfftn", input, s, dim, norm)


def fftfreq(n, d=1.0, *, dtype=None, device=None, requires_grad=False):
    """The frequencies of an n-point transform with sample spacing d: [0, 1, ..., (n - 1) // 2,
    -(n // 2), ..., -1] / (d n)."""
    from ._ops_creation import arange
    k = arange(n, dtype=dtype or _default_dtype(), device=device)
    out = (k - (k >= (n + 1) // 2).to(k.dtype) * n) / (d * n)
    return out.requires_grad_(requires_grad)


def rfftfreq(n, d=1.0, *, dtype=None, device=None, requires_grad=False):
    """The non-negative frequencies of an n-point real transform: [0, ..., n // 2] / (d n)."""
    from ._ops_creation import arange
    out = arange(n // 2 + 1, dtype=dtype or _default_dtype(), device=device) / (d * n)
    return out.requires_grad_(requires_grad)


def _shift(x, dim, sign):
    from ._ops_math import roll
    dims = list(range(x.ndim)) if dim is None else [dim] if isinstance(dim, int) else list(dim)
    return roll(x, [sign * (x.shape[d] // 2) for d in dims], dims)


def fftshift(input, dim=None):
    """The zero frequency moved to the middle of each dim (all dims by default)."""
    return _shift(input, dim, 1)


def ifftshift(input, dim=None):
    """fftshift's inverse."""
    return _shift(input, dim, -1)
