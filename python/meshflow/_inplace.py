"""In-place ops and views, as PyTorch's: x.add_(y), x += y, x.zero_(), x[i] = v, and writes
through views (row = x[0]; row += 1 changes x; x.add_(1) changes row).

An in-place op computes the new value out of place and the tensor takes it (`Var.assign`):
every name bound to the tensor, and the modules and optimizers holding it, see the write,
and while gradients are recorded the tensor takes the new value's place in the graph.
Indexed writes (x[i] = v, index_put_, masked_fill_, scatter_, scatter_add_, index_add_,
index_copy_, index_fill_) and writes through a view that is a box of its base go further:
one op writes the tensor's own memory (`_write_call`,
fn::write_in_place), so they cost what they write. Each write counts a version
(x._version): backward raises PyTorch's error for a call whose gradient reads a value
written since (the calls that computed an out-of-place write's value keep the old value
they read, and are exempt: docs/porting.md).

A view (the ops PyTorch makes views with: view/reshape, basic indexing, permute, transpose,
squeeze, unsqueeze, flatten, narrow, split, chunk, unbind, expand, diagonal, detach) holds its base,
as a PyTorch view holds its storage (so that `w.grad.data.zero_()` reaches the gradient
through the temporaries), with how to take it again (`take`) and how to put a new value of it
back into the base (`put`); a base knows its views weakly. A write to a view writes its base (recorded for autograd like any op), and a
write to a base takes its live views again, so that aliasing is as PyTorch's. Only the
Tensor methods make views; the functions (mf.reshape(x, ...)) return new tensors.
"""
import builtins
import functools
import weakref

import numpy as _np

from . import _C, _dtype
from ._ops_index import _basic_items, _carrier, index_along_call, index_fill_source, scatter_call, write_call
from ._tensor import Tensor, _in_c, _in_memory_format, _to_format, apply, no_grad, is_grad_enabled, numpy_shared

# A view records how it was made in `view._view`, a tuple (base, kind, args, kwargs): the
# method's _ViewKind and the arguments of the call. Nothing else is made per view (no
# closures): what a write needs (taking the view again, putting it back) is derived from the
# record when a write happens, which most views never see. A base lists its views in
# `base._views` (weak references). Both are Tensor slots, unset until then (read with
# getattr: every tensor setting them to None would slow every op's result).
_BASE, _KIND, _ARGS, _KWARGS = range(4)
_NO_KWARGS = {}  # shared by the records of calls without keywords (read, never written)


class _ViewKind:
    """How a view-making method's views are taken again and written back, one per method:
    `raw(base, *args, **kwargs)` takes the view again; `put(base, value, *args, **kwargs)` is
    the base with the view's part replaced by `value` (default: the value reshaped to the
    base's shape); `region(base, *args, **kwargs)`, for views that are a box of the base
    (basic indexing, narrow, split): the basic index of that box, which a write through the
    view writes in place (put is then unused); `strides(base_strides, base, view, *args,
    **kwargs)`: PyTorch's strides of the view given its base's (torch_strides), or None where
    they are not known (the view is then taken as dense); `detached`: a detach() view, through
    which writes change values only, never the graph; `offset(base_strides, base, *args,
    **kwargs)`: where the view's first element sits in PyTorch's storage of base, in base's
    elements from base's first (default: a region's box corner, else 0)."""
    __slots__ = ("raw", "put", "region", "detached", "strides", "offset")

    def __init__(self, raw, put=None, detached=False, region=None, strides=None, offset=None):
        self.raw, self.put, self.detached = raw, put or _reshape_back, detached
        self.region, self.strides = region, strides
        self.offset = offset or (_no_offset if region is None else _box_offset(region))


# _link(base, view, kind, args, kwargs): records `view` as a view of `base` made by `kind` with
# these arguments: view._view = (base, kind, args, kwargs), a weak reference to it in
# base._views (in C, as x[i]'s link: python/op_calls.cc).
_link = _C.link_view


def _take(record, base):
    """The view `record` describes, taken again from base."""
    return record[_KIND].raw(base, *record[_ARGS], **record[_KWARGS])


def _put(record, base, value):
    """base with the part the view `record` describes replaced by `value`."""
    return record[_KIND].put(base, value, *record[_ARGS], **record[_KWARGS])


def _live_views(t):
    views = getattr(t, "_views", None)
    return [] if views is None else [v for v in (r() for r in views) if v is not None]


def _root_leaf_requiring_grad(t):
    """The leaf that requires grad which a write to `t` would change in place, if any (t
    itself or the base of a chain of views)."""
    while True:
        if t.requires_grad and t.is_leaf:
            return t
        record = getattr(t, "_view", None)
        if record is None or record[_KIND].detached:
            return None
        t = record[_BASE]


def _retake_views(t, skip=None):
    """Takes every live view of `t` (but `skip`) again from t's new value, and theirs. The
    write was counted once, in the version the views share with t (Var.follow_write)."""
    for v in _live_views(t):
        if v is skip:
            continue
        record = v._view
        with _no_grad_if(record[_KIND].detached):
            v._impl.follow_write(_take(record, t)._impl)
        _retake_views(v)


def _write(t, value, since, skip=None, counted=True):
    """t takes `value` (of t's shape and dtype, computed by the calls recorded since the
    autograd sequence `since`), then its views and its base follow (`counted`: False for a
    write counted already, in the version t shares: Var.follow_write)."""
    _assign(t, value, since, counted)
    _follow(t, skip)


def _follow(t, skip=None):
    """After a write to t: its views (but `skip`) are taken again, and its base takes the
    view's new value, in place where the view is a box of it (_ViewKind.region). They share
    t's version, which counted the write already."""
    _retake_views(t, skip)
    record = getattr(t, "_view", None)
    if record is None:
        return
    base = record[_BASE]
    region = record[_KIND].region
    with _no_grad_if(record[_KIND].detached):
        if region is not None:
            _write_call(base, write_call(base, region(base, *record[_ARGS], **record[_KWARGS]), t), skip=t,
                        counted=False)
        else:
            _write(base, _put(record, base, t), _C.next_sequence(), skip=t, counted=False)


