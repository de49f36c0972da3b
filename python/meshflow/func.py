"""meshflow.func: torch.func's function transforms that composing autograd gives, as
meta-learning (MAML) and per-input-gradient code uses them: functional_call (a module run with
other tensors in place of its parameters and buffers), grad, grad_and_value, vjp, jvp, jacrev,
jacfwd and hessian. Their results are differentiable again (they are computed with
create_graph), so they nest. vmap, which needs a batching transform meshflow does not have,
raises saying so."""
import contextlib

from ._tensor import Tensor
from .autograd import enable_grad, grad as _grad

__all__ = ["functional_call", "grad", "grad_and_value", "vjp", "jvp", "jacrev", "jacfwd", "hessian", "vmap"]


def _slot(module, name):
    """(the table holding `name`'s tensor, its key): a dotted parameter or buffer name."""
    path, _, leaf = name.rpartition(".")
    owner = module.get_submodule(path)
    for table in (owner._parameters, owner._buffers):
        if leaf in table:
            return table, leaf
    raise AttributeError(f"functional_call: {type(module).__name__} has no parameter or buffer '{name}'")


@contextlib.contextmanager
def _swapped(module, tensors, tie_weights, strict):
    named = dict(module.named_parameters(remove_duplicate=False))
    named.update(dict(module.named_buffers(remove_duplicate=False)))
    if strict:
        missing = sorted(set(named) - set(tensors))
        if missing:
            raise RuntimeError(f"Error(s) in reparametrizing for {type(module).__name__}: Missing key(s): {missing}")
    if tie_weights:  # every other name of a given tensor (a tied weight) takes the new value too
        for name, value in list(tensors.items()):
            old = named.get(name)
            for other, t in named.items():
                if t is old and other not in tensors:
                    tensors[other] = value
    saved = []
    try:
        for name, value in tensors.items():
            table, key = _slot(module, name)
            saved.append((table, key, table[key]))
            table[key] = value
        yield
    finally:
        for table, key, old in reversed(saved):
            table[key] = old


def functional_call(module, parameter_and_buffer_dicts, args=None, kwargs=None, *, tie_weights=True, strict=False):
    """module(*args, **kwargs) with the tensors of parameter_and_buffer_dicts (name -> tensor,
    or a sequence of such dicts) in place of its parameters and buffers of those names, put
    back afterwards (torch.func.functional_call)."""
    dicts = parameter_and_buffer_dicts
    tensors = {}
    for d in (dicts if isinstance(dicts, (list, tuple)) else [dicts]):
        for name, value in d.items():
            if name in tensors:
                raise ValueError(f"{name} appeared in multiple dictionaries; behavior of functional call is ambiguous")
            tensors[name] = value
    args = () if args is None else args if isinstance(args, tuple) else (args,)
    with _swapped(module, tensors, tie_weights, strict):
        return module(*args, **(kwargs or {}))


def _differentiable(value):
    return value.view_as(value) if value.requires_grad else value.detach().requires_grad_(True)


def _leaves(tree):
    """The tensors of a pytree (a tensor, or dicts, lists and tuples of them), in order."""
    if isinstance(tree, Tensor):
        return [tree]
    if isinstance(tree, dict):
        return [t for v in tree.values() for t in _leaves(v)]
    if isinstance(tree, (list, tuple)):
        return [t for v in tree for t in _leaves(v)]
    raise TypeError(f"expected tensors, or dicts, lists and tuples of them; got {type(tree).__name__}")


def _rebuilt(tree, values):
    """tree with its tensors replaced by `values` (an iterator, in _leaves' order)."""
    if isinstance(tree, Tensor):
        return next(values)
    if isinstance(tree, dict):
        return type(tree)((k, _rebuilt(v, values)) for k, v in tree.items())
    return type(tree)(_rebuilt(v, values) for v in tree)


def _with_inputs(args, argnums):
    """args with the tensors of those at argnums (pytrees too) made differentiable leaves of
    this call; and a function putting per-tensor results back into those arguments' shape."""
    numbers = (argnums,) if isinstance(argnums, int) else tuple(argnums)
    args = list(args)
    for i in numbers:
        args[i] = _rebuilt(args[i], iter([_differentiable(t) for t in _leaves(args[i])]))
    chosen = [args[i] for i in numbers]
    inputs = _leaves(chosen)

    def shaped(values):
        trees = _rebuilt(chosen, iter(values))
        return trees[0] if isinstance(argnums, int) else tuple(trees)
    return args, inputs, shaped


