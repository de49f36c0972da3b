"""torch's names that the third round of ported programs met (issue 37), each torch's meaning
composed from existing ops:

- torch's top-level spellings of the functional layers (`torch.conv2d`, `torch.layer_norm`,
  `torch.dropout(input, p, train)`, `torch.embedding(weight, indices)`, ...), with torch's
  argument orders where they differ from torch.nn.functional's;
- memory formats (`contiguous_format channels_last channels_last_3d preserve_format legacy_contiguous_format`): taken
  by `to` and `contiguous`, where meshflow's dense row-major tensors stay as they are;
- `kaiser_window ldexp frexp gcd lcm nextafter swapdims unflatten ravel detach atleast_3d asarray vdot
  chain_matmul adjoint isposinf isneginf isreal rsub
  pinverse nuclear_norm frobenius_norm set_default_device get_default_device
  is_anomaly_enabled set_anomaly_enabled`, and the Tensor methods `vdot adjoint H prelu
  hardshrink sum_to_size split_with_sizes narrow_copy isposinf isneginf isreal pinverse dsplit
  share_memory_ is_shared swapaxes_ swapdims_ ldexp frexp gcd lcm nextafter`; `gcd` and `lcm`
  run Euclid's steps (their count read on the host), `nextafter` on the host.
"""
from . import _C, _dtype
from ._promotion import tell_creation_dtype
from ._tensor import Tensor

__all__ = ["conv1d", "conv2d", "conv_transpose1d", "conv_transpose2d", "layer_norm", "group_norm", "batch_norm",
           "instance_norm", "dropout", "alpha_dropout", "feature_alpha_dropout", "embedding", "max_pool1d",
           "max_pool2d", "avg_pool1d", "adaptive_avg_pool1d", "adaptive_max_pool1d", "pixel_shuffle",
           "pixel_unshuffle", "channel_shuffle", "cosine_similarity", "pairwise_distance", "pdist", "prelu",
           "relu_", "selu", "celu", "rrelu", "threshold", "hardshrink", "rms_norm", "bilinear", "swapdims",
           "unflatten", "ravel", "detach", "atleast_3d", "asarray", "vdot", "chain_matmul", "adjoint",
           "isposinf", "isneginf", "isreal", "rsub", "pinverse",
           "nuclear_norm", "frobenius_norm", "set_default_device", "get_default_device", "is_anomaly_enabled",
           "set_anomaly_enabled", "memory_format", "contiguous_format", "channels_last", "channels_last_3d",
           "preserve_format", "legacy_contiguous_format", "kaiser_window", "ldexp", "frexp", "gcd", "lcm", "nextafter"]


class memory_format:
    """torch.memory_format: how a tensor lies in memory. `to`, `contiguous` and `Module.to` take
    channels_last (4 dims) and channels_last_3d (5 dims) as torch's do, with torch's strides,
    for local CPU tensors, whose convolutions, batch norm and elementwise ops keep the layout;
    global tensors and other devices' stay row-major (layouts across ranks are SBP's)."""

    def __init__(self, name):
        self._name = name

    def __repr__(self):
        return f"meshflow.{self._name}"


contiguous_format = memory_format("contiguous_format")
channels_last = memory_format("channels_last")
channels_last_3d = memory_format("channels_last_3d")
preserve_format = memory_format("preserve_format")
legacy_contiguous_format = memory_format("legacy_contiguous_format")  # torch's: row-major, as contiguous_format


def _functional():
    from .nn import functional
    return functional


def _same_as_functional(name):
    def f(*args, **kwargs):
        return getattr(_functional(), name)(*args, **kwargs)
    f.__name__ = f.__qualname__ = name
    f.__doc__ = f"torch.{name}: torch.nn.functional.{name} (the same arguments)."
    return f


