"""meshflow.utils.checkpoint: activation checkpointing in eager mode, as torch.utils.checkpoint.

checkpoint(fn, *args) runs fn and keeps, for backward, only its tensor arguments: not the
values fn's ops saved for their gradients. Backward runs fn again on those arguments, with
the random generator (and autocast) as they were at the call, so dropout drops the same
elements, and takes the gradients of that recomputation. The gradients equal those of fn
run without checkpointing, bitwise where fn's gradient sums are reached in the same order.

The mechanism: fn runs once with grad mode on, so that the parameters it reads (the leaves
its graph reaches) are known; that graph and the values it saved are dropped as soon as fn
returns, and one call is recorded in their place (one node, as an mf.autograd.Function):
inputs the tensor arguments and those parameters, outputs fn's tensors. Its backward runs
fn again under grad mode and differentiates that run with autograd.grad, which gives each
parameter's gradient in the parameter's layout (a data-parallel weight's gradient reduced
there); the engine accumulates them as any call's. So gradients reach arguments and
parameters alike (both of torch's modes' promises), autograd.grad works through a
checkpoint, checkpoints nest, and global tensors work as local ones: every rank runs the
same recomputation, and random ops draw from the one generator every device and rank
shares (mf.get_rng_state()).

Not supported: use_reentrant's differences (both modes behave as use_reentrant=False),
context_fn, determinism_check other than "default", a create_graph backward through a
checkpoint (the recomputation's gradients are not recorded), generators passed to fn
explicitly (mf.Generator: their state is fn's own, as in torch).
"""
from .. import _C
from .._tensor import Tensor

__all__ = ["checkpoint", "checkpoint_sequential"]


def _leaves(outputs, args):
    """The leaves requiring grad that the graph behind `outputs` reaches, in the order met,
    leaving out `args` and not looking behind them (their own graphs are not fn's). Walks the
    recorded nodes (not grad_fn's torch-shaped view of them); nodes are told apart by their
    address (their Python objects come and go while the graph stays)."""
    stop = {a._impl.grad_fn.id for a in args if a._impl.grad_fn is not None}
    arg_vars = [a._impl for a in args]
    found, seen = [], set()
    todo = [t._impl.grad_fn for t in outputs if t._impl.grad_fn is not None]
    while todo:
        node = todo.pop()
        if node.id in seen or node.id in stop:
            continue
        seen.add(node.id)
        for target, _ in node.edges:
            if target is None:
                continue
            if not isinstance(target, _C.Var):
                todo.append(target)
            elif not any(target.same(v) for v in arg_vars) and not any(target.same(f._impl) for f in found):
                found.append(Tensor(target))
    return found


def _flat_outputs(out):
    return (out,) if isinstance(out, Tensor) else tuple(out) if isinstance(out, (tuple, list)) else None


def checkpoint(function, *args, use_reentrant=None, preserve_rng_state=True, context_fn=None,
               determinism_check="default", debug=False, **kwargs):
    """function(*args, **kwargs), keeping only the tensor arguments for backward, which runs
    it again (see the module's doc). `function` returns a tensor, or a tuple or list of
    values some of which are tensors."""
    if use_reentrant not in (None, True, False):
        raise ValueError(f"checkpoint: use_reentrant must be a bool or None, got {use_reentrant!r}")
    if context_fn is not None:
        raise NotImplementedError("checkpoint: context_fn is not supported by meshflow")
    if determinism_check != "default":
        raise NotImplementedError(f"checkpoint: determinism_check={determinism_check!r} is not supported")
    if not _C.grad_enabled():
        return function(*args, **kwargs)
    rng = _C.generator_state() if preserve_rng_state else None
    autocast = _C.autocast_state()
    out = function(*args, **kwargs)
    flat = _flat_outputs(out)
    single = isinstance(out, Tensor)
    if flat is None:
        raise TypeError(f"checkpoint: the function returned {type(out).__name__}; expected a tensor, or a tuple or "
                        "list of values")
    tensor_args = [a for a in args if isinstance(a, Tensor)]
    tensor_outs = [o for o in flat if isinstance(o, Tensor)]
    params = _leaves([o for o in tensor_outs if o.requires_grad], tensor_args)
    if not params and not any(a.requires_grad for a in tensor_args):
        return out
    # What backward keeps: the arguments (detached: their graphs stay outside), nothing of fn's.
    saved = [a.detach() if isinstance(a, Tensor) else a for a in args]
    wants = [isinstance(a, Tensor) and a.requires_grad for a in args]
    # Each output comes detached out of fn's graph, which (and the values it saved) goes now.
    made = [Tensor(o._impl.detach()) if isinstance(o, Tensor) else o for o in flat]
    shape = [] if isinstance(out, list) else ()
    del out, flat, tensor_outs

    def backward(grads):
        return _recompute(function, saved, wants, kwargs, params, rng, autocast, grads)

    inputs = [t._impl for t in tensor_args] + [p._impl for p in params]
    recorded = iter(_C.record_function("Checkpoint", inputs, [o._impl for o in made if isinstance(o, Tensor)],
                                       backward))
    result = [Tensor(next(recorded)) if isinstance(o, Tensor) else o for o in made]
    # fn's values are dropped, but on a device queued work holds their memory from its issue
    # until it has run and this thread has let it go (vm.h): waiting for it there frees them
    # before the next checkpoint. In host memory they are freed as the work runs, unwaited.
    _C.synchronize_if_allocated_at_issue([t._impl for t in result if isinstance(t, Tensor)])
    return result[0] if single else type(shape)(result)


