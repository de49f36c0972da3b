"""meshflow.nn.init: torch.nn.init's initializers. Each replaces the tensor's value in place
(`tensor.data = ...`: modules and optimizers holding it see the new value), keeps its dtype,
device or layout, records no gradient, and returns the tensor. Random values come from
meshflow's generator (mf.manual_seed), or from the mf.Generator passed as generator=, so
every parallel layout draws the same ones; they are not torch's numbers."""
import math
import statistics

import numpy as np

from .._ops_creation import full_like, rand_like, randn_like
from .._tensor import _in_layout_of, no_grad

__all__ = ["calculate_gain", "uniform_", "normal_", "constant_", "zeros_", "ones_", "xavier_uniform_",
           "xavier_normal_", "kaiming_uniform_", "kaiming_normal_", "eye_", "dirac_", "orthogonal_", "trunc_normal_",
           "sparse_", "uniform", "normal", "constant", "xavier_uniform", "xavier_normal", "kaiming_uniform",
           "kaiming_normal", "eye", "dirac", "orthogonal", "sparse"]


def calculate_gain(nonlinearity, param=None):
    """The recommended gain for a nonlinearity, as torch's."""
    linear = ("linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d",
              "sigmoid")
    if nonlinearity in linear:
        return 1.0
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        # torch's check: a number, but not a bool (True would pass as a slope of 1)
        if param is not None and (isinstance(param, bool) or not isinstance(param, (int, float))):
            raise ValueError(f"negative_slope {param} not a valid number")
        slope = 0.01 if param is None else param
        return math.sqrt(2.0 / (1 + slope ** 2))
    if nonlinearity == "selu":
        return 3.0 / 4
    raise ValueError(f"calculate_gain: unsupported nonlinearity {nonlinearity!r}")


def _set(tensor, value):
    """tensor takes value in place, as torch's initializers write: through an alias too
    (init.normal_(m.weight.data, ...) initializes the parameter)."""
    with no_grad():
        tensor.copy_(value)
    return tensor


def uniform_(tensor, a=0.0, b=1.0, generator=None):
    return _set(tensor, rand_like(tensor, generator=generator) * (b - a) + a)


def normal_(tensor, mean=0.0, std=1.0, generator=None):
    return _set(tensor, randn_like(tensor, generator=generator) * std + mean)


def constant_(tensor, val):
    return _set(tensor, full_like(tensor, val))


def zeros_(tensor):
    return constant_(tensor, 0.0)


def ones_(tensor):
    return constant_(tensor, 1.0)


def _calculate_fan_in_and_fan_out(tensor):
    """(fan_in, fan_out) of a weight [out, in, *kernel]: torch's (private, yet called by many
    modules' reset_parameters, so under its name)."""
    if tensor.ndim < 2:
        raise ValueError(f"fan in and fan out need a tensor of at least 2 dims, got shape {tuple(tensor.shape)}")
    receptive = 1
    for size in tensor.shape[2:]:
        receptive *= size
    return tensor.shape[1] * receptive, tensor.shape[0] * receptive


def xavier_uniform_(tensor, gain=1.0, generator=None):
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    bound = gain * math.sqrt(6.0 / (fan_in + fan_out))
    return uniform_(tensor, -bound, bound, generator)


def xavier_normal_(tensor, gain=1.0, generator=None):
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    return normal_(tensor, 0.0, gain * math.sqrt(2.0 / (fan_in + fan_out)), generator)


def _calculate_correct_fan(tensor, mode):
    """The fan kaiming's `mode` ('fan_in' or 'fan_out') names, torch's (private) helper."""
    if mode not in ("fan_in", "fan_out"):
        raise ValueError(f"Mode {mode} not supported, please use one of fan_in, fan_out")
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    return fan_in if mode == "fan_in" else fan_out


def _kaiming_std(tensor, a, mode, nonlinearity):
    return calculate_gain(nonlinearity, a) / math.sqrt(_calculate_correct_fan(tensor, mode))


def _no_elements(tensor):
    """torch's kaiming initializers do nothing to a tensor without elements (its fan may be
    0), with a warning, before looking at their other arguments."""
    if 0 not in tuple(tensor.shape):
        return False
    import warnings
    warnings.warn("Initializing zero-element tensors is a no-op")
    return True


def kaiming_uniform_(tensor, a=0.0, mode="fan_in", nonlinearity="leaky_relu", generator=None):
    if _no_elements(tensor):
        return tensor
    bound = math.sqrt(3.0) * _kaiming_std(tensor, a, mode, nonlinearity)
    return uniform_(tensor, -bound, bound, generator)


