"""meshflow.nn.utils: torch.nn.utils' gradient clipping (clip_grad_norm_ is the same function
as meshflow.optim.clip_grad_norm_), parameters_to_vector, and torch.nn.utils.rnn's
pad_sequence and packed sequences in the submodule rnn."""
from ...optim import clip_grad_norm_  # noqa: F401: part of this module's API
from ..._tensor import Tensor, no_grad
from . import rnn  # noqa: F401: part of this module's API

__all__ = ["clip_grad_norm_", "clip_grad_value_", "parameters_to_vector", "vector_to_parameters", "rnn"]


def clip_grad_value_(parameters, clip_value):
    """Clamps every gradient to [-clip_value, clip_value], in place."""
    parameters = [parameters] if isinstance(parameters, Tensor) else list(parameters)
    clip_value = float(clip_value)
    with no_grad():
        for p in parameters:
            if p.grad is not None:
                p.grad = p.grad.clamp(-clip_value, clip_value)


def parameters_to_vector(parameters):
    """The parameters flattened and concatenated into one vector."""
    from ..._ops_shape import cat
    return cat([p.reshape(-1) for p in parameters])


def vector_to_parameters(vec, parameters):
    """The parameters take their values from `vec` (parameters_to_vector's layout), in place."""
    if not isinstance(vec, Tensor):
        raise TypeError(f"expected torch.Tensor, but got: {type(vec).__name__}")
    parameters = list(parameters)
    total = sum(p.numel() for p in parameters)
    if total != vec.numel():
        raise RuntimeError(f"vector_to_parameters: the vector has {vec.numel()} elements; the parameters {total}")
    start = 0
    with no_grad():
        for p in parameters:
            n = p.numel()
            p.copy_(vec[start:start + n].reshape(list(p.shape)))
            start += n
