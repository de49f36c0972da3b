"""meshflow.autograd.functional: torch.autograd.functional's products of a function's
derivatives with vectors, and its whole jacobian and hessian (one reverse pass per output
element, torch's default strategy without vectorize), from autograd.grad (create_graph for the
second-order ones).
inputs and v are a tensor or a tuple of tensors alike; the results come detached unless
create_graph."""
from ._ops_creation import zeros_like
from ._tensor import Tensor
from .autograd import enable_grad, grad

__all__ = ["vjp", "jvp", "hvp", "vhp", "jacobian", "hessian"]


def _differentiable(xs, create_graph):
    """The inputs as the function sees them: with create_graph, an input that requires grad
    stays connected to its graph (a view of it, as torch's), so the results differentiate
    back to it; otherwise a detached copy that requires grad."""
    return tuple(x.view_as(x) if create_graph and x.requires_grad else x.detach().requires_grad_(True) for x in xs)


def vjp(func, inputs, v=None, create_graph=False, strict=False):
    """torch.autograd.functional.vjp: (func(inputs), v^T J)."""
    single = isinstance(inputs, Tensor)
    xs = (inputs,) if single else tuple(inputs)
    with enable_grad():
        xs = _differentiable(xs, create_graph)
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
        xs = _differentiable(xs, create_graph)
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
        xs = _differentiable(xs, create_graph)
        out = func(*xs)
        g = grad(out, xs, create_graph=True, allow_unused=True, materialize_grads=True)
        result = grad(g, xs, vs, create_graph=create_graph, allow_unused=True, materialize_grads=True)
    out = out if create_graph else out.detach()
    result = result if create_graph else tuple(r.detach() for r in result)
    return out, result[0] if single else result


def vhp(func, inputs, v=None, create_graph=False, strict=False):
    """torch.autograd.functional.vhp: (func(inputs), v^T H); H is symmetric, so H v."""
    return hvp(func, inputs, v, create_graph, strict)


def jacobian(func, inputs, create_graph=False, strict=False, vectorize=False, strategy="reverse-mode"):
    """torch.autograd.functional.jacobian: d func(inputs) / d inputs, each block of shape
    output.shape + input.shape; a tensor for one output and one input, else tuples (over the
    outputs, of tuples over the inputs), as torch's. vectorize and strategy choose torch's
    algorithm; the values are the same."""
    from ._ops_creation import zeros
    from ._ops_shape import stack
    if strategy not in ("reverse-mode", "forward-mode"):
        raise ValueError(f'jacobian: expected strategy to be either "forward-mode" or "reverse-mode", got {strategy!r}')
    single_in = isinstance(inputs, Tensor)
    xs = (inputs,) if single_in else tuple(inputs)
    with enable_grad():
        xs = _differentiable(xs, create_graph)
        outs = func(*xs)
        single_out = isinstance(outs, Tensor)
        outs = (outs,) if single_out else tuple(outs)
        blocks = []
        for out in outs:
            rows = [grad(element, xs, retain_graph=True, create_graph=create_graph, allow_unused=True,
                         materialize_grads=True) for element in out.reshape(-1)]
            blocks.append(tuple(
                stack([r[k] for r in rows]).reshape(*out.shape, *x.shape) if rows
                else zeros(*out.shape, *x.shape, dtype=x.dtype) for k, x in enumerate(xs)))
    if not create_graph:
        blocks = [tuple(b.detach() for b in row) for row in blocks]
    rows = [row[0] if single_in else row for row in blocks]
    return rows[0] if single_out else tuple(rows)


def hessian(func, inputs, create_graph=False, strict=False, vectorize=False, outer_jacobian_strategy="reverse-mode"):
    """torch.autograd.functional.hessian of a scalar func: the jacobian of its gradient, blocks
    [i][j] of shape inputs[i].shape + inputs[j].shape (a tensor for one input)."""
    single = isinstance(inputs, Tensor)

    def gradient(*xs):
        g = grad(func(*xs), xs, create_graph=True, allow_unused=True, materialize_grads=True)
        return g[0] if single else g
    return jacobian(gradient, inputs, create_graph, strict, vectorize, outer_jacobian_strategy)