class _no_grad_if(no_grad):
    def __init__(self, condition):
        self._condition = condition

    def __enter__(self):
        if self._condition:
            super().__enter__()

    def __exit__(self, *exc):
        if self._condition:
            super().__exit__(*exc)


def _write_call(t, call, op=None, skip=None, counted=True):
    """t written in place by `call` (_ops_index.write_call's (op, inputs, attrs, target)):
    the op's output over t's memory (fn::write_in_place), so the write costs what it writes;
    t takes it, and its views and base follow (`counted`: as _write's)."""
    name, inputs, attrs, target = call
    _check_leaf(t, op or name)
    since = _C.next_sequence()  # the write's own call reads no value of t (only its shape)
    result = Tensor(_C.write_in_place(name, [i._impl for i in inputs], attrs, target)[0])
    if t.is_global and (result.sbp != t.sbp or result.placement != t.placement):
        result = result.to_global(placement=t.placement, sbp=t.sbp)  # a partial t was converted to write
    _assign(t, result, since, counted)
    _follow(t, skip)
    return t


def _assign(t, value, since, counted):
    if counted:
        t._impl.assign(value._impl, since)
    else:
        t._impl.follow_write(value._impl)


def _fresh(t):
    """Before a write through a view of a tensor whose memory NumPy shares: the view taken
    again from its base, as the program may have written the array since (a torch view reads
    the storage; a meshflow view may hold values of its own, and a write puts the view's
    whole value back into its base)."""
    record = getattr(t, "_view", None) if numpy_shared[0] else None
    if record is None:
        return
    base = record[_BASE]
    _fresh(base)
    if base.is_local and base._impl.local_tensor.shares_numpy:
        with no_grad():
            t._impl.set_data(_take(record, base)._impl)


def _check_writable(t):
    """Before a write to t: raises where t is (a view of) an expanded view that repeats an
    element of its base, as PyTorch's, before t or its base changed."""
    while (record := getattr(t, "_view", None)) is not None:
        if record[_KIND].put is _expanded_back and t.numel() > record[_BASE].numel():
            raise RuntimeError("unsupported operation: more than one element of the written-to tensor refers to a "
                               "single memory location (an expanded view); clone it before writing")
        t = record[_BASE]


def _check_leaf(t, op):
    _check_writable(t)
    if is_grad_enabled():
        leaf = _root_leaf_requiring_grad(t)
        if leaf is not None:
            what = "a leaf Variable" if leaf is t else "a view of a leaf Variable"
            raise RuntimeError(f"{op}: {what} that requires grad is being used in an in-place operation "
                               "(write under mf.no_grad(), or to a clone)")


def _category(dtype):
    """PyTorch's dtype categories, which an in-place result may not climb: bool < integer < float."""
    if dtype.name == "bool":
        return 0
    return 1 if dtype.name.startswith(("int", "uint")) else 2


def _inplace(t, compute, op):
    """The in-place op `op` on t, whose out-of-place result is `compute()`: t takes it (cast
    to t's dtype, broadcast to t's shape, as PyTorch's) and is returned. The calls computing
    it read t's old value and keep it, so backward through them needs no version check
    (Var.assign's `since`); every other call that read it does."""
    _fresh(t)
    since = _C.next_sequence()
    result = compute()
    if not isinstance(result, Tensor):
        from ._ops_creation import full_like
        result = full_like(t, result)
    if tuple(result.shape) != tuple(t.shape):
        from ._ops_shape import broadcast_to
        try:
            result = broadcast_to(result, t.shape)
        except (ValueError, RuntimeError):
            raise RuntimeError(f"{op}: output with shape {list(t.shape)} doesn't match the broadcast shape "
                               f"{list(result.shape)}") from None
    if result.dtype != t.dtype:
        if _category(result.dtype) > _category(t.dtype):
            raise RuntimeError(f"{op}: result type {result.dtype.name} can't be cast to the desired output type "
                               f"{t.dtype.name}")
        result = result.to(t.dtype)
    if t.is_global and (result.sbp != t.sbp or result.placement != t.placement):
        result = result.to_global(placement=t.placement, sbp=t.sbp)  # the tensor keeps its layout
    _check_leaf(t, op)
    _write(t, result, since)
    return t


# ---------------------------------------------------------------------------------------------
# In-place ops: each is its out-of-place method, written back.

def _inplace_of(name):
    def method(self, *args, **kwargs):
        return _inplace(self, lambda: getattr(Tensor, name)(self, *args, **kwargs), name + "_")
    method.__name__ = method.__qualname__ = name + "_"
    method.__doc__ = f"In place: self takes self.{name}(...) (cast to self's dtype)."
    return method


# Methods whose in-place form is the method written back; installed when the out-of-place
# method exists (at import, or by install_inplace_methods() after more are attached).
_INPLACE = ("sub", "mul", "div", "pow", "neg", "abs", "exp", "log", "sqrt", "rsqrt", "tanh", "sigmoid", "relu",
            "clamp", "clip", "clamp_min", "clamp_max", "floor", "ceil", "trunc", "round", "sign", "sgn", "remainder",
            "fmod", "floor_divide", "lerp", "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "erf",
            "erfinv", "log1p", "expm1", "log2", "log10", "exp2", "reciprocal", "square", "frac", "atan2", "hypot",
            "copysign", "logical_and",
            "logical_or", "logical_xor", "logical_not", "bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_not",
            "addcmul", "addcdiv", "silu", "softmax", "log_softmax", "cumsum", "float_power", "xlogy", "nan_to_num",
            "tril", "triu", "eq", "ne", "lt", "le", "gt", "ge", "scatter_reduce", "index_reduce", "masked_scatter",
            "put", "acosh", "asinh", "atanh", "arccos", "arcsin", "arctan", "arccosh", "arcsinh",
            "arctanh", "arctan2", "cumprod", "digamma", "lgamma", "polygamma", "mvlgamma", "erfc", "fix", "deg2rad",
            "rad2deg", "sinc", "logit", "renorm", "heaviside", "addmm", "addbmm", "baddbmm", "addmv", "addr",
            "hardshrink", "i0", "ldexp", "gcd", "lcm", "nextafter")


