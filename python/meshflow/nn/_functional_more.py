"""meshflow.nn.functional, continued (issue 26): instance_norm, local_response_norm, selu and
celu, as torch defines them. Compositions of existing ops: they run on every device and
layout those do, and their gradients are theirs."""
from .._inplace import _inplace
from .._ops_creation import zeros_like
from .._ops_elementwise import exp, where
from .._ops_reduce import mean
from .._ops_shape import cat
from .._tensor import _in_layout_of, no_grad
from ._functional_conv import _broadcast_beside, _channel_view, batch_norm, group_norm

_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


def selu(input, inplace=False):
    """scale * (max(0, x) + min(0, alpha * (exp(x) - 1))) with torch's alpha and scale."""
    def compute():
        negative = (exp(where(input > 0, 0.0, input)) - 1.0) * (_SELU_ALPHA * _SELU_SCALE)
        return where(input > 0, input * _SELU_SCALE, negative)
    return _inplace(input, compute, "selu_") if inplace else compute()


def celu(input, alpha=1.0, inplace=False):
    """max(0, x) + min(0, alpha * (exp(x / alpha) - 1))."""
    if alpha == 0:
        raise RuntimeError("ZeroDivisionError")
    def compute():
        return where(input > 0, input, (exp(where(input > 0, 0.0, input) * (1.0 / alpha)) - 1.0) * alpha)
    return _inplace(input, compute, "celu_") if inplace else compute()


def instance_norm(input, running_mean=None, running_var=None, weight=None, bias=None, use_input_stats=True,
                  momentum=0.1, eps=1e-5):
    """Normalizes each channel of each sample of input [N, C, ...] over its other dims (the
    statistics of the instance: use_input_stats, or running_mean / running_var otherwise),
    then scales by weight and shifts by bias ([C] each). With use_input_stats, running_mean
    and running_var (when given) take (1 - momentum) * running + momentum * the batch's mean
    of the instances' statistics (the variance unbiased), in place, as torch's."""
    if input.ndim < 3:
        raise ValueError(f"instance_norm: expected an input [N, C, ...] of 3 or more dims, got shape "
                         f"{tuple(input.shape)}")
    if not use_input_stats:
        if running_mean is None or running_var is None:
            raise ValueError("Expected running_mean and running_var to be defined when use_input_stats is false")
        return batch_norm(input, running_mean, running_var, weight, bias, False, momentum, eps)
    n, c = input.shape[:2]
    count = input.numel() // (n * c)
    if count <= 1:
        raise ValueError(f"Expected more than 1 spatial element when training, got input size {tuple(input.shape)}")
    y = group_norm(input, c, None, None, eps)
    if running_mean is not None and running_var is not None:
        with no_grad():
            flat = input.reshape(n, c, -1)
            inst_mean = mean(flat, -1, keepdim=True)
            centered = flat - inst_mean
            inst_var = mean(centered * centered, -1) * (count / (count - 1))
            for running, batch in ((running_mean, inst_mean.reshape(n, c).mean(0)), (running_var, inst_var.mean(0))):
                updated = _broadcast_beside(running, batch) * (1 - momentum) + batch * momentum
                running.data = _in_layout_of(updated.to(running.dtype), running)
    if weight is not None:
        y = y * _channel_view(weight, input.ndim)
    if bias is not None:
        y = y + _channel_view(bias, input.ndim)
    return y


def local_response_norm(input, size, alpha=1e-4, beta=0.75, k=1.0):
    """input / (k + alpha / size * sum of x^2 over the `size` channels around each
    channel)^beta, the window [c - size // 2, c + (size - 1) // 2] zero-padded, as torch's."""
    if input.ndim < 3:
        raise ValueError(f"Expected 3D or higher dimensionality input (got {input.ndim} dimensions)")
    if input.numel() == 0:
        return input
    c = input.shape[1]
    square = input * input
    before, after = size // 2, (size - 1) // 2
    zeros_shape = list(input.shape)
    parts = []
    if before:
        zeros_shape[1] = before
        parts.append(zeros_like(square.narrow(1, 0, 1)).expand(*zeros_shape))
    parts.append(square)
    if after:
        zeros_shape[1] = after
        parts.append(zeros_like(square.narrow(1, 0, 1)).expand(*zeros_shape))
    padded = cat(parts, 1) if len(parts) > 1 else square
    total = padded.narrow(1, 0, c)
    for j in range(1, size):
        total = total + padded.narrow(1, j, c)
    return input / (total * (alpha / size) + k) ** beta


__all__ = ["selu", "celu", "instance_norm", "local_response_norm"]
