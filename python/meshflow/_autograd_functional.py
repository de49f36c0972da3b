"""meshflow.autograd.functional: torch.autograd.functional's products of a function's
derivatives with vectors, and its whole jacobian and hessian (one reverse pass per output
element; vectorize and the forward-mode strategies give the same values), from autograd.grad
(create_graph and the double-backward trick for the forward products and the second-order
ones), with torch's rules: inputs and v are a tensor or a tuple of tensors alike; a derivative
an output does not depend on (a constant output, a linear function's hessian) is zeros, or
raises under strict, with torch's messages; the results come detached unless create_graph."""
from ._ops_creation import zeros_like
from ._tensor import Tensor, is_grad_enabled
from .autograd import enable_grad, grad, set_grad_enabled

__all__ = ["vjp", "jvp", "hvp", "vhp", "jacobian", "hessian"]


def _as_tuple(value, what, name):
    """(whether value was a tuple, value as a tuple of tensors)."""
    if isinstance(value, Tensor):
        return False, (value,)
    if not isinstance(value, (tuple, list)):
        raise TypeError(f"The {what} given to {name} must be either a Tensor or a tuple of Tensors but the given "
                        f"{what} has type {type(value)}.")
    for i, element in enumerate(value):
        if not isinstance(element, Tensor):
            raise TypeError(f"The {what} given to {name} must be either a Tensor or a tuple of Tensors but the value "
                            f"at index {i} has type {type(element)}.")
    return True, tuple(value)


def _preprocess(xs, create_graph, need_graph):
    """The tensors as the function sees them: with create_graph, one that requires grad stays
    connected to its graph (a view of it, as torch's), so the results differentiate back to
    it; otherwise a detached copy (that requires grad when the function's graph is needed)."""
    return tuple(x.view_as(x) if create_graph and x.requires_grad else x.detach().requires_grad_(need_graph)
                 for x in xs)


def _postprocess(values, create_graph):
    if isinstance(values[0], Tensor):
        return values if create_graph else tuple(v.detach() for v in values)
    return tuple(_postprocess(v, create_graph) for v in values)


def _unpack(values, was_tuple):
    if isinstance(was_tuple, tuple):
        outputs_tuple, inputs_tuple = was_tuple
        if not inputs_tuple:
            values = tuple(v[0] for v in values)
        return values if outputs_tuple else values[0]
    return values if was_tuple else values[0]


def _validate_v(v, like, like_is_tuple):
    if len(v) != len(like):
        raise RuntimeError(f"v is a tuple of invalid length: should be {len(like)} but got {len(v)}.")
    for i, (a, b) in enumerate(zip(v, like)):
        if a.shape != b.shape:
            where = f"Entry {i} in v" if like_is_tuple else "v"
            raise RuntimeError(f"{where} has invalid size: should be {b.size()} but got {a.size()}.")


def _check_requires_grad(values, kind, strict):
    """Under strict, each of values (outputs, grad_inputs, jacobian or hessian) must depend on
    the inputs."""
    if not strict:
        return
    for i, value in enumerate(values):
        if value is None:
            raise RuntimeError(f"The output of the user-provided function is independent of input {i}. This is not "
                               "allowed in strict mode.")
        if value.requires_grad:
            continue
        if kind == "hessian":
            raise RuntimeError(f"The hessian of the user-provided function with respect to input {i} is independent "
                               "of the input. This is not allowed in strict mode. You should ensure that your "
                               "function is thrice differentiable and that the hessian depends on the inputs.")
        if kind == "jacobian":
            raise RuntimeError("While computing the hessian, found that the jacobian of the user-provided function "
                               f"with respect to input {i} is independent of the input. This is not allowed in "
                               "strict mode. You should ensure that your function is twice differentiable and that "
                               "the jacobian depends on the inputs (this would be violated by a linear function for "
                               "example).")
        if kind == "grad_inputs":
            raise RuntimeError(f"The gradient with respect to input {i} is independent of the inputs of the "
                               "user-provided function. This is not allowed in strict mode.")
        raise RuntimeError(f"Output {i} of the user-provided function does not require gradients. The outputs must "
                           "be computed in a differentiable manner from the input when running in strict mode.")


def _grad(outputs, inputs, grad_outputs=None, create_graph=False, retain_graph=None):
    """autograd.grad over the outputs that require grad (None for each input where none does,
    or where an input is unused)."""
    if grad_outputs is None:
        grad_outputs = (None,) * len(outputs)
    kept = [(o, g) for o, g in zip(outputs, grad_outputs) if o is not None and o.requires_grad]
    if not kept:
        return (None,) * len(inputs)
    outs, gouts = zip(*kept)
    gouts = None if all(g is None for g in gouts) else gouts
    return grad(outs, inputs, gouts, retain_graph=retain_graph, create_graph=create_graph, allow_unused=True)