def install_inplace_methods():
    for name in _INPLACE:
        if hasattr(Tensor, name) and not hasattr(Tensor, name + "_"):
            setattr(Tensor, name + "_", _inplace_of(name))


def _add_(self, other, alpha=1):
    call = _axpy_call(self, other, alpha, "add")
    if call is not None:
        return _write_call(self, call, "add_")
    from ._ops_elementwise import add
    return _inplace(self, lambda: add(self, other, alpha=alpha), "add_")


def _sub_(self, other, alpha=1):
    call = _axpy_call(self, other, -alpha, "sub")
    if call is not None:
        return _write_call(self, call, "sub_")
    from ._ops_elementwise import sub
    return _inplace(self, lambda: sub(self, other, alpha=alpha), "sub_")


def _axpy_call(t, other, alpha, op):
    """t.add_(other, alpha) (t.sub_ passes -alpha and its op) as one call over t's memory
    (_write_call), for `other` a tensor of t's shape, floating dtype and layout: without
    alpha, the op itself (its gradient reads no value of t); with one (a number) and no
    gradient to record, as the example training loops' `p.data.add_(p.grad, alpha=-lr)`,
    sgd_update with lr = -alpha, whose p - lr * g is p + alpha * g exactly. Otherwise None:
    computed out of place and written back, a temporary for other * alpha and t's new memory."""
    if isinstance(alpha, bool) or not isinstance(alpha, (int, float)):
        return None
    if not (isinstance(other, Tensor) and t.dtype == other.dtype and t.dtype.is_floating_point
            and tuple(t.shape) == tuple(other.shape) and t.is_global == other.is_global):
        return None
    if t.is_global and (t.placement != other.placement or t.sbp != other.sbp):
        return None
    if not t.is_global and t.device != other.device:
        return None
    if alpha == (1 if op == "add" else -1):
        return op, [t, other], {}, 0
    if t.dtype.name not in ("float32", "float64") or (is_grad_enabled() and (t.requires_grad or other.requires_grad)):
        return None
    sgd = {"lr": -float(alpha), "momentum": 0.0, "dampening": 0.0, "weight_decay": 0.0, "nesterov": False,
           "has_buf": False}
    return "sgd_update", [t, other], sgd, 0


def _fill_(self, value):
    from ._ops_creation import full_like
    if isinstance(value, Tensor):
        if value.numel() != 1 or value.ndim != 0:
            raise RuntimeError(f"fill_ only supports 0-dimension value tensor but got tensor with "
                               f"{value.ndim} dimensions")
        return _inplace(self, lambda: value.to(self.dtype), "fill_")
    return _inplace(self, lambda: full_like(self, value), "fill_")


def _zero_(self):
    from ._ops_creation import zeros_like
    return _inplace(self, lambda: zeros_like(self), "zero_")


def _copy_(self, src, non_blocking=False):
    """self takes src's values (broadcast, cast, moved to self's device or layout)."""
    from ._tensor import _in_layout_of
    if not isinstance(src, Tensor):
        raise TypeError(f"copy_: expected a meshflow Tensor as src, got {type(src).__name__}")
    if src.is_global or self.is_global:
        src = _in_layout_of(src if src.ndim == self.ndim else src.expand_as(self), self)
    elif src.device != self.device:
        src = src.to(self.device)
    # A copy of its own, as torch's: taking src's storage (same dtype) would make self an alias
    # that an in-place write to src (an optimizer step) changes too.
    return _inplace(self, lambda: src.to(self.dtype) if src.dtype != self.dtype else src.clone(), "copy_")


def _uniform_(self, a=0.0, b=1.0, *, generator=None):
    from ._ops_creation import rand_like
    return _inplace(self, lambda: rand_like(self, generator=generator) * (b - a) + a, "uniform_")


def _normal_(self, mean=0.0, std=1.0, *, generator=None):
    from ._ops_creation import randn_like
    return _inplace(self, lambda: randn_like(self, generator=generator) * std + mean, "normal_")


def _setitem(self, index, value):
    """self[index] = value: every index __getitem__ takes (ints, slices, None, '...',
    integer and boolean tensors); value a number or a tensor broadcast to the part. Written
    in place (write_call): it costs what it writes."""
    _index_write(self, index, value, False, "__setitem__")


def _index_write(t, index, value, accumulate, op):
    from ._ops_index import index_put
    _fresh(t)
    if isinstance(value, Tensor) and value.dtype != t.dtype:
        value = value.to(t.dtype)
    call = write_call(t, index, value, accumulate)
    if call is None:  # a bool or bfloat16 tensor's advanced write, computed out of place
        return _inplace(t, lambda: index_put(t, index, value, accumulate), op)
    return _write_call(t, call, op)


def _masked_fill_(self, mask, value):
    """In place: value where mask holds (mask broadcasts to self's shape); the write is
    where() over self's memory."""
    from ._ops_elementwise import masked_fill_inputs
    try:
        shape = _np.broadcast_shapes(tuple(mask.shape), tuple(self.shape))
    except ValueError:
        shape = None
    if shape != tuple(self.shape):
        raise RuntimeError(f"masked_fill_: mask of shape {list(mask.shape)} does not broadcast to the written tensor's "
                           f"shape {list(self.shape)}")
    _fresh(self)
    inputs = masked_fill_inputs(self, mask, value)
    return _write_call(self, ("where", inputs, {}, 2), "masked_fill_")