def kaiming_normal_(tensor, a=0.0, mode="fan_in", nonlinearity="leaky_relu", generator=None):
    if _no_elements(tensor):
        return tensor
    return normal_(tensor, 0.0, _kaiming_std(tensor, a, mode, nonlinearity), generator)


def _set_host(tensor, array):
    """tensor's value replaced by the NumPy array (the full logical value), in its dtype and
    layout."""
    from .._tensor import tensor as _tensor
    return _set(tensor, _in_layout_of(_tensor(array).to(tensor.dtype), tensor))


def eye_(tensor):
    """The identity matrix (a 2-d tensor; ones on the main diagonal of a non-square one)."""
    if tensor.ndim != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    return _set_host(tensor, np.eye(*tensor.shape, dtype=np.float32))


def dirac_(tensor, groups=1):
    """The Dirac delta of a convolution weight [out, in, *kernel] (3 to 5 dims): in each of
    `groups` groups of out channels, output channel d passes input channel d through at the
    kernel's centre, so the convolution keeps as many input channels as it can."""
    if tensor.ndim not in (3, 4, 5):
        raise ValueError("Only tensors with 3, 4, or 5 dimensions are supported")
    sizes = tuple(tensor.shape)
    if sizes[0] % groups != 0:
        raise ValueError("dim 0 must be divisible by groups")
    out_per_group = sizes[0] // groups
    array = np.zeros(sizes, np.float32)
    centre = tuple(k // 2 for k in sizes[2:])
    for g in range(groups):
        for d in range(min(out_per_group, sizes[1])):
            array[(g * out_per_group + d, d) + centre] = 1.0
    return _set_host(tensor, array)


def orthogonal_(tensor, gain=1.0, generator=None):
    """A (semi-)orthogonal matrix (tensor flattened to [shape[0], rest]) times gain: the QR
    decomposition of a standard normal matrix (drawn from meshflow's generator), its Q's
    columns signed so that R's diagonal is positive, as torch's."""
    from .._ops_creation import randn
    if tensor.ndim < 2:
        raise ValueError("Only tensors with 2 or more dimensions are supported")
    if tensor.numel() == 0:
        return tensor
    rows = tensor.shape[0]
    cols = tensor.numel() // rows
    flat = randn(rows, cols, generator=generator)._numpy().astype(np.float64)
    if rows < cols:
        flat = flat.T
    q, r = np.linalg.qr(flat)
    q = q * np.sign(np.diag(r))
    if rows < cols:
        q = q.T
    return _set_host(tensor, (q * gain).reshape(tuple(tensor.shape)))


def trunc_normal_(tensor, mean=0.0, std=1.0, a=-2.0, b=2.0, generator=None):
    """Values from the normal distribution N(mean, std^2) truncated to [a, b]: uniform
    draws (meshflow's generator) mapped through the inverse normal CDF over [cdf(a), cdf(b)],
    then clamped to [a, b], as torch's."""
    if not std > 0:
        raise ValueError(f"trunc_normal_: std must be positive, got {std}")
    normal = statistics.NormalDist(mean, std)
    lo, hi = normal.cdf(a), normal.cdf(b)
    u = rand_like(tensor, generator=generator)._numpy().astype(np.float64).reshape(-1) if tensor.numel() else np.zeros(0)
    p = np.clip(lo + (hi - lo) * u, np.nextafter(0.0, 1.0), np.nextafter(1.0, 0.0))
    values = np.array([normal.inv_cdf(v) for v in p]).reshape(tuple(tensor.shape))
    return _set_host(tensor, np.clip(values, a, b))


def sparse_(tensor, sparsity, std=0.01, generator=None):
    """A 2-d tensor of N(0, std) values with ceil(sparsity * rows) zeros in each column (rows
    chosen at random), as torch's."""
    import math as _math
    from .._ops_random import randperm
    if tensor.ndim != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    rows, cols = tensor.shape
    zeros = int(_math.ceil(sparsity * rows))
    normal_(tensor, 0.0, std, generator)
    with no_grad():
        for col in range(cols):
            tensor[randperm(rows, generator=generator)[:zeros], col] = 0
    return tensor


# torch's deprecated spellings without the underscore (older programs call them).
uniform, normal, constant, xavier_uniform, xavier_normal = uniform_, normal_, constant_, xavier_uniform_, xavier_normal_
kaiming_uniform, kaiming_normal, eye, dirac, orthogonal, sparse = (kaiming_uniform_, kaiming_normal_, eye_, dirac_,
                                                                  orthogonal_, sparse_)
