"""meshflow.func: torch.func's function transforms that composing autograd gives, as
meta-learning (MAML) and per-input-gradient code uses them: functional_call (a module run with
other tensors in place of its parameters and buffers), grad, grad_and_value, vjp, jvp, jacrev,
jacfwd and hessian, and stack_module_state for model ensembles. Their results are differentiable again (they are computed with
create_graph), so they nest; vmap maps a function over a batch (as a loop: meshflow has no
batching transform), so per-sample gradients (vmap(grad(f))) are torch's."""
import contextlib

from ._tensor import Tensor
from .autograd import enable_grad, grad as _grad

__all__ = ["functional_call", "stack_module_state", "grad", "grad_and_value", "vjp", "jvp", "jacrev", "jacfwd", "hessian", "vmap"]


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


def stack_module_state(models):
    """(params, buffers): each parameter's and buffer's tensors over `models` (modules of one
    structure) stacked along a new dim 0, by name (torch.func.stack_module_state, the model
    ensembling tutorial's input to vmap over functional_call). The stacked parameters are new
    leaves, requiring grad when the originals do; the buffers are stacked as they are."""
    from ._ops_shape import stack
    models = list(models)
    if not models:
        raise RuntimeError("stack_module_state: expected at least one model, got 0 models")
    if any(m.training != models[0].training for m in models):
        raise RuntimeError("stack_module_state: expected all models to be in the same training/eval mode")
    named = [dict(m.named_parameters()) for m in models]
    for other in named[1:]:
        if other.keys() != named[0].keys():
            raise RuntimeError(f"stack_module_state: expected all models to have the same parameters, got "
                               f"{sorted(named[0])} and {sorted(other)}")

    def leaf(name):
        tensors = [n[name] for n in named]
        wanted = {t.requires_grad for t in tensors}
        if len(wanted) != 1:
            raise RuntimeError(f"stack_module_state: '{name}' requires grad in some models and not in others; "
                               "expected all or none")
        return stack([t.detach() for t in tensors]).requires_grad_(wanted.pop())
    buffers = [dict(m.named_buffers()) for m in models]
    return ({name: leaf(name) for name in named[0]},
            {name: stack([b[name] for b in buffers]) for name in buffers[0]})


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


def _jacobian_of(func, argnums, has_aux=False):
    from ._autograd_functional import jacobian

    def wrapped(*args):
        numbers = (argnums,) if isinstance(argnums, int) else tuple(argnums)
        aux = []  # with has_aux, func returns (output, aux): the jacobian is the output's

        def of_chosen(*chosen):
            full = list(args)
            for i, value in zip(numbers, chosen):
                full[i] = value
            out = func(*full)
            if not has_aux:
                return out
            if not (isinstance(out, tuple) and len(out) == 2):
                raise RuntimeError("jacrev(f, has_aux=True)(*args): expected f(*args) to return a tuple "
                                   "(output, aux)")
            aux[:] = [out[1]]
            return out[0]
        jac = jacobian(of_chosen, tuple(args[i] for i in numbers), create_graph=True)
        if not (isinstance(jac, Tensor) or not isinstance(argnums, int)):
            jac = jac[0] if isinstance(jac[0], Tensor) else tuple(row[0] for row in jac)
        return (jac, aux[0]) if has_aux else jac
    return wrapped


def jacrev(func, argnums=0, *, has_aux=False, chunk_size=None):
    """A function returning func's jacobian with respect to its argument argnums (blocks of
    output.shape + input.shape), as torch.func.jacrev; with has_aux func returns (output, aux)
    and the function (jacobian, aux)."""
    return _jacobian_of(func, argnums, has_aux)


def jacfwd(func, argnums=0, has_aux=False, *, randomness="error"):
    """jacrev's jacobian (computed by reverse passes; the values are forward mode's)."""
    return _jacobian_of(func, argnums, has_aux)


def hessian(func, argnums=0):
    """The jacobian of func's jacobian (torch.func.hessian)."""
    return jacfwd(jacrev(func, argnums), argnums)


def _mapped_dims(tree, dims, what):
    """(tensor, dim or None) for each tensor leaf of `tree`, `dims` being an int or None for
    all of its leaves or a structure of such matching the tree's (torch's in_dims)."""
    if dims is None or isinstance(dims, int):
        return [(t, dims) for t in _leaves(tree)]
    if isinstance(tree, dict) and isinstance(dims, dict) and dims.keys() == tree.keys():
        return [pair for k in tree for pair in _mapped_dims(tree[k], dims[k], what)]
    if isinstance(tree, (list, tuple)) and isinstance(dims, (list, tuple)) and len(dims) == len(tree):
        return [pair for v, d in zip(tree, dims) for pair in _mapped_dims(v, d, what)]
    raise ValueError(f"vmap: {what} is {dims!r}, which does not match its input's structure; expected an int, "
                     "None, or a structure of them matching the input's")


def vmap(func, in_dims=0, out_dims=0, randomness="error", *, chunk_size=None):
    """torch.func.vmap as a map: func runs on each batch element (the inputs indexed along
    their in_dims; None: passed whole, as keyword arguments are) and its outputs (a tensor, or
    dicts, lists and tuples of them) are stacked along out_dims. The values are torch's for
    functions whose elements do not interact, which is what vmap computes; the cost is one call
    per element, there being no batching transform. It nests with itself and with grad.
    randomness="same" gives every element the same draws (the generator is rewound before each
    call); "different" and "error" (not checked) give each element its own."""
    if randomness not in ("error", "different", "same"):
        raise ValueError(f"vmap: randomness must be 'error', 'different' or 'same', got {randomness!r}")

    def mapped(*args, **kwargs):
        from ._ops_shape import stack
        from . import get_rng_state, set_rng_state
        per_arg = in_dims if isinstance(in_dims, (list, tuple)) else [in_dims] * len(args)
        if len(per_arg) != len(args):
            raise ValueError(f"vmap: in_dims has {len(per_arg)} entries for {len(args)} positional arguments; "
                             "expected one per argument")
        # an argument with in_dims None is passed whole, whatever it is (a number, a module), as torch's
        per_pairs = [None if d is None else _mapped_dims(a, d, "in_dims") for a, d in zip(args, per_arg)]
        sizes = {t.shape[d] for pairs in per_pairs if pairs for t, d in pairs if d is not None}
        if len(sizes) != 1:
            raise ValueError(f"vmap: the mapped dims have sizes {sorted(sizes)}; expected one size, and at least "
                             "one input with a mapped dim")
        size = sizes.pop()
        rng = get_rng_state() if randomness == "same" else None
        results = []
        for i in range(size):
            if rng is not None:
                set_rng_state(rng)
            call = [a if pairs is None else _rebuilt(a, iter([t if d is None else t.select(d, i) for t, d in pairs]))
                    for a, pairs in zip(args, per_pairs)]
            results.append(func(*call, **kwargs))
        outputs = [_leaves(r) for r in results]
        dims = _mapped_dims(results[0], out_dims, "out_dims")
        stacked = [outputs[0][j] if d is None else stack([out[j] for out in outputs], dim=d)
                   for j, (_, d) in enumerate(dims)]  # out_dims None: an output every element shares
        return _rebuilt(results[0], iter(stacked))
    return mapped