# What an indexed write's call maker returns for a call that has no in-place form.
OUT_OF_PLACE = object()


def _indexed(name, call_of):
    """The in-place form of the indexed write `name` (scatter, index_add, ...): the
    index_put that `call_of(self, ...)` makes (_ops_index's write calls) runs over self's
    memory (fn::write_in_place), so it costs what it writes. A 0-d or bool or bfloat16
    tensor's is computed out of place and written back, as index_put_'s is, and so is a call
    for which `call_of` returns OUT_OF_PLACE."""
    def method(self, *args, **kwargs):
        _fresh(self)
        if self.ndim == 0 or _carrier(self) or (call := call_of(self, *args, **kwargs)) is OUT_OF_PLACE:
            return _inplace(self, lambda: getattr(Tensor, name)(self, *args, **kwargs), name + "_")
        return self if call is None else _write_call(self, call, name + "_")
    method.__name__ = method.__qualname__ = name + "_"
    method.__doc__ = f"In place: self takes self.{name}(...), written over self's memory (it costs what it writes)."
    return method


def _scatter_call(self, dim, index, src=None, value=None, *, reduce=None):
    if reduce not in (None, "add"):
        return OUT_OF_PLACE  # torch's reduce="multiply" (and its error for other names)
    if (src is None) == (value is None):
        raise TypeError("scatter_: give src (a tensor or a number) or value, not both")
    return scatter_call("scatter", self, dim, index, value if src is None else src, reduce == "add")


def _index_add_call(self, dim, index, source, *, alpha=1):
    return index_along_call("index_add", self, dim, index, source * alpha if alpha != 1 else source, True)


Tensor.scatter_ = _indexed("scatter", _scatter_call)
Tensor.scatter_add_ = _indexed("scatter_add", lambda self, dim, index, src: scatter_call(
    "scatter_add", self, dim, index, src, True))
Tensor.index_add_ = _indexed("index_add", _index_add_call)
Tensor.index_copy_ = _indexed("index_copy", lambda self, dim, index, source: index_along_call(
    "index_copy", self, dim, index, source, False))
Tensor.index_fill_ = _indexed("index_fill", lambda self, dim, index, value: index_along_call(
    "index_fill", self, dim, index, index_fill_source(self, dim, index, value), False))
