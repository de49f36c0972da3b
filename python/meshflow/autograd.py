"""meshflow.autograd: torch.autograd's functions (grad, backward) and grad modes.

grad() and backward() run the C++ engine (meshflow/autograd/grad_api.h) once over all the
given roots; on global tensors they are collective (every rank calls them alike) and each
gradient comes in its tensor's placement and SBP. Higher-order gradients (create_graph) are
not supported: the engine computes gradients without recording them.
"""
import functools

from . import _C
from ._tensor import Tensor, _impl_of, no_grad, is_grad_enabled
from ._function import Function, FunctionCtx

__all__ = ["Function", "FunctionCtx", "grad", "backward", "enable_grad", "set_grad_enabled", "inference_mode", "no_grad", "is_grad_enabled",
           "is_inference_mode_enabled"]


class _GradMode:
    """A grad mode as a context manager and a decorator (torch's _DecoratorContextManager)."""

    _mode = True

    def __enter__(self):
        self._previous = _C.grad_enabled()
        _C.set_grad_enabled(self._mode)
        return self

    def __exit__(self, *exc):
        _C.set_grad_enabled(self._previous)

    def __call__(self, function):
        @functools.wraps(function)
        def wrapper(*args, **kwargs):
            with self.clone():
                return function(*args, **kwargs)
        return wrapper

    def clone(self):
        return type(self)()


class enable_grad(_GradMode):
    """Turns recording for autograd on in its scope (inside no_grad, too)."""

    _mode = True


class set_grad_enabled(_GradMode):
    """set_grad_enabled(mode): sets grad mode now, as a function; as a context manager, sets
    it for the scope and restores the previous mode at its end."""

    def __init__(self, mode):
        if not isinstance(mode, bool):
            raise TypeError(f"set_grad_enabled expects a bool, got {type(mode).__name__}")
        self._previous = _C.grad_enabled()
        self._mode = mode
        _C.set_grad_enabled(mode)

    def __enter__(self):
        return self

    def clone(self):
        return type(self)(self._mode)


class inference_mode(_GradMode):
    """torch.inference_mode: here the same as no_grad (mode=False: nothing changes)."""

    def __init__(self, mode=True):
        self._enabled = bool(mode)

    def __enter__(self):
        self._previous = _C.grad_enabled()
        if self._enabled:
            _C.set_grad_enabled(False)
        return self

    def clone(self):
        return type(self)(self._enabled)


def is_inference_mode_enabled():
    return False  # inference_mode is no_grad here: tensors made in it are ordinary tensors


def _as_tuple(tensors, what):
    if isinstance(tensors, Tensor):
        return (tensors,)
    if tensors is None:
        raise TypeError(f"{what} must be a Tensor or a sequence of Tensors, got None")
    return tuple(tensors)


def _seeds(grads, tensors, what):
    if grads is None:
        return [None] * len(tensors)
    grads = (grads,) if isinstance(grads, Tensor) else tuple(grads)
    if len(grads) != len(tensors):
        raise RuntimeError(f"{what} should be a sequence of length {len(tensors)}, got {len(grads)}")
    return [None if g is None else _impl_of(what, g) for g in grads]


def _check_roots(tensors, what):
    for i, t in enumerate(tensors):
        if not isinstance(t, Tensor):
            raise TypeError(f"{what}: element {i} is a {type(t).__name__}; expected a meshflow Tensor")
        if not t.requires_grad:
            raise RuntimeError(f"element {i} of tensors does not require grad and does not have a grad_fn")


def _no_create_graph(create_graph):
    if create_graph:
        raise NotImplementedError("create_graph=True (higher-order gradients) is not supported by meshflow: "
                                  "gradients are computed without being recorded")


def backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False, inputs=None):
    """Accumulates the gradients of `tensors` (seeded by grad_tensors; None for a
    one-element tensor means 1) into the leaves' .grad, in one pass."""
    _no_create_graph(create_graph)
    if inputs is not None:
        raise NotImplementedError("autograd.backward(inputs=...) is not supported; use autograd.grad")
    tensors = _as_tuple(tensors, "tensors")
    _check_roots(tensors, "backward")
    seeds = _seeds(grad_tensors, tensors, "grad_tensors")
    _C.autograd_backward([t._impl for t in tensors], seeds, bool(retain_graph))


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False, only_inputs=True,
         allow_unused=None, is_grads_batched=False, materialize_grads=False):
    """The gradients of sum(outputs[i] * grad_outputs[i]) with respect to each input, as a
    tuple, leaving every .grad as it is. An input the outputs do not depend on raises unless
    allow_unused (then its gradient is None, or zeros with materialize_grads)."""
    _no_create_graph(create_graph)
    if is_grads_batched:
        raise NotImplementedError("is_grads_batched=True is not supported by meshflow")
    if allow_unused is None:
        allow_unused = materialize_grads
    if materialize_grads and not allow_unused:
        raise ValueError("Expected allow_unused to be True or not passed when materialize_grads=True")
    outputs = _as_tuple(outputs, "outputs")
    inputs = _as_tuple(inputs, "inputs")
    _check_roots(outputs, "grad")
    for i, t in enumerate(inputs):
        if not isinstance(t, Tensor):
            raise TypeError(f"grad: input {i} is a {type(t).__name__}; expected a meshflow Tensor")
        if not t.requires_grad:
            raise RuntimeError("One of the differentiated Tensors does not require grad")
    seeds = _seeds(grad_outputs, outputs, "grad_outputs")
    grads = _C.autograd_grad([t._impl for t in outputs], [t._impl for t in inputs], seeds, bool(retain_graph))
    result = []
    for t, g in zip(inputs, grads):
        if g is None:
            if not allow_unused:
                raise RuntimeError("One of the differentiated Tensors appears to not have been used in the graph. "
                                   "Set allow_unused=True if this is the desired behavior.")
            if materialize_grads:
                from ._ops_creation import zeros_like
                with no_grad():
                    result.append(zeros_like(t.detach()))
                continue
            result.append(None)
        else:
            result.append(Tensor(g))
    return tuple(result)
