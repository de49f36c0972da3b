"""meshflow.autograd: torch.autograd's functions (grad, backward), grad modes, anomaly
detection, gradcheck and gradgradcheck, and autograd.functional's vjp, jvp, hvp and vhp.

grad() and backward() run the C++ engine (meshflow/autograd/grad_api.h) once over all the
given roots; on global tensors they are collective (every rank calls them alike) and each
gradient comes in its tensor's placement and SBP. With create_graph=True the engine runs with
grad mode on, so the gradients are recorded and can be differentiated again (gradient
penalties, Hessian-vector products); an op whose gradient has no gradient of its own raises,
naming it, when a second backward reaches it.
"""
import contextlib

import numpy as np

from . import _C
from . import _tensor
from ._tensor import Tensor, _impl_of, no_grad, is_grad_enabled
from ._function import Function, FunctionCtx, once_differentiable

__all__ = ["Function", "FunctionCtx", "once_differentiable", "grad", "backward", "enable_grad", "set_grad_enabled", "inference_mode", "no_grad", "is_grad_enabled",
           "is_inference_mode_enabled", "set_detect_anomaly", "detect_anomaly", "is_anomaly_enabled", "gradcheck",
           "gradgradcheck", "GradcheckError", "functional", "Variable"]


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
        return _tensor._in_context(self.clone, function)

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
    """torch.inference_mode: no_grad whose tensors are inference tensors (is_inference();
    autograd refuses to save them for backward outside the mode, as torch's), and which
    is_inference_mode_enabled() reports (mode=False: grad mode on and inference mode off in
    the scope, as torch's)."""

    def __init__(self, mode=True):
        self._enabled = bool(mode)

    def __enter__(self):
        self._previous = _C.grad_enabled()
        self._previous_inference = _C.inference_mode_enabled()
        _C.set_grad_enabled(not self._enabled)
        _C.set_inference_mode(self._enabled)
        return self

    def __exit__(self, *exc):
        _C.set_inference_mode(self._previous_inference)
        super().__exit__(*exc)

    def clone(self):
        return type(self)(self._enabled)


def is_inference_mode_enabled():
    return _C.inference_mode_enabled()


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


def backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False, inputs=None):
    """Accumulates the gradients of `tensors` (seeded by grad_tensors; None for a
    one-element tensor means 1) into the leaves' .grad, in one pass. create_graph records
    them (each .grad then has a grad_fn); retain_graph defaults to create_graph."""
    if retain_graph is None:
        retain_graph = create_graph
    tensors = _as_tuple(tensors, "tensors")
    if inputs is not None:
        backward_into(tensors, inputs, grad_tensors, retain_graph, create_graph)
        return
    _check_roots(tensors, "backward")
    seeds = _seeds(grad_tensors, tensors, "grad_tensors")
    _C.autograd_backward([t._impl for t in tensors], seeds, bool(retain_graph), bool(create_graph))
    _tensor._run_after_backward()


def backward_into(tensors, inputs, grad_tensors, retain_graph, create_graph):
    """backward(inputs=...): autograd.grad's gradients of `tensors` for `inputs` (a tensor or
    a sequence, leaves or not), added to their .grad only, as torch's."""
    inputs = [inputs] if isinstance(inputs, Tensor) else list(inputs)
    if not inputs:
        raise RuntimeError("'inputs' argument to backward() cannot be empty.")
    grads = grad(tensors, inputs, grad_tensors, retain_graph=retain_graph, create_graph=create_graph,
                 allow_unused=True)
    with contextlib.nullcontext() if create_graph else no_grad():
        for t, g in zip(inputs, grads):
            if g is not None:
                t.grad = g if t.grad is None else t.grad + g
                if t.is_leaf:
                    t._impl.run_post_accumulate_hooks()
    _tensor._run_after_backward()


def _after_next_backward(fn):
    """Runs fn() once when the next backward() (Tensor.backward or autograd.backward) returns."""
    _tensor._after_backward.append(fn)


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False, only_inputs=True,
         allow_unused=None, is_grads_batched=False, materialize_grads=False):
    """The gradients of sum(outputs[i] * grad_outputs[i]) with respect to each input, as a
    tuple, leaving every .grad as it is. An input the outputs do not depend on raises unless
    allow_unused (then its gradient is None, or zeros with materialize_grads). create_graph
    makes the gradients differentiable; retain_graph defaults to create_graph. is_grads_batched
    reads dim 0 of each grad_output as a batch of them and stacks the gradients of each (one
    backward pass per element, where torch vmaps one: torch's values, at a loop's cost)."""
    if retain_graph is None:
        retain_graph = create_graph
    if is_grads_batched:
        return _batched_grad(outputs, inputs, grad_outputs, retain_graph, create_graph, allow_unused,
                             materialize_grads)
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
    queued = len(_tensor._after_backward)
    try:
        grads = _C.autograd_grad([t._impl for t in outputs], [t._impl for t in inputs], seeds, bool(retain_graph),
                                 bool(create_graph))
    finally:  # the post-accumulate hooks leaves queued: grad accumulates nothing
        del _tensor._after_backward[queued:]
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