def _recompute(function, saved, wants, kwargs, params, rng, autocast, grads):
    """The gradients for the recorded call's inputs (tensor arguments, then parameters)."""
    from .. import autograd
    # Ops run behind this thread (the VM's queue): on a device, where an op's outputs take
    # their memory at issue, backward would otherwise issue the recomputations of several
    # checkpoints before the first had run, and hold their values at once. Waiting there
    # for the work issued so far keeps one recomputation alive at a time (the device then
    # waits while this one is issued). In host memory values take their memory as they are
    # made and go as their last reader runs, so the work runs in order, one block's values
    # at a time, without the wait.
    _C.synchronize_if_allocated_at_issue([a._impl for a in saved if isinstance(a, Tensor)] +
                                         [g for g in grads if g is not None])
    args = []
    for a, want in zip(saved, wants):
        if isinstance(a, Tensor):
            a = a.detach()
            if want:
                a.requires_grad_(True)
        args.append(a)
    now = _C.generator_state() if rng is not None else None
    previous_autocast = _C.set_autocast(*autocast)
    try:
        if rng is not None:
            _C.set_generator_state(*rng)
        with autograd.enable_grad():
            out = function(*args, **kwargs)
    finally:
        _C.set_autocast(*previous_autocast)
        if now is not None:
            _C.set_generator_state(*now)
    outs = [o for o in _flat_outputs(out) if isinstance(o, Tensor)]
    roots, seeds = [], []
    for o, g in zip(outs, grads):
        if g is not None and o.requires_grad:
            roots.append(o)
            seeds.append(Tensor(g))
    arg_tensors = [a for a in args if isinstance(a, Tensor)]
    wrt = [a for a in arg_tensors if a.requires_grad] + list(params)
    found = autograd.grad(roots, wrt, seeds, allow_unused=True) if roots and wrt else [None] * len(wrt)
    found = iter(found)
    result = [next(found) if a.requires_grad else None for a in arg_tensors] + [next(found) for _ in params]
    return [None if g is None else g._impl for g in result]


def checkpoint_sequential(functions, segments, input, use_reentrant=None, **kwargs):
    """Runs `functions` (an nn.Sequential or a list of modules or functions) in order on
    `input`, split into `segments` consecutive runs, each but the last checkpointed (as
    torch's)."""
    from ..nn import Sequential
    if isinstance(functions, Sequential):
        functions = list(functions.children())
    functions = list(functions)
    if not isinstance(segments, int) or segments < 1:
        raise ValueError(f"checkpoint_sequential: segments must be an int >= 1, got {segments!r}")
    size = len(functions) // segments if segments <= len(functions) else 1

    def run(start, end):
        def forward(x):
            for f in functions[start:end]:
                x = f(x)
            return x
        return forward

    end = -1
    for start in range(0, size * (segments - 1), size):
        end = start + size - 1
        input = checkpoint(run(start, end + 1), input, use_reentrant=use_reentrant, **kwargs)
    return run(end + 1, len(functions))(input)
