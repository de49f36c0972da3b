"""torch.autograd.forward_ad (dual numbers) for programs that push a tangent through a
computation: `with dual_level(): x = make_dual(p, v); y = f(x); primal, tangent =
unpack_dual(y)`. meshflow's engine is reverse mode only, so a dual tensor is its primal
recorded for gradients, and unpack_dual computes J v by the double-vjp trick (the gradient in
a dummy u of (u^T J) v), as autograd.functional.jvp does: torch's values where each op on the
way has a differentiable gradient (the ops create_graph=True takes; others raise naming their
backward op). Each unpack costs two reverse passes. The level's record is per thread (one
program's dual_level is not another thread's)."""
import threading
from collections import namedtuple

from ._tensor import Tensor

__all__ = ["dual_level", "make_dual", "unpack_dual", "UnpackedDualTensor", "enter_dual_level", "exit_dual_level"]

UnpackedDualTensor = namedtuple("UnpackedDualTensor", ["primal", "tangent"])

_state = threading.local()  # .levels: a list, per open level, of its (dual tensor, tangent) pairs


def _levels():
    if not hasattr(_state, "levels"):
        _state.levels = []
    return _state.levels


def enter_dual_level():
    """Opens a level (dual_level's entry); returns its number."""
    _levels().append([])
    return len(_levels()) - 1


def exit_dual_level(*, level=None):
    """Closes the innermost level: its dual tensors become plain tensors (unpack gives no tangent)."""
    if not _levels():
        raise RuntimeError("Trying to exit a forward AD level that was not the last one that was created.")
    _levels().pop()


class dual_level:
    """The scope in which make_dual's tensors carry their tangents (torch's context manager)."""

    def __enter__(self):
        return enter_dual_level()

    def __exit__(self, *exc):
        exit_dual_level()


def make_dual(tensor, tangent, *, level=None):
    """tensor with `tangent` attached (same shape), for the ops after it in this level."""
    if not _levels():
        raise RuntimeError("make_dual: no forward AD level is open; call it inside `with dual_level():`")
    if not isinstance(tangent, Tensor) or tuple(tangent.shape) != tuple(tensor.shape):
        raise RuntimeError(f"make_dual: expected a tangent of the primal's shape {list(tensor.shape)}, got "
                           f"{list(tangent.shape) if isinstance(tangent, Tensor) else type(tangent).__name__}")
    from .autograd import enable_grad
    with enable_grad():
        dual = tensor.view_as(tensor) if tensor.requires_grad else tensor.detach().requires_grad_(True)
    _levels()[-1].append((dual, tangent.detach()))
    return dual


def unpack_dual(tensor, *, level=None):
    """(primal, tangent) of tensor: the tangent is J v over the level's dual tensors it was
    computed from (None when it depends on none of them)."""
    from .autograd import enable_grad, grad
    from ._ops_creation import zeros_like
    pairs = _levels()[-1] if _levels() else []
    for dual, tangent in pairs:
        if dual is tensor:
            return UnpackedDualTensor(tensor, tangent)
    if not pairs or not isinstance(tensor, Tensor) or not tensor.requires_grad:
        return UnpackedDualTensor(tensor, None)
    with enable_grad():
        u = zeros_like(tensor.detach()).requires_grad_(True)
        duals = [d for d, _ in pairs]
        vjps = grad(tensor, duals, u, retain_graph=True, create_graph=True, allow_unused=True)
        terms = [(g * t).sum() for g, (_, t) in zip(vjps, pairs) if g is not None]
        if not terms:
            return UnpackedDualTensor(tensor, None)
        tangent = grad(sum(terms), u, allow_unused=True, materialize_grads=True)[0]
    return UnpackedDualTensor(tensor, tangent.detach())