def _batched_grad(outputs, inputs, grad_outputs, retain_graph, create_graph, allow_unused, materialize_grads):
    """grad with is_grads_batched: grad of each dim-0 slice of the grad_outputs, stacked."""
    from ._ops_shape import stack
    seeds = _as_tuple(grad_outputs, "grad_outputs") if grad_outputs is not None else ()
    if not seeds or any(not isinstance(g, Tensor) or g.ndim == 0 for g in seeds):
        raise RuntimeError("grad: is_grads_batched=True expects grad_outputs, each a tensor with a batch dim first")
    n = seeds[0].shape[0]
    if any(g.shape[0] != n for g in seeds):
        raise RuntimeError(f"grad: is_grads_batched=True expects grad_outputs of one batch size, got "
                           f"{[g.shape[0] for g in seeds]}")
    rows = [grad(outputs, inputs, [g[i] for g in seeds], retain_graph=retain_graph or i < n - 1,
                 create_graph=create_graph, allow_unused=allow_unused, materialize_grads=materialize_grads)
            for i in range(n)]
    return tuple(None if column[0] is None else stack(column) for column in zip(*rows))


class set_detect_anomaly:
    """set_detect_anomaly(mode): anomaly detection on or off now, as a function; as a context
    manager, for the scope. While on, backward raises RuntimeError when a node returns NaN
    ("Function 'LogBackward0' returned nan values in its 0th output."), with the stack of the
    call that recorded it; each node is checked (its gradients read), so it is slow. Off, it
    costs nothing."""

    def __init__(self, mode, check_nan=True):
        if not isinstance(mode, bool):
            raise TypeError(f"set_detect_anomaly expects a bool, got {type(mode).__name__}")
        self._previous = _C.detect_anomaly_enabled()
        _C.set_detect_anomaly(mode and check_nan)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        _C.set_detect_anomaly(self._previous)


class detect_anomaly(_GradMode):
    """Context manager and decorator: anomaly detection on in its scope (set_detect_anomaly)."""

    def __init__(self, check_nan=True):
        self._check_nan = check_nan

    def __enter__(self):
        self._previous = _C.detect_anomaly_enabled()
        _C.set_detect_anomaly(bool(self._check_nan))
        return self

    def __exit__(self, *exc):
        _C.set_detect_anomaly(self._previous)

    def clone(self):
        return type(self)(self._check_nan)


def is_anomaly_enabled():
    return _C.detect_anomaly_enabled()


class GradcheckError(RuntimeError):
    """gradcheck's failure: the analytical and numerical Jacobians differ (torch's)."""


def _tensor_outputs(out):
    return (out,) if isinstance(out, Tensor) else tuple(o for o in out if isinstance(o, Tensor))


def _with_value(t, array):
    """A new leaf of t's dtype holding `array`, requiring grad as t does (gradgradcheck's
    function differentiates with respect to its inputs)."""
    from ._tensor import tensor
    return tensor(array, dtype=t.dtype, requires_grad=t.requires_grad)


def _numerical_jacobians(fn, inputs, wrt, eps):
    """[output][input] -> (numel(output), numel(input)) central differences, in float64."""
    arrays = [t.detach()._numpy().astype(np.float64) if isinstance(t, Tensor) else None for t in inputs]
    columns = {}
    for i in wrt:
        base = arrays[i]
        for j in range(base.size):
            values = []
            for step in (eps, -eps):
                moved = base.copy()
                moved.reshape(-1)[j] += step
                args = list(inputs)
                args[i] = _with_value(inputs[i], moved)
                values.append([o.detach()._numpy().astype(np.float64).reshape(-1) for o in _tensor_outputs(fn(*args))])
            columns[i, j] = [(plus - minus) / (2 * eps) for plus, minus in zip(*values)]
    outputs = _tensor_outputs(fn(*inputs))
    return [[np.stack([columns[i, j][k] for j in range(arrays[i].size)], axis=1) if arrays[i].size
             else np.zeros((outputs[k].numel(), 0)) for i in wrt] for k in range(len(outputs))]


def _analytical_jacobians(fn, inputs, wrt):
    """[output][input] -> (numel(output), numel(input)), one autograd.grad per output element."""
    from ._tensor import tensor as mf_tensor
    outputs = _tensor_outputs(fn(*inputs))
    result = []
    for out in outputs:
        rows = [[] for _ in wrt]
        n = out.numel()
        for m in range(n):
            seed = np.zeros(n, dtype=np.float64)
            seed[m] = 1
            grads = None
            if out.requires_grad:
                grads = grad(out, [inputs[i] for i in wrt], mf_tensor(seed.reshape(tuple(out.shape)), dtype=out.dtype),
                             retain_graph=True, allow_unused=True)
            for r, i in enumerate(wrt):
                g = None if grads is None else grads[r]
                rows[r].append(np.zeros(inputs[i].numel()) if g is None else g._numpy().astype(np.float64).reshape(-1))
        result.append([np.stack(r) if r else np.zeros((0, inputs[i].numel())) for r, i in zip(rows, wrt)])
    return result