_INDEPENDENT = {
    "back": "The output of the user-provided function is independent of input {}. This is not allowed in strict "
            "mode.",
    "back_trick": "The gradient with respect to the input is independent of entry {} in the grad_outputs when using "
                  "the double backward trick to compute forward mode gradients. This is not allowed in strict mode.",
    "double_back": "The jacobian of the user-provided function is independent of input {}. This is not allowed in "
                   "strict mode.",
    "double_back_trick": "The hessian of the user-provided function is independent of entry {} in the grad_jacobian. "
                         "This is not allowed in strict mode as it prevents from using the double backward trick to "
                         "replace forward mode AD.",
}


def _fill_in_zeros(grads, refs, strict, create_graph, stage):
    out = []
    for i, (g, ref) in enumerate(zip(grads, refs)):
        if g is None:
            if strict:
                raise RuntimeError(_INDEPENDENT[stage].format(i))
            g = zeros_like(ref)
        elif strict and create_graph and not g.requires_grad:
            what = "hessian" if "double" in stage else "jacobian"
            raise RuntimeError(f"The {what} of the user-provided function is independent of input {i}. This is not "
                               "allowed in strict mode when create_graph=True.")
        out.append(g)
    return tuple(out)


def _v_of(v, like, like_is_tuple, create_graph, name, what):
    if v is None:
        if len(like) != 1 or like[0].numel() != 1:
            raise RuntimeError(f"The vector v can only be None if {what} a single Tensor with a single element.")
        return None
    _, v = _as_tuple(v, "v", name)
    v = _preprocess(v, create_graph, need_graph=False)
    _validate_v(v, like, like_is_tuple)
    return v


def vjp(func, inputs, v=None, create_graph=False, strict=False):
    """torch.autograd.functional.vjp: (func(inputs), v^T J)."""
    with enable_grad():
        inputs_tuple, xs = _as_tuple(inputs, "inputs", "vjp")
        xs = _preprocess(xs, create_graph, need_graph=True)
        outputs_tuple, outs = _as_tuple(func(*xs), "outputs of the user-provided function", "vjp")
        _check_requires_grad(outs, "outputs", strict)
        vs = _v_of(v, outs, outputs_tuple, create_graph, "vjp", "the user-provided function returns")
    with set_grad_enabled(True if create_graph else is_grad_enabled()):
        result = _fill_in_zeros(_grad(outs, xs, vs, create_graph), xs, strict, create_graph, "back")
    return _unpack(_postprocess(outs, create_graph), outputs_tuple), \
        _unpack(_postprocess(result, create_graph), inputs_tuple)


def jvp(func, inputs, v=None, create_graph=False, strict=False):
    """torch.autograd.functional.jvp: (func(inputs), J v), by the double-vjp trick: J v is the
    gradient of (u^T J) v with respect to a dummy u."""
    with enable_grad():
        inputs_tuple, xs = _as_tuple(inputs, "inputs", "jvp")
        xs = _preprocess(xs, create_graph, need_graph=True)
        vs = _v_of(v, xs, inputs_tuple, create_graph, "jvp", "the input to the user-provided function is")
        outputs_tuple, outs = _as_tuple(func(*xs), "outputs of the user-provided function", "jvp")
        _check_requires_grad(outs, "outputs", strict)
        # the backward is linear in u: its value does not matter, only that it is finite
        us = tuple(zeros_like(o).requires_grad_(True) for o in outs)
        grad_inputs = _grad(outs, xs, us, create_graph=True)
        _check_requires_grad(grad_inputs, "grad_inputs", strict)
    with set_grad_enabled(True if create_graph else is_grad_enabled()):
        result = _fill_in_zeros(_grad(grad_inputs, us, vs, create_graph), outs, strict, create_graph, "back_trick")
    return _unpack(_postprocess(outs, create_graph), outputs_tuple), \
        _unpack(_postprocess(result, create_graph), outputs_tuple)


def _scalar_function_jacobian(func, inputs, v, create_graph, strict, name):
    """(inputs tuple?, inputs as seen, v, func's output, its gradient) of a scalar func."""
    inputs_tuple, xs = _as_tuple(inputs, "inputs", name)
    xs = _preprocess(xs, create_graph, need_graph=True)
    vs = _v_of(v, xs, inputs_tuple, create_graph, name, "the input to the user-provided function is")
    outputs_tuple, outs = _as_tuple(func(*xs), "outputs of the user-provided function", name)
    _check_requires_grad(outs, "outputs", strict)
    if outputs_tuple:
        raise RuntimeError(f"The function given to {name} should return a single Tensor")
    if outs[0].numel() != 1:
        raise RuntimeError(f"The Tensor returned by the function given to {name} should contain a single element")
    jac = _grad(outs, xs, create_graph=True)
    _check_requires_grad(jac, "jacobian", strict)
    return inputs_tuple, xs, vs, outs, jac


def hvp(func, inputs, v=None, create_graph=False, strict=False):
    """torch.autograd.functional.hvp: (func(inputs), H v) for a scalar func, by the
    double-backward trick (as torch's)."""
    with enable_grad():
        inputs_tuple, xs, vs, outs, jac = _scalar_function_jacobian(func, inputs, v, create_graph, strict, "hvp")
        grad_jac = tuple(zeros_like(x).requires_grad_(True) for x in xs)
        double_back = _grad(jac, xs, grad_jac, create_graph=True)
        _check_requires_grad(jac, "hessian", strict)
    with set_grad_enabled(True if create_graph else is_grad_enabled()):
        result = _fill_in_zeros(_grad(double_back, grad_jac, vs, create_graph), xs, strict, create_graph,
                                "double_back_trick")
    return _unpack(_postprocess(outs, create_graph), False), _unpack(_postprocess(result, create_graph), inputs_tuple)