for _name in ("conv1d", "conv2d", "conv_transpose1d", "conv_transpose2d", "layer_norm", "group_norm", "max_pool1d",
              "max_pool2d", "avg_pool1d", "adaptive_avg_pool1d", "adaptive_max_pool1d", "pixel_shuffle",
              "pixel_unshuffle", "channel_shuffle", "cosine_similarity", "pairwise_distance", "pdist", "prelu",
              "relu_", "selu", "celu", "rrelu", "threshold", "hardshrink", "rms_norm", "bilinear"):
    globals()[_name] = _same_as_functional(_name)


def dropout(input, p, train):
    """torch.dropout(input, p, train): F.dropout with train as its training."""
    return _functional().dropout(input, p, train)


def alpha_dropout(input, p, train):
    return _functional().alpha_dropout(input, p, train)


def feature_alpha_dropout(input, p, train):
    return _functional().feature_alpha_dropout(input, p, train)


def embedding(weight, indices, padding_idx=-1, scale_grad_by_freq=False, sparse=False):
    """torch.embedding(weight, indices, ...): F.embedding's arguments the other way round
    (padding_idx -1 meaning none, as torch's)."""
    return _functional().embedding(indices, weight, None if padding_idx < 0 else padding_idx,
                                   scale_grad_by_freq=scale_grad_by_freq, sparse=sparse)


def batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps, cudnn_enabled=True):
    """torch.batch_norm: F.batch_norm with torch's top-level argument order."""
    return _functional().batch_norm(input, running_mean, running_var, weight, bias, training, momentum, eps)


def instance_norm(input, weight, bias, running_mean, running_var, use_input_stats, momentum, eps,
                  cudnn_enabled=True):
    """torch.instance_norm: F.instance_norm with torch's top-level argument order."""
    return _functional().instance_norm(input, running_mean, running_var, weight, bias, use_input_stats, momentum,
                                       eps)


def swapdims(input, dim0, dim1):
    return input.transpose(dim0, dim1)


def unflatten(input, dim, sizes):
    return input.unflatten(dim, sizes)


def ravel(input):
    return input.reshape(-1)


def detach(input):
    return input.detach()


def atleast_3d(*tensors):
    """Each tensor with at least 3 dims: a 0-d one as [1, 1, 1], 1-d [N] as [1, N, 1], 2-d
    [M, N] as [M, N, 1] (torch's); one tensor gives a tensor, several a tuple."""
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tuple(tensors[0])
    out = []
    for t in tensors:
        if t.ndim == 0:
            t = t.reshape(1, 1, 1)
        elif t.ndim == 1:
            t = t.reshape(1, -1, 1)
        elif t.ndim == 2:
            t = t.unsqueeze(-1)
        out.append(t)
    return out[0] if len(out) == 1 else tuple(out)


def asarray(obj, *, dtype=None, device=None, copy=None, requires_grad=False):
    """torch.asarray: a tensor of obj (a tensor as it is unless dtype, device or copy=True ask
    for another, as torch's; a NumPy array over its memory where as_tensor shares it, unless
    copy=True; sequences as mf.tensor)."""
    from ._tensor import _shared_numpy, tensor
    if isinstance(obj, Tensor):
        out = obj.to(device=device, dtype=dtype, copy=bool(copy))
    else:
        out = None if copy else _shared_numpy(obj, dtype, device)
        out = tensor(obj, dtype=dtype, device=device) if out is None else out
    return out.requires_grad_(True) if requires_grad else out


def vdot(input, other):
    """The dot product of two 1-d tensors, the first conjugated."""
    if input.ndim != 1 or other.ndim != 1:
        raise RuntimeError(f"1D tensors expected, but got {input.ndim}D and {other.ndim}D tensors")
    return (input.conj() * other).sum()


def chain_matmul(*matrices):
    from .linalg import multi_dot
    return multi_dot(matrices)


def adjoint(input):
    """The conjugate transpose of the last two dims."""
    return input.transpose(-2, -1).conj()


def isposinf(input):
    return input == float("inf")


def isneginf(input):
    return input == float("-inf")