def gradcheck(func, inputs, *, eps=1e-6, atol=1e-5, rtol=1e-3, raise_exception=True, fast_mode=False,
              nondet_tol=0.0, check_undefined_grad=True, check_grad_dtypes=False, check_batched_grad=False,
              check_batched_forward_grad=False, check_forward_ad=False, check_backward_ad=True, masked=None):
    """Compares the gradients of func(*inputs) with central finite differences (torch's
    gradcheck): for every output and every input that requires grad, the Jacobians must agree
    elementwise within atol + rtol * |numerical|. Inputs should be float64 local tensors.
    Returns True, or raises GradcheckError (returns False when not raise_exception).
    torch's other options are taken and change nothing: the whole Jacobians are compared
    (fast_mode's random projection checks less), backward only."""
    inputs = (inputs,) if isinstance(inputs, Tensor) else tuple(inputs)
    wrt = [i for i, t in enumerate(inputs) if isinstance(t, Tensor) and t.requires_grad]
    if not wrt:
        raise ValueError("gradcheck expects at least one input tensor to require gradient, but none of the them have "
                         "requires_grad=True.")
    for i in wrt:
        if inputs[i].is_global:
            raise NotImplementedError("gradcheck takes local tensors; differences on a global tensor would be collective")
    analytical = _analytical_jacobians(func, inputs, wrt)
    numerical = _numerical_jacobians(func, inputs, wrt, eps)
    for k, (a_rows, n_rows) in enumerate(zip(analytical, numerical)):
        for r, i in enumerate(wrt):
            a, n = a_rows[r], n_rows[r]
            if not np.allclose(a, n, rtol=rtol, atol=atol):
                message = (f"Jacobian mismatch for output {k} with respect to input {i},\n"
                           f"numerical:{n.T}\nanalytical:{a.T}\n")
                if raise_exception:
                    raise GradcheckError(message)
                return False
    return True


def gradgradcheck(func, inputs, grad_outputs=None, *, eps=1e-6, atol=1e-5, rtol=1e-3, raise_exception=True,
                  fast_mode=False, nondet_tol=0.0, check_undefined_grad=True, check_grad_dtypes=False,
                  check_batched_grad=False, check_fwd_over_rev=False, check_rev_over_rev=True, masked=False):
    """gradcheck of the gradients of func (torch's gradgradcheck): the function
    (inputs, grad_outputs) -> autograd.grad(func(inputs), inputs, grad_outputs,
    create_graph=True) is checked against finite differences of itself. grad_outputs default
    to random float64 tensors (fixed seed) of the outputs' shapes."""
    from ._tensor import tensor
    inputs = (inputs,) if isinstance(inputs, Tensor) else tuple(inputs)
    outputs = _tensor_outputs(func(*inputs))
    if grad_outputs is None:
        rng = np.random.RandomState(0)
        grad_outputs = tuple(tensor(rng.standard_normal(tuple(o.shape)), dtype=o.dtype, requires_grad=True)
                             for o in outputs if o.requires_grad)
    else:
        grad_outputs = (grad_outputs,) if isinstance(grad_outputs, Tensor) else tuple(grad_outputs)
    n = len(inputs)

    def first_grads(*args):
        xs, seeds = args[:n], args[n:]
        outs = [o for o in _tensor_outputs(func(*xs)) if o.requires_grad]
        wrt = [x for x in xs if isinstance(x, Tensor) and x.requires_grad]
        grads = grad(outs, wrt, seeds, create_graph=True, allow_unused=True)
        return tuple(g for g in grads if g is not None)

    return gradcheck(first_grads, inputs + grad_outputs, eps=eps, atol=atol, rtol=rtol,
                     raise_exception=raise_exception)


def Variable(data, requires_grad=False, volatile=False):
    """torch's old autograd.Variable: since torch 0.4 the tensor itself (requires_grad set
    when asked); older programs still wrap their inputs in it."""
    if requires_grad:
        data.requires_grad_(True)
    return data


# torch.autograd.functional (vjp, jvp, hvp, vhp, jacobian, hessian): it imports grad from here.
from . import _autograd_functional as functional  # noqa: E402
# Importable by its torch path too (`from torch.autograd.functional import jacobian`).
__import__("sys").modules[__name__ + ".functional"] = functional
# torch.autograd.graph (saved-tensor hooks), importable by its torch path.
from . import _autograd_graph as graph  # noqa: E402
__import__("sys").modules[__name__ + ".graph"] = graph
# torch.autograd.forward_ad (dual numbers), importable by its torch path.
from . import _forward_ad as forward_ad  # noqa: E402
__import__("sys").modules[__name__ + ".forward_ad"] = forward_ad