Tensor.add_ = _add_
Tensor.sub_ = _sub_
Tensor.fill_ = _fill_
Tensor.zero_ = _zero_
Tensor.copy_ = _copy_
Tensor.uniform_ = _uniform_
Tensor.normal_ = _normal_
Tensor.__setitem__ = functools.update_wrapper(_C.setitem_method(_setitem), _setitem)  # its common calls in C
Tensor.masked_fill_ = _masked_fill_
for _name, _op in (("add", lambda a, b: a + b), ("sub", lambda a, b: a - b), ("mul", lambda a, b: a * b),
                   ("truediv", lambda a, b: a / b), ("floordiv", lambda a, b: a // b), ("mod", lambda a, b: a % b),
                   ("pow", lambda a, b: a ** b), ("and", lambda a, b: a & b), ("or", lambda a, b: a | b),
                   ("xor", lambda a, b: a ^ b), ("matmul", lambda a, b: a @ b)):
    def _augmented(self, other, _op=_op, _name=_name):
        return _inplace(self, lambda: _op(self, other), f"__i{_name}__")
    setattr(Tensor, f"__i{_name}__", _augmented)


# ---------------------------------------------------------------------------------------------
# Views: the Tensor methods PyTorch makes views with, recorded.

_RAW = {name: getattr(Tensor, name) for name in ("reshape", "permute", "transpose", "detach")}


def _gathered_back(raw):
    """The put of a view that gathers base's elements (raw: unfold, as_strided): base with
    the elements the view reads replaced by the view's, placed by taking the same view of
    base's positions."""
    def put(base, value, *args, **kwargs):
        from ._ops_creation import arange
        positions = arange(base.numel(), device=None if base.is_global else base.device).reshape(base.shape)
        read = raw(positions, *args, **kwargs).reshape(-1)
        return base.reshape(-1).index_put((read,), value.reshape(-1)).reshape(base.shape)
    return put


def _reshape_back(base, value, *args, **kwargs):
    return _RAW["reshape"](value, *base.shape)


def _viewing(raw, put=None, region=None, strides=None, offset=None):
    """Method `raw` recording its result as a view (see _ViewKind for put, region, strides,
    offset)."""
    kind = _ViewKind(raw, put, region=region, strides=strides, offset=offset)

    def method(self, *args, **kwargs):
        out = raw(self, *args, **kwargs)
        if out is not self:
            _link(self, out, kind, args, kwargs)
        return out
    method.__name__ = method.__qualname__ = raw.__name__
    method.__doc__ = raw.__doc__
    method.view_kind = kind
    return method


def _view_in_c(name, method):
    """`method` (made by _viewing, or view()'s check around it) in C (_C.view_method): its
    calls with exact ints on a local tensor reach C++ and link their view in one call."""
    return functools.update_wrapper(_C.view_method(name, method.view_kind, _NO_KWARGS, method), method)


def _index_region(base, index):
    return index


# ---------------------------------------------------------------------------------------------
# PyTorch's strides of a view. meshflow's tensors are dense; what torch's strides of the same
# view would be decides whether torch can view it in another shape (view() refuses,
# reshape() and flatten() copy where it cannot), is_contiguous() and stride().

def _dense_strides(shape):
    """Row-major strides of shape, a dim of 0 counting as 1 (core/strides.h)."""
    return _C.dense_strides(shape)


def _channels_last_strides(shape):
    """The strides of [N, C, *spatial] stored as [N, *spatial, C] (torch's channels_last)."""
    n, c, *spatial = shape
    dense = _dense_strides((n, *spatial, c))
    return (dense[0], dense[-1], *dense[1:-1])


def torch_strides(t):
    """PyTorch's strides of t in elements, where meshflow can tell them (chains of boxes,
    permutations, reshapes, diagonals and detach of a tensor that is not a view), else None."""
    record = getattr(t, "_view", None) if _weakref_count(t) else None  # a view is weakly referenced by its base
    if record is None:
        shape = t._impl.shape
        return _channels_last_strides(shape) if t._impl.channels_last else _dense_strides(shape)
    base, kind, args, kwargs = record
    if kind.strides is None:
        return None
    base_strides = torch_strides(base)
    return None if base_strides is None else kind.strides(base_strides, base, t, *args, **kwargs)


def _dense_view(t):
    """Whether t is not a view, or a reshape or detach() of a dense one: dense without
    computing strides (the common case, which is_contiguous, view() and reshape() meet)."""
    record = getattr(t, "_view", None) if _weakref_count(t) else None
    while record is not None:
        if record[_KIND].strides not in _KEEPS_DENSE:
            return False
        t = record[_BASE]
        record = getattr(t, "_view", None) if _weakref_count(t) else None
    return not t._impl.channels_last


def _viewed_strides(old_shape, old_strides, new_shape):
    """The strides of old's elements viewed in new_shape, or None where they cannot be
    (ATen's computeStride, in C++: core/strides.h)."""
    return _C.viewed_strides(old_shape, old_strides, new_shape)


def _box_strides(region):
    """The strides of base[index] for a kind whose region(base, ...) is that basic index."""
    return lambda base_strides, base, view, *args, **kwargs: _indexed_strides(
        base_strides, base, region(base, *args, **kwargs))


def _indexed_strides(base_strides, base, index):
    """base[index]'s strides: ints drop a dim, a slice's step multiplies its stride, None adds
    a dim (None where an item is not one of these)."""
    items = index if isinstance(index, tuple) else (index,)
    shape, strides = base._impl.shape, list(base_strides)
    used = builtins.sum(1 for item in items if item is not None and item is not Ellipsis)
    out, d = [], 0
    for item in items:
        if item is None:
            out.append(strides[d] * shape[d] if d < len(shape) else 1)
        elif item is Ellipsis:
            out += strides[d:d + len(shape) - used]
            d += len(shape) - used
        elif isinstance(item, slice):
            out.append(strides[d] * item.indices(shape[d])[2])
            d += 1
        elif isinstance(item, int) and not isinstance(item, bool):
            d += 1
        else:
            return None
    return tuple(out + strides[d:])


def _no_offset(base_strides, base, *args, **kwargs):
    return 0


def _box_offset(region):
    """The offset of base[index]'s first element for a kind whose region(base, ...) is that
    basic index: ints and slices' starts along their dims' strides."""
    def offset(base_strides, base, *args, **kwargs):
        index = region(base, *args, **kwargs)
        items = index if isinstance(index, tuple) else (index,)
        shape = base._impl.shape
        used = builtins.sum(1 for item in items if item is not None and item is not Ellipsis)
        total, d = 0, 0
        for item in items:
            if item is Ellipsis:
                d += len(shape) - used
            elif isinstance(item, slice):
                total += item.indices(shape[d])[0] * base_strides[d] if shape[d] else 0
                d += 1
            elif isinstance(item, int) and not isinstance(item, bool):
                total += (item % shape[d]) * base_strides[d]
                d += 1
            elif item is not None:
                return 0
        return total
    return offset


def _reshaped_strides(base_strides, base, view, *args, **kwargs):
    return _viewed_strides(base._impl.shape, base_strides, view._impl.shape)


def _permuted_strides(base_strides, base, view, *dims):
    dims = list(dims[0]) if len(dims) == 1 and isinstance(dims[0], (list, tuple)) else list(dims)
    return tuple(base_strides[d % len(base_strides)] for d in dims)


def _transposed_strides(base_strides, base, view, dim0, dim1):
    strides = list(base_strides)
    if not strides:  # a scalar's transpose is itself
        return ()
    dim0, dim1 = dim0 % len(strides), dim1 % len(strides)
    strides[dim0], strides[dim1] = strides[dim1], strides[dim0]
    return tuple(strides)


def _diagonal_strides(base_strides, base, view, offset=0, dim1=0, dim2=1):
    dim1, dim2 = dim1 % base.ndim, dim2 % base.ndim
    return tuple(st for d, st in enumerate(base_strides) if d not in (dim1, dim2)) + (
        base_strides[dim1] + base_strides[dim2],)


def _diagonal_offset(base_strides, base, offset=0, dim1=0, dim2=1):
    return offset * base_strides[dim2 % base.ndim] if offset >= 0 else -offset * base_strides[dim1 % base.ndim]


def _detached_strides(base_strides, base, view):
    return base_strides


_KEEPS_DENSE = (_reshaped_strides, _detached_strides)


def _contiguous_strides(shape, strides):
    """PyTorch's is_contiguous of these strides (in C++: core/strides.h)."""
    return _C.strides_contiguous(shape, strides)


def _permute_back(base, value, *dims):
    dims = list(dims[0]) if len(dims) == 1 and isinstance(dims[0], (list, tuple)) else list(dims)
    inverse = [0] * len(dims)
    for i, d in enumerate(dims):
        inverse[d % len(dims)] = i
    return _RAW["permute"](value, *inverse)


def _transpose_back(base, value, dim0, dim1):
    return _RAW["transpose"](value, dim0, dim1)


def _diagonal_back(base, value, offset=0, dim1=0, dim2=1):
    """base with its (dim1, dim2) diagonal replaced by value (diagonal()'s layout)."""
    from ._api import diagonal_layout
    order, (first, stop, step) = diagonal_layout(tuple(base.shape), offset, dim1, dim2)
    moved = _RAW["permute"](base, *order)
    flat = _RAW["reshape"](moved, *moved.shape[:-2], moved.shape[-2] * moved.shape[-1]).clone()
    flat[..., first:stop:step] = value
    inverse = [0] * len(order)
    for i, d in enumerate(order):
        inverse[d] = i
    return _RAW["permute"](_RAW["reshape"](flat, *moved.shape), *inverse)


def _expanded_back(base, value, *args, **kwargs):
    """An expand's view written back: only one that repeats no element of its base is written
    (_check_writable raised before a write to the others), as reshaping it."""
    return _reshape_back(base, value)


def _getitem_viewing(raw):
    """x[index] recording a basic index's result as a view: a key of exact basic items in C
    (_C.getitem_method: C++'s basic_index and the link in one call), any other through raw."""
    kind = _ViewKind(raw, region=_index_region, strides=_box_strides(_index_region))

    def getitem(self, index):
        out = raw(self, index)
        if out is not self and _basic_items(index):
            _link(self, out, kind, (index,), _NO_KWARGS)
        return out
    getitem.__doc__ = raw.__doc__
    getitem.view_kind = kind
    return functools.update_wrapper(_C.getitem_method(kind, _NO_KWARGS, getitem), getitem)


def _pieces_viewing(raw, getitem):
    """split/chunk/unbind: each piece a view of its slice (or index) along the dim, taken
    again by `getitem` (the raw x[index])."""
    kind = _ViewKind(getitem, region=_index_region, strides=_box_strides(_index_region))

    def method(self, *args, **kwargs):
        pieces = raw(self, *args, **kwargs)
        dim = kwargs.get("dim", args[1] if len(args) > 1 else 0) if raw.__name__ != "unbind" else \
            kwargs.get("dim", args[0] if args else 0)
        dim %= max(self.ndim, 1)
        start = 0
        for i, piece in enumerate(pieces):
            if raw.__name__ == "unbind":
                item = i
            else:
                item = slice(start, start + piece.shape[dim])
                start += piece.shape[dim]
            _link(self, piece, kind, ((slice(None),) * dim + (item,),), _NO_KWARGS)
        return pieces
    method.__name__ = method.__qualname__ = raw.__name__
    method.__doc__ = raw.__doc__
    method.view_kind = kind
    return method


def _narrow_region(base, dim, start, length):
    dim %= base.ndim
    start %= builtins.max(base.shape[dim], 1)  # a negative start counts from the end, as narrow's
    return (slice(None),) * dim + (slice(start, start + length),)


def _detach_viewing(raw):
    kind = _ViewKind(raw, lambda base, value: raw(value), detached=True, strides=_detached_strides)

    def detach(self):
        out = raw(self)
        _link(self, out, kind, (), _NO_KWARGS)
        return out
    detach.__doc__ = raw.__doc__
    return detach


def _expanded_strides(base_strides, base, view, *args):
    """torch's strides of an expand (core/strides.h)."""
    return _C.expanded_strides(base._impl.shape, base_strides, view._impl.shape)


def _put_part(kind, base, value, args, kwargs):
    """base with the part kind's view (made with args, kwargs) replaced by value, out of place."""
    if kind.region is None:
        return kind.put(base, value, *args, **kwargs)
    out = base.clone()
    out[kind.region(base, *args, **kwargs)] = value
    return out


def reshape_view_in_place(t, name, args, kwargs):
    """t, a view, takes t.name(*args, **kwargs)'s shape in place (torch's transpose_, t_,
    unsqueeze_, squeeze_ of a view change the view's geometry alone): t stays a view of its
    base, now taken through its own view method and then `name`'s."""
    base, inner, inner_args, inner_kwargs = t._view
    new = getattr(Tensor, name)(t, *args, **kwargs)  # a view of t (every shape change records one) or t
    if new is t:
        return t
    _, outer, outer_args, outer_kwargs = new._view

    def middle(b):
        return inner.raw(b, *inner_args, **inner_kwargs)

    def raw(b):
        return outer.raw(middle(b), *outer_args, **outer_kwargs)

    def put(b, value):
        return _put_part(inner, b, _put_part(outer, middle(b), value, outer_args, outer_kwargs), inner_args,
                         inner_kwargs)

    def strides(base_strides, b, view):
        if inner.strides is None or outer.strides is None:
            return None
        kept = middle(b)
        inner_strides = inner.strides(base_strides, b, kept, *inner_args, **inner_kwargs)
        return None if inner_strides is None else outer.strides(inner_strides, kept, view, *outer_args, **outer_kwargs)

    def offset(base_strides, b):
        kept = middle(b)
        inner_strides = None if inner.strides is None else inner.strides(base_strides, b, kept, *inner_args,
                                                                         **inner_kwargs)
        return inner.offset(base_strides, b, *inner_args, **inner_kwargs) + outer.offset(
            inner_strides or _dense_strides(kept._impl.shape), kept, *outer_args, **outer_kwargs)

    t._impl.assign(new._impl)
    t._view = (base, _ViewKind(raw, put, detached=inner.detached, strides=strides, offset=offset), (), _NO_KWARGS)
    return t


_weakref_count = weakref.getweakrefcount


def is_contiguous(self, memory_format=None):
    """PyTorch's answer for the view's strides (torch_strides): False for a permuted,
    transposed or expanded view that moved elements, or a box that skips elements (x[:, 1:]),
    or a channels-last tensor; True for every other tensor that is not a view (meshflow's ops
    make dense results). With memory_format=channels_last (channels_last_3d): whether the
    strides are those of that layout (where a dim of one element makes both agree, both)."""
    name = getattr(memory_format, "_name", "contiguous_format")
    if name in ("channels_last", "channels_last_3d"):
        shape, strides = self._impl.shape, torch_strides(self)
        if len(shape) != (4 if name == "channels_last" else 5) or strides is None:
            return False
        return _contiguous_strides(_channels_last_order(shape), _channels_last_order(strides))
    return _dense_view(self) or _strides_contiguous(self, torch_strides(self))


def _channels_last_order(dims):
    """[N, C, *spatial] as [N, *spatial, C]."""
    return (dims[0], *dims[2:], dims[1])


def _strides_contiguous(t, strides):
    return strides is None or _contiguous_strides(t._impl.shape, strides)


def _sizes(self, shape):
    """view()'s size arguments as a shape, -1 inferred."""
    sizes = list(shape[0]) if len(shape) == 1 and isinstance(shape[0], (list, tuple)) else list(shape)
    if -1 in sizes:
        known = 1
        for n in sizes:
            known *= n if n != -1 else 1
        sizes[sizes.index(-1)] = self.numel() // known if known else 0
    return sizes


def _viewable(self, strides, sizes):
    """Whether PyTorch can view self, of these strides, in `sizes` (None: strides unknown)."""
    return None if strides is None else _viewed_strides(self._impl.shape, strides, sizes) is not None


def _contiguous(self, memory_format=None):
    """Itself when contiguous in memory_format (row-major by default), else a copy so
    (PyTorch's .contiguous())."""
    if getattr(memory_format, "_name", None) in ("channels_last", "channels_last_3d"):
        return _in_memory_format(self, memory_format)
    if not _dense_view(self) and self._impl.channels_last:
        return _to_format(self, False)
    return self if is_contiguous(self) else self.clone()


def _bits_as(self, dtype):
    """self's bytes read as `dtype` (C++ view_dtype); no gradient flows through it, as torch's.
    Where the element sizes differ, torch reads the last dim's elements side by side in its
    storage: a tensor whose last dim is strided there (x.t()) is refused, as torch's."""
    strides = torch_strides(self)
    if dtype.itemsize != self.dtype.itemsize and self.ndim and strides is not None and strides[-1] != 1:
        raise RuntimeError(f"self.stride(-1) must be 1 to view {self.dtype} as {dtype} (different element sizes), "
                           f"but got {strides[-1]}")
    with no_grad():
        return apply("view_dtype", [self], {"dtype": getattr(_C.DType, dtype.name)})[0]


def _bits_as_back(base, value, dtype):
    return _bits_as(value, base.dtype)


# torch's view(dtype): a view of the same bytes, so writes through it reach the base.
_view_dtype = _viewing(_bits_as, _bits_as_back)


def _checked_view(raw):
    def view(self, *shape):
        if len(shape) == 1 and isinstance(shape[0], _dtype.dtype):  # view(dtype): the bytes reinterpreted
            return _view_dtype(self, shape[0])
        if not _dense_view(self) and _viewable(self, torch_strides(self), _sizes(self, shape)) is False:
            raise RuntimeError("view size is not compatible with input tensor's size and stride (at least one "
                               "dimension spans across two contiguous subspaces). Use .reshape(...) instead.")
        return raw(self, *shape)
    view.__doc__ = raw.__doc__
    view.view_kind = raw.view_kind
    return view


def _reshaping(raw, in_c=None):
    """reshape / flatten: a view where PyTorch's would be one, else (strides that the new shape
    cannot have) a tensor of its own, as torch's copy: writes to it do not reach self. `in_c`:
    the view method in C that stands for raw (its result not linked: this links it)."""
    method = _viewing(raw, strides=_reshaped_strides)
    unlinked = raw if in_c is None else _C.view_method(in_c, None, _NO_KWARGS, raw)

    def reshaping(self, *args, **kwargs):
        if _dense_view(self):
            return method(self, *args, **kwargs)
        strides = torch_strides(self)
        if _strides_contiguous(self, strides):
            return method(self, *args, **kwargs)
        out = unlinked(self, *args, **kwargs)
        if out is self:
            return out
        if _viewable(self, strides, out._impl.shape) is not False:
            _link(self, out, method.view_kind, args, kwargs)
            return out
        return _C.grad_fn_as(out, "UnsafeViewBackward0", self)  # torch's node: the view of its copy
    reshaping.__name__ = reshaping.__qualname__ = raw.__name__
    reshaping.__doc__ = raw.__doc__
    reshaping.view_kind = method.view_kind
    return reshaping


for _name in ("view", "squeeze", "unsqueeze", "view_as"):
    if hasattr(Tensor, _name):
        setattr(Tensor, _name, _viewing(getattr(Tensor, _name), strides=_reshaped_strides))
Tensor.reshape = _reshaping(Tensor.reshape, "reshape")
Tensor.flatten = _reshaping(Tensor.flatten)
Tensor.view = _checked_view(Tensor.view)
Tensor.is_contiguous = is_contiguous


def _base(self):
    """torch's Tensor._base: the tensor this view was made from, through views of views (None
    for a tensor that is no view; a detach() starts anew, as torch's)."""
    record = getattr(self, "_view", None)
    if record is None or record[_KIND].detached:
        return None
    base = record[_BASE]
    while (record := getattr(base, "_view", None)) is not None and not record[_KIND].detached:
        base = record[_BASE]
    return base


# ---------------------------------------------------------------------------------------------
# Storage identity as PyTorch's: data_ptr(), storage_offset(), untyped_storage(). meshflow's
# tensors are dense values that in-place writes replace, so no memory address is stable; a
# tensor that is no view is given an address range of its own when first asked (never
# reused, so two live tensors never share one), and a view sits in its base's range where
# torch's view sits in its base's storage. The addresses are for comparing, not for reading.

_next_address = [1 << 40]


def _root_address(t):
    address = getattr(t, "_address", None)
    if address is None:
        address = t._address = _next_address[0]
        _next_address[0] += builtins.max(1 << 32, (t.numel() * t.element_size() + 4095) // 4096 * 4096)
    return address


def _storage_place(t):
    """(the tensor that is no view whose storage t reads, t's first element's byte offset in it)."""
    chain = []
    while (record := getattr(t, "_view", None) if _weakref_count(t) else None) is not None:
        chain.append(record)
        t = record[_BASE]
    offset = 0
    for base, kind, args, kwargs in reversed(chain):
        strides = torch_strides(base) or _dense_strides(base._impl.shape)
        offset += kind.offset(strides, base, *args, **kwargs) * base.element_size()
    return t, offset


def data_ptr(self):
    """The address of self's first element, as an integer: equal for tensors that share
    storage as torch's do (views, tied parameters, .data, detach()), apart by
    storage_offset() * element_size() within one; no pointer to read through."""
    root, offset = _storage_place(self)
    return _root_address(root) + offset


def storage_offset(self):
    """Where self's first element sits in its storage, in elements (torch's: a view's offset
    into its base's, 0 for a tensor that is no view)."""
    return _storage_place(self)[1] // self.element_size()


class UntypedStorage:
    """torch's Tensor.untyped_storage() as far as identity goes: data_ptr(), nbytes(), size(),
    len(), device; storages of tensors that share one compare equal by data_ptr()."""
    __slots__ = ("_root",)

    def __init__(self, root):
        self._root = root

    def data_ptr(self):
        return _root_address(self._root)

    def nbytes(self):
        return self._root.numel() * self._root.element_size()

    size = nbytes
    __len__ = nbytes

    @property
    def device(self):
        return self._root.device


Tensor.data_ptr = data_ptr
Tensor.storage_offset = storage_offset
Tensor.untyped_storage = lambda self: UntypedStorage(_storage_place(self)[0])
Tensor._base = property(_base)
Tensor._is_view = lambda self: _base(self) is not None
Tensor.permute = _viewing(Tensor.permute, _permute_back, strides=_permuted_strides)
Tensor.transpose = _viewing(Tensor.transpose, _transpose_back, strides=_transposed_strides)
for _name in ("reshape", "view", "transpose", "unsqueeze", "permute", "squeeze"):
    setattr(Tensor, _name, _view_in_c(_name, getattr(Tensor, _name)))
# x.t() in C too: a matrix's is linked as its transpose(0, 1) (its fallback's, through transpose).
Tensor.t = functools.update_wrapper(_C.view_method("t", Tensor.transpose.view_kind, _NO_KWARGS, Tensor.t), Tensor.t)
Tensor.expand = _viewing(Tensor.expand, _expanded_back, strides=_expanded_strides)
Tensor.expand_as = _viewing(Tensor.expand_as, _expanded_back, strides=_expanded_strides)
Tensor.narrow = _viewing(Tensor.narrow, region=_narrow_region, strides=_box_strides(_narrow_region))
Tensor.diagonal = _viewing(Tensor.diagonal, _diagonal_back, strides=_diagonal_strides, offset=_diagonal_offset)
Tensor.T = property(_viewing(Tensor.T.fget, lambda base, value: _RAW["permute"](value, *reversed(range(value.ndim))),
                             strides=lambda base_strides, base, view: tuple(reversed(base_strides))))
_raw_getitem = Tensor.__getitem__
Tensor.__getitem__ = _getitem_viewing(_raw_getitem)
# torch's strides of x[key] and transpose views of a tensor that is no view in C++ too
# (op_calls.cc, known_strides): contiguous() and reshape() of them decide there.
_C.set_strided_view_kinds(Tensor.__getitem__.view_kind, Tensor.transpose.view_kind)
Tensor.contiguous = functools.update_wrapper(_C.contiguous_method(_contiguous), _contiguous)
for _name in ("split", "chunk", "unbind"):
    setattr(Tensor, _name, _pieces_viewing(getattr(Tensor, _name), _raw_getitem))
# x.chunk(n, dim) in C (GRU and LSTM cells' gates): the split op and its pieces' links in one call.
Tensor.chunk = functools.update_wrapper(_C.chunk_method(Tensor.chunk.view_kind, _NO_KWARGS, Tensor.chunk),
                                        Tensor.chunk)
Tensor.detach = _detach_viewing(Tensor.detach)


def _as_part_of(base, value):
    """The global tensor in `base`'s layout whose part on this rank is `value`, the other
    ranks' parts as they are: a write through to_local() writes this rank's part of the
    global tensor, as one through torch's DTensor.to_local() writes its local tensor."""
    return Tensor(_C.make_global(value._impl, base._impl.placement, list(base._impl.nd_sbp), False))


# A global tensor's to_local() is a view of it (a local tensor's is itself).
Tensor.to_local = _viewing(Tensor.to_local, _as_part_of)


def link_to_local(base, part):
    """Records `part`, this rank's part of global `base` made another way (DTensor.to_local),
    as its to_local() view."""
    _link(base, part, Tensor.to_local.view_kind, (), _NO_KWARGS)
Tensor.data = property(lambda self: self.detach(), Tensor.data.fset, doc=Tensor.data.__doc__)
install_inplace_methods()
# The commonest in-place ops in C: their calls on a tensor that is no view and has no live
# views go straight to C++ (op_calls.cc, inplace_fast); every other call to the methods above.
for _name, _scalar in (("add", "add_scalar"), ("sub", None), ("mul", "mul_scalar")):
    setattr(Tensor, _name + "_", _in_c("inplace", _name, _scalar, getattr(Tensor, _name + "_")))
del _name


def view_functions(namespace):
    """torch's functional spellings of the view methods (torch.transpose(x, 0, 1),
    torch.diagonal(x), torch.split(x, 2), ...) make views as the methods do: each calls the
    method with its arguments in order."""
    import inspect
    for name in ("reshape", "flatten", "squeeze", "unsqueeze", "transpose", "permute", "narrow", "diagonal", "split",
                 "chunk", "as_strided", "broadcast_to"):
        function = namespace[name]
        signature = inspect.signature(function)

        def call(input, *args, _function=function, _name=name, _signature=signature, **kwargs):
            if not isinstance(input, Tensor):
                return _function(input, *args, **kwargs)
            bound = _signature.bind(input, *args, **kwargs)
            bound.apply_defaults()
            return getattr(input, _name)(*list(bound.arguments.values())[1:])
        namespace[name] = functools.wraps(function)(call)
