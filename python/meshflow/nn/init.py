"""meshflow.nn.init: torch.nn.init's initializers. Each replaces the tensor's value in place
(`tensor.data = ...`: modules and optimizers holding it see the new value), keeps its dtype,
device or layout, records no gradient, and returns the tensor. Random values come from
meshflow's generator (mf.manual_seed), so every parallel layout draws the same ones; they are
not torch's numbers."""
import math

from .._ops_creation import full_like, rand_like, randn_like
from .._tensor import no_grad

__all__ = ["calculate_gain", "uniform_", "normal_", "constant_", "zeros_", "ones_", "xavier_uniform_",
           "xavier_normal_", "kaiming_uniform_", "kaiming_normal_"]


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
        slope = 0.01 if param is None else param
        return math.sqrt(2.0 / (1 + slope ** 2))
    if nonlinearity == "selu":
        return 3.0 / 4
    raise ValueError(f"calculate_gain: unsupported nonlinearity {nonlinearity!r}")


def _set(tensor, value):
    with no_grad():
        tensor.data = value
    return tensor


def uniform_(tensor, a=0.0, b=1.0):
    return _set(tensor, rand_like(tensor) * (b - a) + a)


def normal_(tensor, mean=0.0, std=1.0):
    return _set(tensor, randn_like(tensor) * std + mean)


def constant_(tensor, val):
    return _set(tensor, full_like(tensor, val))


def zeros_(tensor):
    return constant_(tensor, 0.0)


def ones_(tensor):
    return constant_(tensor, 1.0)


def _fans(tensor):
    if tensor.ndim < 2:
        raise ValueError(f"fan in and fan out need a tensor of at least 2 dims, got shape {tensor.shape}")
    receptive = 1
    for size in tensor.shape[2:]:
        receptive *= size
    return tensor.shape[1] * receptive, tensor.shape[0] * receptive


def xavier_uniform_(tensor, gain=1.0):
    fan_in, fan_out = _fans(tensor)
    bound = gain * math.sqrt(6.0 / (fan_in + fan_out))
    return uniform_(tensor, -bound, bound)


def xavier_normal_(tensor, gain=1.0):
    fan_in, fan_out = _fans(tensor)
    return normal_(tensor, 0.0, gain * math.sqrt(2.0 / (fan_in + fan_out)))


def _kaiming_std(tensor, a, mode, nonlinearity):
    if mode not in ("fan_in", "fan_out"):
        raise ValueError(f"kaiming: mode {mode!r}; expected 'fan_in' or 'fan_out'")
    fan_in, fan_out = _fans(tensor)
    return calculate_gain(nonlinearity, a) / math.sqrt(fan_in if mode == "fan_in" else fan_out)


def kaiming_uniform_(tensor, a=0.0, mode="fan_in", nonlinearity="leaky_relu"):
    bound = math.sqrt(3.0) * _kaiming_std(tensor, a, mode, nonlinearity)
    return uniform_(tensor, -bound, bound)


def kaiming_normal_(tensor, a=0.0, mode="fan_in", nonlinearity="leaky_relu"):
    return normal_(tensor, 0.0, _kaiming_std(tensor, a, mode, nonlinearity))