def isreal(input):
    """Where the imaginary part is 0 (everywhere for a real tensor)."""
    if input.dtype.is_complex:
        return input.imag == 0
    from ._ops_creation import ones_like
    return ones_like(input, dtype=_dtype.bool_)


def rsub(input, other, alpha=1):
    """other - alpha * input."""
    out = other - input * alpha if alpha != 1 else other - input
    return _C.grad_fn_as(out, "RsubBackward0" if isinstance(other, Tensor) else "RsubBackward1", input, other)


def pinverse(input, rcond=1e-15):
    from .linalg import pinv
    return pinv(input, rtol=rcond)


def nuclear_norm(input, dim=(-2, -1), keepdim=False):
    from .linalg import matrix_norm
    return matrix_norm(input, "nuc", dim, keepdim)


def frobenius_norm(input, dim=(-2, -1), keepdim=False):
    from .linalg import vector_norm
    return vector_norm(input, 2, dim, keepdim)


def set_default_device(device):
    """torch.set_default_device: the device that creation ops (zeros, rand, empty, ...) and
    layers' parameters use when not given device= (None: the CPU). Global tensors, made with
    placement=, are not affected."""
    from . import _device
    d = None if device is None else _device.device(device)
    _device.default = None if d is not None and d.type == "cpu" else d
    tell_creation_dtype()


def get_default_device():
    from . import _device
    return _device.default or _device.device("cpu")


def is_anomaly_enabled():
    from .autograd import is_anomaly_enabled as enabled
    return enabled()


def set_anomaly_enabled(enabled, check_nan=True):
    from .autograd import set_detect_anomaly
    set_detect_anomaly(enabled, check_nan)


def kaiser_window(window_length, periodic=True, beta=12.0, *, dtype=None, device=None, requires_grad=False):
    """torch.kaiser_window: i0(beta sqrt(1 - ((n - N/2) / (N/2))^2)) / i0(beta) for n < N,
    N = window_length (periodic: one more, its last value dropped)."""
    from ._ops_creation import arange, ones
    from ._ops_math import i0
    if window_length == 0:
        return ones(0, dtype=dtype, device=device)
    if window_length == 1:
        return ones(1, dtype=dtype, device=device)
    n = window_length + 1 if periodic else window_length
    k = arange(window_length, dtype=dtype or _dtype.float32, device=device)
    half = (n - 1) / 2
    ratio = ((k - half) / half).clamp(-1, 1)
    out = i0(beta * (1 - ratio * ratio).clamp(min=0).sqrt()) / i0(k.new_tensor(beta))
    return out.requires_grad_(True) if requires_grad else out


def ldexp(input, other):
    """input * 2 ** other (torch.ldexp; integers give floats)."""
    return input * (2.0 ** other.to(_dtype.float32 if not input.dtype.is_floating_point else input.dtype)
                    if isinstance(other, Tensor) else 2.0 ** other)


def frexp(input):
    """(mantissa, exponent) with input = mantissa * 2 ** exponent, |mantissa| in [0.5, 1) (0
    for 0; NaN and inf keep themselves with exponent 0), exponent int32, as torch.frexp."""
    from ._ops_elementwise import where
    from ._ops_math import log2
    finite = input.isfinite() & (input != 0)
    safe = where(finite, input.abs(), 1.0)
    exponent = (log2(safe).floor() + 1).to(_dtype.int32)
    mantissa = input / (2.0 ** exponent.to(input.dtype))
    # log2 may round across a power of two: one step fixes the mantissa's range.
    high = mantissa.abs() >= 1
    low = (mantissa.abs() < 0.5) & finite
    exponent = exponent + high.to(_dtype.int32) - low.to(_dtype.int32)
    mantissa = where(high, mantissa / 2, where(low, mantissa * 2, mantissa))
    mantissa = where(finite, mantissa, input)
    exponent = where(finite, exponent, 0).to(_dtype.int32)
    from .return_types import named
    return named("frexp", ("mantissa", "exponent"))(mantissa, exponent)


