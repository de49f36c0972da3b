"""meshflow.autograd.functional: torch.autograd.functional's products of a function's
derivatives with vectors, from autograd.grad (create_graph for the second-order ones).
inputs and v are a tensor or a tuple of tensors alike; the results come detached unless
create_graph."""
from ._ops_creation import zeros_like
from ._tensor import Tensor
from .autograd import enable_grad, grad

__all__ = ["vjp", "jvp", "hvp", "vhp"]


def vjp(func, inputs, v=None, create_graph=False, strict=False):
    """torch.autograd.functional.vjp: (func(inputs), v^T J)."""
    single = isinstance(inputs, Tensor)
    xs = (inputs,) if single else tuple(inputs)
    with enable_grad():
        xs = tuple(x.detach().requires_grad_(True) for x in xs)
        out = func(*xs)
        grads = grad(out, xs, v, create_graph=create_graph, allow_unused=True, materialize_grads=True)
    out = out if create_graph else out.detach()
    grads = grads if create_graph else tuple(g.detach() for g in grads)
    return out, grads[0] if single else grads


def jvp(func, inputs, v=None, create_graph=False, strict=False):
    """torch.autograd.functional.jvp: (func(inputs), J v), by the double-vjp trick: J v is the
    gradient of (u^T J) v with respect to a dummy u."""
    single = isinstance(inputs, Tensor)
    xs = (inputs,) if single else tuple(inputs)
    vs = (v,) if isinstance(v, Tensor) else tuple(v) if v is not None else None
    with enable_grad():
        xs = tuple(x.detach().requires_grad_(True) for x in xs)
        out = func(*xs)
        u = zeros_like(out.detach()).requires_grad_(True)
        g = grad(out, xs, u, create_graph=True, allow_unused=True, materialize_grads=True)
        result = grad(g, u, vs, create_graph=create_graph, allow_unused=True, materialize_grads=True)[0]
    out = out if create_graph else out.detach()
    return out, result if create_graph else result.detach()


def hvp(func, inputs, v=None, create_graph=False, strict=False):
    """torch.autograd.functional.hvp: (func(inputs), H v) for a scalar func."""
    single = isinstance(inputs, Tensor)
    xs = (inputs,) if single else tuple(inputs)
    vs = (v,) if isinstance(v, Tensor) else tuple(v)
    with enable_grad():
        xs = tuple(x.detach().requires_grad_(True) for x in xs)
        out = func(*xs)
        g = grad(out, xs, create_graph=True, allow_unused=True, materialize_grads=True)
        result = grad(g, xs, vs, create_graph=create_graph, allow_unused=True, materialize_grads=True)
    out = out if create_graph else out.detach()
    result = result if create_graph else tuple(r.detach() for r in result)
    return out, result[0] if single else result


def vhp(func, inputs, v=None, create_graph=False, strict=False):
    """torch.autograd.functional.vhp: (func(inputs), v^T H); H is symmetric, so H v."""
    return hvp(func, inputs, v, create_graph, strict)
