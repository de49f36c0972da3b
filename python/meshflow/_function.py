"""autograd.Function: an op written in Python with its own forward and backward, as torch's.

forward(ctx, *args) (or forward(*args) with setup_context(ctx, inputs, output), torch 2's
form) runs without recording (meshflow ops inside it are not differentiated);
its tensor outputs become the results of one recorded call whose gradient is
backward(ctx, *grad_outputs), which returns one gradient (or None) per argument of forward.
Backward runs in the grad mode of the backward pass: without recording, or, under
create_graph=True, recorded, so a backward written with meshflow ops from saved inputs can be
differentiated again (gradgradcheck); a saved output is read there attached to the call's
node, so a second derivative flows through it too, as torch's.
"""
import functools

from . import _C, _grad_fn
from . import _autograd_graph as _graph
from ._tensor import Tensor, no_grad


class FunctionCtx:
    """What forward leaves for backward: save_for_backward(*tensors) -> saved_tensors, any
    attribute, needs_input_grad (one bool per argument of forward); mark_dirty(*inputs) for
    inputs forward wrote in place and returns (each is returned itself, and takes the call's
    result in the graph, as an in-place op's tensor)."""

    def save_for_backward(self, *tensors):
        self._saved = tensors

    @property
    def saved_tensors(self):
        """The saved tensors; a saved output of the call is read as torch's: in a create_graph
        backward it is attached to the call's node, so a gradient computed from it is
        differentiated back through the call."""
        return tuple(Tensor(t.unpack()) if isinstance(t, _C.SavedVar) else t.unpack() if isinstance(t, _graph.Packed)
                     else t for t in getattr(self, "_saved", ()))

    def mark_dirty(self, *tensors):
        self.dirty_tensors = tensors

    def mark_non_differentiable(self, *tensors):
        self.non_differentiable = tensors

    def set_materialize_grads(self, value):
        self.materialize_grads = bool(value)


class Function:
    """Subclass with static forward(ctx, ...) and backward(ctx, *grads); call Sub.apply(...)."""

    @staticmethod
    def forward(ctx, *args, **kwargs):
        raise NotImplementedError("a Function subclass defines forward(ctx, *args)")

    @staticmethod
    def backward(ctx, *grad_outputs):
        raise NotImplementedError("a Function subclass defines backward(ctx, *grad_outputs)")

    @staticmethod
    def setup_context(ctx, inputs, output):
        raise NotImplementedError  # overridden by a Function written in torch 2's form

    @classmethod
    def apply(cls, *args, **kwargs):
        ctx = FunctionCtx()
        ctx.needs_input_grad = tuple(isinstance(a, Tensor) and a.requires_grad for a in args)
        with no_grad():
            if cls.setup_context is Function.setup_context:
                out = cls.forward(ctx, *args, **kwargs)
            else:  # forward without ctx, then setup_context(ctx, inputs, output)
                out = cls.forward(*args, **kwargs)
                cls.setup_context(ctx, args, out)
        single = isinstance(out, Tensor)
        outs = (out,) if single else tuple(out)
        inputs = [a for a in args if isinstance(a, Tensor)]
        if not (_C.grad_enabled() and any(t.requires_grad for t in inputs)):
            return out
        # Fresh Vars: an output that is an input (or a view of one) must not take its place.
        made = [Tensor(o._impl.detach()) if isinstance(o, Tensor) else o for o in outs]
        tensor_outs = [o for o in made if isinstance(o, Tensor)]
        tensor_args = [isinstance(a, Tensor) for a in args]

        def backward(grads):
            result = cls.backward(ctx, *[None if g is None else Tensor(g) for g in grads])
            result = result if isinstance(result, tuple) else (result,)
            if len(result) < len(args):
                result = result + (None,) * (len(args) - len(result))
            return [None if r is None else r._impl for r, is_tensor in zip(result, tensor_args) if is_tensor]

        since = _C.next_sequence()
        owner = _grad_fn.NodeOwner()
        recorded = _C.record_function(cls.__name__, [t._impl for t in inputs], [o._impl for o in tensor_outs],
                                      backward, owner)
        if recorded:
            _grad_fn.attach_context(recorded[0].grad_fn, ctx, owner)  # grad_fn reads ctx, as torch's
            _save_outputs(ctx, outs, recorded, args)
        recorded = iter(Tensor(v) for v in recorded)
        made = tuple(next(recorded) if isinstance(o, Tensor) else o for o in made)
        if getattr(ctx, "dirty_tensors", ()):
            made = _dirty_outputs(outs, made, ctx.dirty_tensors, since)
        return made[0] if single else made


def _save_outputs(ctx, outs, recorded, args):
    """ctx's saved tensors, each output of forward among them (not an input it returned) kept
    as its recorded result's SavedVar: its value, and the call's node in a create_graph
    backward, as torch's SavedVariable of an output."""
    saved = getattr(ctx, "_saved", ())
    if not saved:
        return
    results = dict(zip((id(o) for o in outs if isinstance(o, Tensor)), recorded))

    def kept(t):  # the others pass through the saved-tensor hooks here; the SavedVar's, in C++
        if not isinstance(t, Tensor) or id(t) not in results or any(t is a for a in args):
            return _graph.packed(t)
        out = results[id(t)]
        return _graph.packed(t, _C.SavedVar(out)) if out.requires_grad else _graph.packed(t)
    ctx._saved = tuple(kept(t) for t in saved)


def _dirty_outputs(outs, made, dirty, since):
    """The outputs, each one that is a mark_dirty input being that tensor itself: it takes the
    call's result in the graph (the calls since `since` computed it), as after an in-place op,
    and its views and base follow."""
    from ._inplace import _follow
    result = []
    for out, new in zip(outs, made):
        if isinstance(out, Tensor) and any(out is d for d in dirty):
            out._impl.assign(new._impl, since)
            _follow(out)
            new = out
        result.append(new)
    return tuple(result)


def once_differentiable(backward):
    """torch's decorator of a Function's backward: it runs without recording, so its gradients
    cannot be differentiated again."""
    @functools.wraps(backward)
    def wrapper(ctx, *grads):
        with no_grad():
            return backward(ctx, *grads)
    return wrapper
