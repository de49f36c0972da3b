"""Reductions and softmax, PyTorch's names and semantics: mf.sum, mean, amax, amin over a
dim, a list of dims or every dim (dim=None), with keepdim; mf.softmax and mf.log_softmax
along a dim. Also tensor methods (x.sum(1), x.softmax(-1), ...).

sum of an integer tensor is int64; mean takes floating tensors; amax/amin of an empty dim
is an error.
"""
import numbers

from ._tensor import Tensor, apply

__all__ = ["sum", "mean", "amax", "amin", "softmax", "log_softmax"]


def _dims(dim):
    """The "dims" attribute: [] (every dim) for None, a list for an int or a sequence."""
    if dim is None:
        return []
    if isinstance(dim, numbers.Integral) and not isinstance(dim, bool):
        return [int(dim)]
    if isinstance(dim, (list, tuple)) and all(isinstance(d, numbers.Integral) and not isinstance(d, bool)
                                              for d in dim):
        return [int(d) for d in dim]
    raise TypeError(f"dim must be None, an int or a list/tuple of ints, got {dim!r}")


def _reduction(name, doc):
    def op(input, dim=None, keepdim=False):
        return apply(name, [input], {"dims": _dims(dim), "keepdim": bool(keepdim)})[0]
    op.__name__ = name
    op.__doc__ = doc
    return op


sum = _reduction("sum", "Sum over `dim` (an int, a list of ints, or None for every dim); integers sum to int64.")
mean = _reduction("mean", "Mean over `dim` (an int, a list of ints, or None for every dim) of a floating tensor.")
amax = _reduction("amax", "Maximum over `dim` (an int, a list of ints, or None for every dim).")
amin = _reduction("amin", "Minimum over `dim` (an int, a list of ints, or None for every dim).")


def softmax(input, dim, causal=False):
    """exp(x) / sum(exp(x)) along `dim`, computed without overflow. With causal (dim the last
    of [..., Tq, Tk]), element (i, j) with j > i + Tk - Tq gets probability 0 (attention)."""
    return apply("softmax", [input], {"dim": int(dim), "causal": bool(causal)})[0]


def log_softmax(input, dim, causal=False):
    """x - log(sum(exp(x))) along `dim`, computed without overflow (causal as in softmax)."""
    return apply("log_softmax", [input], {"dim": int(dim), "causal": bool(causal)})[0]


Tensor.sum, Tensor.mean, Tensor.amax, Tensor.amin = sum, mean, amax, amin
Tensor.softmax, Tensor.log_softmax = softmax, log_softmax