def vhp(func, inputs, v=None, create_graph=False, strict=False):
    """torch.autograd.functional.vhp: (func(inputs), v^T H) for a scalar func."""
    with enable_grad():
        inputs_tuple, xs, vs, outs, jac = _scalar_function_jacobian(func, inputs, v, create_graph, strict, "vhp")
    with set_grad_enabled(True if create_graph else is_grad_enabled()):
        result = _fill_in_zeros(_grad(jac, xs, vs, create_graph), xs, strict, create_graph, "double_back")
    return _unpack(_postprocess(outs, create_graph), False), _unpack(_postprocess(result, create_graph), inputs_tuple)


def _check_strategy(strategy, create_graph, vectorize):
    if strategy not in ("reverse-mode", "forward-mode"):
        raise ValueError(f'jacobian: expected strategy to be either "forward-mode" or "reverse-mode", got {strategy!r}')
    if strategy == "forward-mode":
        if create_graph:
            raise NotImplementedError('torch.autograd.functional.jacobian: `create_graph=True` and `strategy="forward-'
                                      'mode"` are not supported together (yet). Please either set `create_graph=False` '
                                      'or `strategy="reverse-mode"`.')
        if not vectorize:
            raise NotImplementedError("Computing Jacobian using forward-AD or forward-over-reverse Hessian is only "
                                      "implemented for `vectorize=True`.")


def jacobian(func, inputs, create_graph=False, strict=False, vectorize=False, strategy="reverse-mode"):
    """torch.autograd.functional.jacobian: d func(inputs) / d inputs, each block of shape
    output.shape + input.shape; a tensor for one output and one input, else tuples (over the
    outputs, of tuples over the inputs), as torch's."""
    from ._ops_shape import stack
    _check_strategy(strategy, create_graph, vectorize)
    if vectorize and strict:
        raise RuntimeError("torch.autograd.functional.jacobian: `strict=True` and `vectorized=True` are not supported "
                           "together. Please either set `strict=False` or `vectorize=False`.")
    with enable_grad():
        inputs_tuple, xs = _as_tuple(inputs, "inputs", "jacobian")
        xs = _preprocess(xs, create_graph, need_graph=True)
        outputs_tuple, outs = _as_tuple(func(*xs), "outputs of the user-provided function", "jacobian")
        _check_requires_grad(outs, "outputs", strict)
        blocks = []
        for i, out in enumerate(outs):
            columns = [[] for _ in xs]
            for element in out.reshape(-1):
                row = _grad((element,), xs, retain_graph=True, create_graph=create_graph)
                for k, (g, x) in enumerate(zip(row, xs)):
                    if g is None:
                        if strict:
                            raise RuntimeError(f"Output {i} of the user-provided function is independent of input "
                                               f"{k}. This is not allowed in strict mode.")
                        g = zeros_like(x)
                    elif strict and create_graph and not g.requires_grad:
                        raise RuntimeError(f"The jacobian of the user-provided function is not differentiable with "
                                           f"respect to input {k}. This is not allowed in strict mode when "
                                           "create_graph=True.")
                    columns[k].append(g)
            blocks.append(tuple(stack(col).reshape(*out.shape, *x.shape) if col else _empty_block(out, x)
                                for col, x in zip(columns, xs)))
    return _unpack(_postprocess(tuple(blocks), create_graph), (outputs_tuple, inputs_tuple))


def _empty_block(out, x):
    from ._ops_creation import zeros
    return zeros(*out.shape, *x.shape, dtype=x.dtype)


def hessian(func, inputs, create_graph=False, strict=False, vectorize=False, outer_jacobian_strategy="reverse-mode"):
    """torch.autograd.functional.hessian of a scalar func: the jacobian of its gradient, blocks
    [i][j] of shape inputs[i].shape + inputs[j].shape (a tensor for one input)."""
    inputs_tuple, xs = _as_tuple(inputs, "inputs", "hessian")
    _check_strategy(outer_jacobian_strategy, create_graph, vectorize)

    def single_output(*args):
        out = func(*args)
        out_tuple, outs = _as_tuple(out, "outputs of the user-provided function", "hessian")
        _check_requires_grad(outs, "outputs", strict)
        if out_tuple:
            raise RuntimeError("The function given to hessian should return a single Tensor")
        if out.numel() != 1:
            raise RuntimeError("The Tensor returned by the function given to hessian should contain a single element")
        return out.squeeze()

    def gradient(*args):
        jac = jacobian(single_output, args, create_graph=True)
        _check_requires_grad(jac, "jacobian", strict)
        return jac

    return _unpack(jacobian(gradient, xs, create_graph, strict, vectorize, outer_jacobian_strategy),
                   (inputs_tuple, inputs_tuple))