def gcd(input, other):
    """The greatest common divisor of integer tensors (nonnegative; gcd(0, 0) is 0), by
    Euclid's steps on the whole tensors (their count read on the host)."""
    from ._ops_elementwise import where
    if input.dtype.is_floating_point or (isinstance(other, Tensor) and other.dtype.is_floating_point):
        raise RuntimeError(f"\"gcd_cpu\" not implemented for '{input.dtype}'")
    a, b = input.abs(), other.abs()
    a, b = a + b * 0, b + a * 0  # broadcast together
    while bool((b != 0).any()):
        nonzero = b != 0
        a, b = where(nonzero, b, a), where(nonzero, a % where(nonzero, b, 1), 0)
    return a


def lcm(input, other):
    """The least common multiple of integer tensors (nonnegative; 0 where either is 0)."""
    from ._ops_elementwise import where
    divisor = gcd(input, other)
    return where(divisor == 0, 0, (input // where(divisor == 0, 1, divisor) * other).abs())


def nextafter(input, other):
    """The next float after input toward other (torch.nextafter), computed on the host."""
    import numpy as np
    from ._tensor import tensor
    result = np.nextafter(input._numpy(), other._numpy() if isinstance(other, Tensor) else other)
    return tensor(result, dtype=input.dtype, device=None if input.is_global else input.device)


# ---- Tensor methods

def _sum_to_size(self, *size):
    """self summed over the dims that broadcasting made, to `size` (torch's sum_to_size)."""
    size = tuple(size[0]) if len(size) == 1 and isinstance(size[0], (list, tuple)) else tuple(size)
    lead = self.ndim - len(size)
    dims = list(range(lead)) + [lead + i for i, n in enumerate(size) if n == 1 and self.shape[lead + i] != 1]
    out = self.sum(dims, keepdim=True) if dims else self
    return out.reshape(size)


def _split_with_sizes(self, split_sizes, dim=0):
    return self.split(list(split_sizes), dim)


def _narrow_copy(self, dim, start, length):
    return self.narrow(dim, start, length).clone()


def _dsplit(self, sections):
    from ._api import tensor_split
    if self.ndim < 3:
        raise RuntimeError(f"torch.dsplit requires a tensor with at least 3 dimension, but got a tensor with "
                           f"{self.ndim} dimensions!")
    return tensor_split(self, sections, dim=2)


def _share_memory_(self):
    """Itself: meshflow's tensors are moved between processes by their values (pickle), not by
    shared memory (torch's multiprocessing sharing)."""
    return self


def _H(self):
    """The conjugate transpose of a matrix (of a 0-d or 1-d tensor, its conjugate), torch's
    Tensor.H (of a real tensor the transpose)."""
    if self.ndim > 2:
        raise RuntimeError(f"tensor.H is only supported on matrices (2-D tensors). Got {self.ndim}-D tensor.")
    return (self.transpose(0, 1) if self.ndim == 2 else self).conj()


Tensor.vdot, Tensor.adjoint, Tensor.isposinf, Tensor.isneginf, Tensor.isreal = vdot, adjoint, isposinf, isneginf, isreal
Tensor.H = property(_H)
Tensor.prelu = lambda self, weight: _functional().prelu(self, weight)
Tensor.hardshrink = lambda self, lambd=0.5: _functional().hardshrink(self, lambd)
Tensor.pinverse = pinverse
Tensor.ldexp, Tensor.frexp = ldexp, frexp
Tensor.gcd, Tensor.lcm, Tensor.nextafter = gcd, lcm, nextafter
Tensor.sum_to_size = _sum_to_size
Tensor.split_with_sizes = _split_with_sizes
Tensor.narrow_copy = _narrow_copy
Tensor.dsplit = _dsplit
Tensor.share_memory_ = _share_memory_
Tensor.is_shared = lambda self: False
Tensor.swapaxes_ = Tensor.swapdims_ = lambda self, dim0, dim1: self.transpose_(dim0, dim1)
del _name