def grad_and_value(func, argnums=0, has_aux=False):
    """A function returning (the gradient of func's scalar output with respect to its argument
    argnums (a tuple of them for a tuple; an argument may be a dict, list or tuple of tensors,
    as a module's parameters, and its gradient has that shape), func's output) (with aux:
    (grad, (output, aux)))."""
    def wrapped(*args, **kwargs):
        with enable_grad():
            args, inputs, shaped = _with_inputs(args, argnums)
            out = func(*args, **kwargs)
            value, aux = out if has_aux else (out, None)
            if not isinstance(value, Tensor) or value.numel() != 1:
                raise RuntimeError("grad_and_value(f)(*args): Expected f(*args) to return a scalar Tensor")
            grads = shaped(_grad(value, inputs, create_graph=True, allow_unused=True, materialize_grads=True))
        return (grads, (value, aux)) if has_aux else (grads, value)
    return wrapped


def grad(func, argnums=0, has_aux=False):
    """A function returning the gradient of func's scalar output with respect to its argument
    argnums (with aux: (grad, aux)), as torch.func.grad."""
    both = grad_and_value(func, argnums, has_aux)

    def wrapped(*args, **kwargs):
        g, value = both(*args, **kwargs)
        return (g, value[1]) if has_aux else g
    return wrapped


def vjp(func, *primals, has_aux=False):
    """(func(*primals), vjp_fn): vjp_fn(cotangent) gives the cotangent's products with func's
    derivatives for each primal (torch.func.vjp)."""
    with enable_grad():
        inputs = [_differentiable(p) for p in primals]
        out = func(*inputs)
        value, aux = out if has_aux else (out, None)

    def vjp_fn(cotangent):
        return tuple(_grad(value, inputs, cotangent, retain_graph=True, create_graph=True, allow_unused=True,
                           materialize_grads=True))
    return (value, vjp_fn, aux) if has_aux else (value, vjp_fn)


def jvp(func, primals, tangents):
    """(func(*primals), the product of func's derivatives with tangents) (torch.func.jvp)."""
    from ._autograd_functional import jvp as _jvp
    out, product = _jvp(lambda *xs: func(*xs), tuple(primals), tuple(tangents), create_graph=True)
    return out, product


def _jacobian_of(func, argnums):
    from ._autograd_functional import jacobian

    def wrapped(*args):
        numbers = (argnums,) if isinstance(argnums, int) else tuple(argnums)

        def of_chosen(*chosen):
            full = list(args)
            for i, value in zip(numbers, chosen):
                full[i] = value
            return func(*full)
        jac = jacobian(of_chosen, tuple(args[i] for i in numbers), create_graph=True)
        if isinstance(jac, Tensor) or not isinstance(argnums, int):
            return jac
        return jac[0] if isinstance(jac[0], Tensor) else tuple(row[0] for row in jac)
    return wrapped


def jacrev(func, argnums=0, *, has_aux=False, chunk_size=None):
    """A function returning func's jacobian with respect to its argument argnums (blocks of
    output.shape + input.shape), as torch.func.jacrev."""
    if has_aux:
        raise NotImplementedError("jacrev(has_aux=True) is not supported by meshflow")
    return _jacobian_of(func, argnums)


def jacfwd(func, argnums=0, has_aux=False, *, randomness="error"):
    """jacrev's jacobian (computed by reverse passes; the values are forward mode's)."""
    if has_aux:
        raise NotImplementedError("jacfwd(has_aux=True) is not supported by meshflow")
    return _jacobian_of(func, argnums)


def hessian(func, argnums=0):
    """The jacobian of func's jacobian (torch.func.hessian)."""
    return jacfwd(jacrev(func, argnums), argnums)


def vmap(func, in_dims=0, out_dims=0, randomness="error", *, chunk_size=None):
    """Not supported: meshflow has no batching transform. Most functions vmap is used with
    broadcast over a leading batch dim already: call them on the batch."""
    raise NotImplementedError("torch.func.vmap is not supported by meshflow (it has no batching transform); call the "
                              "function on the whole batch where its ops broadcast over a leading dim")
