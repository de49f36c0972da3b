"""meshflow.Tensor: a local tensor, or a global one (placement + SBP over a mesh of ranks)."""
import functools as _functools
import operator as _operator
import weakref as _weakref

import numpy as _np

from . import _C, _device
from . import _dtype
from . import _grad_fn
from ._promotion import get_default_dtype
from . import _placement as _placement_module
from ._placement import placement as _placement
from .sbp import as_nd_sbp as _as_nd_sbp


def _type_name(value):
    """The full name of value's type, as a user would import it: numpy.ndarray, torch.Tensor,
    list (builtins unprefixed)."""
    kind = type(value)
    if kind is _C.TensorMethod:  # mf.relu, mf.zeros, ...: functions in C standing for Python ones
        return "function"
    return kind.__qualname__ if kind.__module__ == "builtins" else f"{kind.__module__}.{kind.__qualname__}"


def _impl_of(op, value):
    """value's _C.Var. Every Python op reaches C++ through here or `apply`, so that a NumPy
    array or a torch tensor passed by mistake is named, not an AttributeError on '_impl'."""
    if isinstance(value, Tensor):
        return value._impl
    raise TypeError(f"[{op}] expected a meshflow Tensor, got {_type_name(value)}")


def apply(name, inputs, attrs=None, placement=None, sbp=None):
    """Runs op `name` (C++ registry) on tensors; returns the list of outputs."""
    nd_sbp = _as_nd_sbp(sbp, placement) if sbp is not None and placement is not None else sbp
    if nd_sbp is not None and not isinstance(nd_sbp, (list, tuple)):
        nd_sbp = [nd_sbp]
    outs = _C.apply(name, [_impl_of(name, t) for t in inputs], attrs or {}, placement, nd_sbp)
    return [Tensor(o) for o in outs]


class no_grad:
    """Context manager (and decorator) in which calls are not recorded for autograd."""

    def __enter__(self):
        self._previous = _C.grad_enabled()
        _C.set_grad_enabled(False)

    def __exit__(self, *exc):
        _C.set_grad_enabled(self._previous)

    def __call__(self, function):
        return _in_context(no_grad, function)


def _in_context(context, function):
    """`function` running inside a fresh context() at each call (a grad mode's decorator,
    torch's _DecoratorContextManager): a generator function's body runs inside it at each
    resumption and outside it while suspended at a yield, as torch's."""
    import functools
    import inspect
    if inspect.isgeneratorfunction(function):
        @functools.wraps(function)
        def generator(*args, **kwargs):
            gen = function(*args, **kwargs)
            try:
                with context():
                    response = gen.send(None)
                while True:
                    try:
                        request = yield response
                    except GeneratorExit:
                        with context():
                            gen.close()
                        raise
                    except BaseException as error:
                        with context():
                            response = gen.throw(error)
                    else:
                        with context():
                            response = gen.send(request)
            except StopIteration as stop:
                return stop.value
        return generator

    @functools.wraps(function)
    def wrapper(*args, **kwargs):
        with context():
            return function(*args, **kwargs)
    return wrapper


def is_grad_enabled():
    return _C.grad_enabled()


class Size(tuple):
    """A shape, as torch.Size: a tuple of ints (equal to the plain tuple) with numel(); its
    slices, and its sums and products with tuples, are Sizes too."""

    __slots__ = ()

    def __new__(cls, sizes=()):
        items = list(sizes)
        for i, d in enumerate(items):
            try:
                items[i] = _operator.index(d)
            except TypeError:
                raise TypeError(f"Size() takes an iterable of 'int' (item {i} is '{type(d).__name__}')") from None
        return tuple.__new__(cls, items)

    def __repr__(self):
        return f"meshflow.Size({list(self)!r})"

    def __getitem__(self, key):
        item = tuple.__getitem__(self, key)
        return tuple.__new__(Size, item) if isinstance(key, slice) else item

    def __add__(self, other):
        return tuple.__new__(Size, tuple.__add__(self, other)) if isinstance(other, tuple) else NotImplemented

    def __radd__(self, other):
        return tuple.__new__(Size, tuple.__add__(other, self)) if isinstance(other, tuple) else NotImplemented

    def __mul__(self, times):
        return tuple.__new__(Size, tuple.__mul__(self, times))

    __rmul__ = __mul__

    def numel(self):
        n = 1
        for d in self:
            n *= d
        return n


def _check_placement(p):
    if not isinstance(p, _C.Placement):
        raise TypeError(f"placement must be a meshflow.placement, got {type(p).__name__}")
    return p


# Calls queued for the end of the next backward pass (DistributedDataParallel's gradient
# average, as torch's engine callbacks): each runs once, in queue order, on the issuing thread.
_after_backward = []


def _run_after_backward():
    while _after_backward:
        _after_backward.pop(0)()


def _zero_grads(params, set_to_none):
    """torch's zero_grad for each tensor of `params`: drops its gradient, or (set_to_none=False)
    zeroes that gradient in place, detached from any graph, so that whoever holds it (a hook,
    a training loop's reference) sees the zeros and the next backward accumulates into it."""
    for p in params:
        if p.grad is None:
            continue
        if set_to_none:
            p.grad = None
            continue
        if p.grad.grad_fn is not None:
            p.grad.detach_()
        else:
            p.grad.requires_grad_(False)
        p.grad.zero_()


class Tensor:
    """A local tensor (one process's array) or a global tensor.

    Global tensors follow CONCEPTS.md: `shape` is the logical shape, `to_local()` this rank's
    part, `numpy()` the logical value on every rank. Conversions are collective: every rank
    calls them with the same placement and sbp.
    """

    # _view / _views: set on views and their bases only (_inplace.py); unset slots read as absent.
    # _grad: a weak reference to the last .grad handed out, so that `p.grad is p.grad` as torch.
    # _address: data_ptr()'s address of a tensor that is no view, once asked (_inplace.py).
    __slots__ = ("_impl", "_view", "_views", "_grad", "_address", "__weakref__")

    # NumPy defers to Tensor's operators (x + array, array + x) instead of broadcasting the
    # tensor as an object inside an object array; np.add(x, array) raises TypeError.
    __array_ufunc__ = None

    def __init__(self, impl=None, *sizes):
        self._impl = impl  # a _C.Var: the value and its autograd state
        if impl.__class__ is not _Var or sizes:  # every op's result: the one check on the hot path
            self._impl = _legacy_tensor(impl, sizes, get_default_dtype())._impl

    @property
    def is_global(self):
        return self._impl.is_global

    @property
    def is_local(self):
        return not self.is_global

    def size(self, dim=None):
        """The shape (a Size), or the size of dim `dim` (an int)."""
        shape = self._impl.shape
        if dim is None:
            return tuple.__new__(Size, shape)
        try:
            return shape[_operator.index(dim)]
        except IndexError:
            raise IndexError(f"size: dim {dim} is out of range for a tensor of {len(shape)} dims; expected a dim "
                             f"in [{-len(shape)}, {len(shape)})") from None

    @property
    def ndim(self):
        return len(self.shape)

    def dim(self):
        return self.ndim

    def numel(self):
        n = 1
        for d in self.shape:
            n *= d
        return n

    @property
    def dtype(self):
        return _dtype.to_dtype(self._impl.dtype)

    @property
    def device(self):
        """The device a local tensor lives on: with its index, as PyTorch's, except the CPU's
        (one device). A global tensor's is this rank's device of its placement, where its part
        lives (DTensor's meaning): so `arange(T, device=x.device)` in a forward makes a local
        tensor there, which joins x's computations as broadcast (implicit replication)."""
        impl = self._impl if not self.is_global else _C.to_local(self._impl.detach())
        kind = impl.device_type
        return _device.device(kind) if kind in ("cpu", "meta") else _device.device(kind, impl.device_index)

    def to(self, *args, **kwargs):
        """to(device), to(dtype), to(device, dtype) or to(other) (other's device and dtype), as
        PyTorch: itself when nothing changes, unless copy=True. non_blocking is taken for
        torch's signature (copies are ordered on the streams); memory_format as torch's (see
        _in_memory_format)."""
        if len(args) == 1 and not kwargs and type(args[0]) is _dtype.dtype:  # to(dtype), the commonest call
            name = _dtype.to_dtype(args[0]).name
            if name == self._impl.dtype:
                return self
            return Tensor(_C.apply("cast", [self._impl], {"dtype": getattr(_C.DType, name)}, None, None)[0])
        target, dtype = None, kwargs.pop("dtype", None)
        if "device" in kwargs:
            target = kwargs.pop("device")
        kwargs.pop("non_blocking", None)
        memory_format = kwargs.pop("memory_format", None)
        copy = bool(kwargs.pop("copy", False))
        if kwargs:
            raise TypeError(f"to: unexpected keyword argument(s) {', '.join(kwargs)}")
        if args and isinstance(args[0], Tensor):  # to(other, non_blocking=False, copy=False)
            other, args = args[0], args[1:]
            target, dtype = (None if other.is_global else other.device), other.dtype
        flags = []  # torch's positional non_blocking, copy after the device / dtype
        while args and isinstance(args[-1], bool):
            flags.insert(0, args[-1])
            args = args[:-1]
        copy = copy or (len(flags) > 1 and flags[1])
        for arg in args:
            if isinstance(arg, _device.device) or (isinstance(arg, str) and not _names_dtype(arg)):
                if target is not None:
                    raise TypeError(f"to: two devices, {target!r} and {arg!r}")
                target = arg  # a name that is no dtype: the device's error names the registered types
            elif dtype is None:
                dtype = arg  # a meshflow dtype, or anything to_dtype takes (NumPy's too)
            else:
                raise TypeError(f"to: unexpected argument {arg!r}; expected a device and/or a dtype")
        out = self
        if target is not None:
            target = _device.device(target)
            here = self.device
            if self.is_global:
                if target.type == here.type and target.index in (None, here.index):
                    target = None  # where it is already (a DDP loop's batch.to(device)): itself
                else:
                    raise RuntimeError("to: a global tensor moves between devices by to_global with a placement "
                                       "of the target device type")
        if target is not None:
            # An index-less name means the device of that type the tensor is on already, else
            # index 0 (PyTorch would take its current device, which meshflow does not keep).
            index = target.index if target.index is not None else (here.index or 0) if target.type == here.type else 0
            if target.type != here.type or (here.index is not None and index != here.index):
                out = Tensor(_C.to_device(self._impl, target.type, index))
        if dtype is not None and _dtype.to_dtype(dtype) != self.dtype:
            from ._ops_elementwise import cast
            out = cast(out, dtype)
        if memory_format is not None:
            out = _in_memory_format(out, memory_format)
        if copy and out is self:
            from ._api import clone
            out = clone(self)
        return out

    def cpu(self, memory_format=None):
        """This tensor on the CPU: itself, for a tensor there already."""
        return self.to("cpu")

    def cuda(self, device=None, non_blocking=False, memory_format=None):
        """This tensor on a GPU (`device`: an index or "cuda:N"; default the current one)."""
        if device is None:
            return self.to("cuda")
        return self.to(f"cuda:{device}" if isinstance(device, int) else device)

    @property
    def placement(self):
        self._require_global("placement")
        return _placement._wrap(self._impl.placement)

    @property
    def sbp(self):
        self._require_global("sbp")
        return tuple(self._impl.nd_sbp)

    def to_global(self, placement=None, sbp=None):
        """Local -> global (this rank's tensor is its part) or global -> global (boxing)."""
        if self.is_local:
            if placement is None or sbp is None:
                raise ValueError("to_global of a local tensor needs both placement and sbp")
            if self._impl.device_type == "meta":
                raise RuntimeError("to_global: a meta tensor has no values to share out; give it storage first "
                                   "(Module.to_empty(device=...) or empty_like(x, device=...)) and initialize it")
            placement = _check_placement(placement)
            nd_sbp = _as_nd_sbp(sbp, placement)
            return Tensor(_C.make_global(self._impl, placement, nd_sbp, _C.consistency_check_enabled()))
        placement = _check_placement(placement) if placement is not None else self._impl.placement
        nd_sbp = _as_nd_sbp(sbp, placement) if sbp is not None else list(self._impl.nd_sbp)
        return Tensor(_C.to_global(self._impl, placement, nd_sbp))

    def to_local(self):
        """This rank's part of a global tensor, without communication (a local tensor: itself);
        a view, as torch's DTensor.to_local: a write through it writes that part. Its gradient
        on each rank is a part of the gradient, summed over the ranks that hold the same
        values; on a mesh the program made DTensors on, the tensor is a DTensor and its
        to_local is torch's (DTensor.to_local: each rank's gradient is the replica's)."""
        if self.is_local:
            return self
        if _placement_module.dtensor_meshes and _placement_module.key(self.placement) in _placement_module.dtensor_meshes:
            from .distributed.tensor import DTensor
            return DTensor.to_local(self)
        return self._part()

    def _part(self):
        """meshflow's to_local, whatever the mesh: the ranks' local gradients add up (meshflow's
        own conversions, SyncBatchNorm's statistics and the collectives among them)."""
        return Tensor(_C.to_local(self._impl))

    # torch's DTensor names: a global tensor is a DTensor (meshflow.distributed.tensor).
    @property
    def placements(self):
        """torch's DTensor placements: this global tensor's SBP as Shard / Replicate / Partial."""
        self._require_global("placements")
        from .distributed.tensor import _placements_of
        return _placements_of(self)

    @property
    def device_mesh(self):
        """torch's DTensor device_mesh: the DeviceMesh of this global tensor's placement."""
        self._require_global("device_mesh")
        from .distributed.tensor import _mesh_of
        return _mesh_of(self)

    def redistribute(self, device_mesh=None, placements=None, *, async_op=False):
        """torch's DTensor.redistribute: boxing to `placements` on the mesh."""
        self._require_global("redistribute")
        from .distributed.tensor import _redistribute
        return _redistribute(self, device_mesh, placements)

    def full_tensor(self, *, grad_placements=None):
        """torch's DTensor.full_tensor: the whole value as a local tensor on every rank."""
        self._require_global("full_tensor")
        from .distributed.tensor import _full_tensor
        return _full_tensor(self, grad_placements)

    def numpy(self, *, force=False):
        """The value as a NumPy array, once the ops making it have run. A local tensor in host
        memory: an array over the tensor's memory, as torch's (writes through either show in
        the other; bfloat16, which NumPy lacks, is a float32 copy). Another device's (torch
        asks for .cpu() there) and a global tensor's: a copy; of a global one the logical
        value, on every rank (a collective read: every rank calls it). `force` (torch's:
        detach and move to the host first) changes nothing."""
        if self.is_local:
            numpy_shared[0] = True
            return self._impl.local_tensor.numpy(share=True)
        return self._value("numpy()")

    def _numpy(self):
        """A NumPy copy of the value (meshflow's own reads: an array that shared the memory
        would make every later op on the tensor wait for its end, vm.h)."""
        return self._value("numpy()")

    def _value(self, call):
        """numpy() for `call`, the read the user made. A global tensor that this rank holds
        whole (broadcast over every rank, or a small partial value's twin: a loss, a metric)
        is read here alone, so that `if rank == 0:` may read it; another is gathered by a
        collective that every rank must make, which the error names when the ranks' calls
        differ, instead of the conversion inside."""
        if self.is_local:
            return self._impl.local_tensor.numpy()
        return _C.gather_full(self._impl, call).numpy()

    def __array__(self, dtype=None, copy=None):
        """np.asarray(x), np.array(x): the value, as numpy() gives it."""
        value = self._value("np.asarray()")
        return value if dtype is None else value.astype(dtype, copy=False)

    def __bool__(self):
        if self.numel() != 1:  # torch's RuntimeError, still the ValueError meshflow raised
            raise _C.OpError(f"Boolean value of Tensor with more than one value is ambiguous: a tensor of shape "
                             f"{tuple(self.shape)}; expected exactly one element")
        return bool(self._value("bool()").reshape(()))

    def __format__(self, format_spec):
        """A 0-d tensor formats as its value (f"{loss:.3f}"), as torch; others as str() (and
        refuse a format spec)."""
        if self.ndim == 0:
            return self.item().__format__(format_spec)
        return object.__format__(self, format_spec)

    def __len__(self):
        if self.ndim == 0:
            raise TypeError("len() of a 0-d tensor")
        return self.shape[0]

    def __iter__(self):
        """Its rows, as torch's; a 0-d tensor is not iterable (without this, Python's sequence
        protocol would give an empty iteration)."""
        if self.ndim == 0:
            raise TypeError("iteration over a 0-d tensor")
        return (self[i] for i in range(self.shape[0]))

    def __float__(self):
        return float(self._one_value("float()"))

    def __int__(self):
        return int(self._one_value("int()"))

    def __index__(self):
        """A one-element integer tensor as an index (slice bounds, range(), list[t]), as torch's."""
        if self.dtype.is_floating_point or self.dtype.name == "bool" or self.numel() != 1:
            raise TypeError("only integer tensors of a single element can be converted to an index")
        return int(self._one_value("__index__"))

    def _one_value(self, what):
        if self.numel() != 1:
            raise ValueError(f"{what} takes a tensor of one element; this one has shape {tuple(self.shape)}")
        return self._value(what).reshape(())

    def item(self):
        """The value of a one-element tensor as a Python number (a global tensor's as
        numpy() reads it)."""
        value = self._impl.local_item()
        if value is not None:
            return value
        if self.numel() != 1:  # torch's RuntimeError (float() and int() raise its ValueError)
            raise _C.OpError(f"item() takes a tensor of one element; this one has shape {tuple(self.shape)}")
        return self._one_value("item()").item()

    def tolist(self):
        return self._value("tolist()").tolist()

    # Autograd.
    @property
    def requires_grad(self):
        return self._impl.requires_grad

    @requires_grad.setter
    def requires_grad(self, value):
        self.requires_grad_(value)

    def requires_grad_(self, requires_grad=True):
        if not self._impl.is_leaf:  # as torch: a computed tensor's flag follows its inputs
            if not requires_grad:
                raise RuntimeError("you can only change requires_grad flags of leaf variables. If you want to use a "
                                   "computed variable in a subgraph that doesn't require differentiation use "
                                   "var_no_grad = var.detach().")
            return self
        self._impl.requires_grad = bool(requires_grad)
        return self

    def retain_grad(self):
        """Keeps this non-leaf's gradient in .grad at the next backward (a leaf's is kept
        anyway), in this tensor's placement and SBP."""
        if not self.requires_grad:
            raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
        self._impl.retain_grad()

    @property
    def retains_grad(self):
        return self._impl.retains_grad

    def register_hook(self, hook):
        """Calls hook(grad) when backward computes this tensor's gradient; a tensor it returns
        replaces the gradient (None keeps it). Returns a handle whose remove() unregisters it."""
        if not self.requires_grad:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        shape = tuple(self.shape)

        def call(grad):
            replaced = hook(Tensor(grad))
            if replaced is None:
                return None
            replaced = _impl_of("register_hook", replaced)
            if tuple(replaced.shape) != shape:
                raise RuntimeError(f"hook returned a gradient of shape {tuple(replaced.shape)}; expected the tensor's "
                                   f"shape {shape}")
            return replaced
        return _HookHandle(self._impl, self._impl.add_hook(call))

    def register_post_accumulate_grad_hook(self, hook):
        """Calls hook(self) once backward has accumulated this leaf's gradient into .grad, as
        soon as that gradient is final (an optimizer step per parameter inside backward, which
        frees each gradient early, as torch's). torch.autograd.grad, which accumulates
        nothing, does not call it. Returns a handle whose remove() unregisters it."""
        if not self.requires_grad:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        if not self.is_leaf:
            raise RuntimeError("post accumulate grad hooks cannot be registered on non-leaf tensors")
        held = _weakref.ref(self)  # not self: the leaf holds the hook

        def run():
            tensor = held()
            if tensor is not None:
                hook(tensor)
        return _HookHandle(self._impl, self._impl.add_post_accumulate_hook(run))

    @property
    def grad(self):
        """The gradient accumulated by backward(), with this tensor's placement and SBP: the
        same object at each read while the gradient is the same tensor, as torch's (held
        weakly, so that a gradient set to None is freed)."""
        g = self._impl.grad
        if g is None:
            return None
        ref = getattr(self, "_grad", None)
        handed = ref() if ref is not None else None
        if handed is not None and handed._impl.same(g):
            return handed
        handed = Tensor(g)
        self._grad = _weakref.ref(handed)
        return handed

    @grad.setter
    def grad(self, value):
        self._impl.grad = None if value is None else _impl_of("grad", value)
        self._grad = None if value is None else _weakref.ref(value)

    @property
    def is_leaf(self):
        return self._impl.is_leaf

    @property
    def _version(self):
        """In-place writes so far (torch's version counter): a view counts its bases', whose
        writes it shares. backward() refuses a call that read a value written since. An
        inference tensor has none, as torch's (whose read raises)."""
        if self._impl.is_inference:
            raise RuntimeError("Inference tensors do not track version counter.")
        t, version = self, self._impl.version
        while (record := getattr(t, "_view", None)) is not None:
            t = record[0]
            version = max(version, t._impl.version)
        return version

    @property
    def grad_fn(self):
        """The recorded call that made this tensor, as torch's grad_fn (None for leaves):
        name() and next_functions (_grad_fn.py)."""
        return _grad_fn.node(self._impl.grad_fn)

    def backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None):
        """Accumulates d(self)/d(leaf) into every leaf's .grad (collective on global tensors).
        create_graph records the gradients, to differentiate them again; retain_graph
        defaults to create_graph, as torch's. inputs (a tensor or a sequence): accumulate
        into those tensors' .grad only (leaves or not), as torch's."""
        retain_graph = create_graph if retain_graph is None else retain_graph
        if inputs is not None:
            from .autograd import backward_into
            backward_into((self,), inputs, gradient, retain_graph, create_graph)
            return
        self._impl.backward(None if gradient is None else _impl_of("backward", gradient), bool(retain_graph),
                            bool(create_graph))
        _run_after_backward()

    def detach(self):
        return Tensor(self._impl.detach())

    @property
    def data(self):
        """The value without its autograd history (shares memory)."""
        return self.detach()

    @data.setter
    def data(self, value):
        # Replaces the value in place: modules and optimizers holding this tensor see it.
        self._impl.set_data(_impl_of("data", value))

    # copy.deepcopy and pickle, as torch's: the copy has the value, dtype, device (a global
    # tensor's copy: its placement and SBP) and requires_grad, is a leaf, and is of the same
    # class (a Parameter stays one).
    def __deepcopy__(self, memo):
        """A leaf's copy, with a copy of its grad (a computed tensor refuses, as torch's)."""
        import copy
        from ._api import clone
        if not self.is_leaf:
            raise RuntimeError("Only Tensors created explicitly by the user (graph leaves) support the deepcopy "
                               "protocol at the moment; deepcopy x.detach() for a copy of a computed tensor's value")
        with no_grad():
            copied = clone(self)
        if self.is_global and (copied.placement != self.placement or copied.sbp != self.sbp):
            copied = copied.to_global(self.placement, self.sbp)
        new = _rebuild(type(self), copied._impl, self.requires_grad)
        memo[id(self)] = new
        if self.grad is not None:
            new.grad = copy.deepcopy(self.grad, memo)
        if hasattr(self, "__dict__"):  # a subclass's attributes
            new.__dict__.update(copy.deepcopy(self.__dict__, memo))
        return new

    def __reduce_ex__(self, protocol):
        """Pickles a local tensor as its value (NumPy's array, a bfloat16 one as its bits), dtype,
        device and requires_grad; loads as a leaf (as torch's). A global tensor's value is
        spread over ranks, which no one rank's pickle restores: it refuses, saying what to do."""
        if self.is_global:
            raise TypeError("cannot pickle a global tensor: its value is spread over ranks; pickle t.to_local() "
                            "(this rank's part) with t.placement and t.sbp, or save it with meshflow.save, which "
                            "gathers it")
        local = self._impl.local_tensor
        value = local.bits() if self.dtype == _dtype.bfloat16 else local.numpy()
        state = getattr(self, "__dict__", None) or None
        return _unpickle, (type(self), value, self.dtype.name, str(self.device), self.requires_grad), state

    def _require_global(self, what):
        if not self.is_global:
            raise ValueError(f"{what} is only defined for global tensors; call to_global() first")

    def __repr__(self):
        """As PyTorch prints: the values, then the dtype where it is not the default of its
        kind, the device where it is not the CPU, and the autograd state; a global tensor's
        placement and SBP too, as OneFlow's. Its values are read as numpy() reads them: a
        split or partial one by a collective, on every rank, never under `if rank == 0:`
        (while a Graph traces, there are no values to show)."""
        extra = []
        if self.is_global:
            extra = [f"placement={self.placement!r}", f"sbp={self.sbp!r}", f"dtype={self.dtype!r}"]
        else:
            default = get_default_dtype()
            # torch names the dtype where the values do not tell it: beside the default
            # float's (and its complex), int64 and bool, and for any empty tensor
            if self.dtype not in (default, _dtype.complex_of(default), _dtype.int64, _dtype.bool) or (
                    self.numel() == 0 and self.dtype != default):
                extra.append(f"dtype={self.dtype!r}")
            if self._impl.device_type != "cpu":
                extra.append(f"device='{self.device}'")
            if self._impl.device_type == "meta":  # no values: its size, after the device, as torch
                extra = [extra.pop(), f"size={tuple(self.shape)}"] + extra
        if self.grad_fn is not None:
            extra.append(f"grad_fn=<{self.grad_fn.name()}>")
        elif self.requires_grad:
            extra.append("requires_grad=True")
        if self.is_global and _C.tracing():
            values = f"shape={tuple(self.shape)}"
        elif not self.is_global and self._impl.device_type == "meta":
            values = "..."
        else:
            array = self._value("repr()")
            values = _values_str(array, len("tensor("))
            if array.size == 0 and array.ndim > 1:
                extra.insert(0, f"size={tuple(self.shape)}")
        return _with_suffixes("tensor(" + values, extra, len("tensor("))


class _HookHandle:
    """What register_hook returns (torch's RemovableHandle): remove() unregisters the hook."""

    __slots__ = ("_impl", "id")

    def __init__(self, impl, hook_id):
        self._impl, self.id = impl, hook_id

    def remove(self):
        if self._impl is not None:
            self._impl.remove_hook(self.id)
            self._impl = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.remove()


# How tensors print (set_printoptions): torch's "default" profile.
_PRINT_PROFILES = {"default": dict(precision=4, threshold=1000, edgeitems=3, linewidth=80),
                   "short": dict(precision=2, threshold=1000, edgeitems=2, linewidth=80),
                   "full": dict(precision=4, threshold=_np.inf, edgeitems=3, linewidth=80)}
_print_options = dict(_PRINT_PROFILES["default"], sci_mode=None)


def set_printoptions(precision=None, threshold=None, edgeitems=None, linewidth=None, profile=None,
                     sci_mode=None):
    """How tensors print, as torch.set_printoptions: `profile` ("default", "short", "full")
    sets every option first; precision (digits after the point), threshold (more elements
    than this print summarized), edgeitems (the items kept at each end of a summarized
    dim), linewidth (characters per line) and sci_mode (True: scientific notation, False:
    never, None: where the magnitudes call for it) then override it. NumPy's own print
    options are left as they are."""
    if profile is not None:
        if profile not in _PRINT_PROFILES:
            raise ValueError(f"set_printoptions: unknown profile {profile!r}; expected one of "
                             f"{', '.join(_PRINT_PROFILES)}")
        _print_options.update(_PRINT_PROFILES[profile])
    for name, value in (("precision", precision), ("threshold", threshold), ("edgeitems", edgeitems),
                        ("linewidth", linewidth)):
        if value is not None:
            _print_options[name] = value
    _print_options["sci_mode"] = sci_mode


def _values_str(array, indent):
    """The values as torch prints them (torch/_tensor_str.py), `indent` characters in: more
    elements than the threshold are summarized to edgeitems at each end of every dim ("...");
    each row's elements fill lines of at most linewidth characters."""
    if array.size == 0:
        return "[]"
    edge, linewidth = _print_options["edgeitems"], _print_options["linewidth"]
    summarize = array.size > _print_options["threshold"]
    shown = array
    if summarize:  # the elements printed, which alone decide the common width
        for axis, n in enumerate(array.shape):
            if n > 2 * edge:
                shown = _np.take(shown, list(range(edge)) + list(range(n - edge, n)), axis=axis)
    text, width = _element_formatter(shown)

    def block(a, indent):
        if a.ndim == 0:
            return text(a.item())
        n = a.shape[0]
        cut = summarize and n > 2 * edge
        if a.ndim == 1:
            items = [text(v) for v in a[:edge]] + [" ..."] + [text(v) for v in a[n - edge:]] if cut else [
                text(v) for v in a]
            per_line = max(1, (linewidth - indent) // (width + 2))
            lines = [", ".join(items[i:i + per_line]) for i in range(0, len(items), per_line)]
            return "[" + (",\n" + " " * (indent + 1)).join(lines) + "]"
        rows = ([block(a[i], indent + 1) for i in range(edge)] + ["..."] +
                [block(a[i], indent + 1) for i in range(n - edge, n)]) if cut else [block(r, indent + 1) for r in a]
        return "[" + ("," + "\n" * (a.ndim - 1) + " " * (indent + 1)).join(rows) + "]"
    return block(array, indent) if array.ndim else text(array.item())


def _with_suffixes(text, suffixes, indent):
    """text, then each suffix (", dtype=..."), each on a new line where the line would pass
    linewidth (torch's _add_suffixes), and ")"."""
    parts, last_line = [text], len(text) - text.rfind("\n") + 1
    for suffix in suffixes:
        if last_line + len(suffix) + 2 > _print_options["linewidth"]:
            parts.append(",\n" + " " * indent + suffix)
            last_line = indent + len(suffix)
        else:
            parts.append(", " + suffix)
            last_line += len(suffix) + 2
    return "".join(parts) + ")"


def _element_formatter(array):
    """(value -> its text, the common width), as torch's _Formatter: bools as True/False, ints
    as ints; floats with set_printoptions' precision (4 by default), integral values as "2.",
    others fixed ("1.5000") unless their magnitudes span more than 1000x or leave [1e-4, 1e8),
    then in scientific notation (or as sci_mode says). Every element padded to one width: a
    float's to that of the nonzero finite ones (a longer nan or 0. pads nothing)."""
    values = array.ravel()
    if array.dtype.kind == "b":
        text = lambda v: "True" if v else "False"  # noqa: E731
    elif array.dtype.kind == "c":  # torch's: the real parts padded to their width, then the signed imaginary part
        real_text, imag_text = _float_text(array.real), _float_text(array.imag)
        reals = values.real[_np.isfinite(values.real) & (values.real != 0)]
        real_width = max((len(real_text(v)) for v in reals), default=1)

        def text(v):
            imag = imag_text(v.imag)
            return real_text(v.real).rjust(real_width) + ("" if imag.startswith("-") else "+") + imag + "j"
        values = values[_np.isfinite(values.real) & (values.real != 0)]
    elif array.dtype.kind != "f":
        text = lambda v: str(int(v))  # noqa: E731
    else:
        text = _float_text(array)
        values = values[_np.isfinite(values) & (values != 0)]
    width = max((len(text(v)) for v in values), default=1)
    return (lambda v: text(v).rjust(width)), width


def _float_text(array):
    """The text of one float of `array`, unpadded (_element_formatter)."""
    finite = array[_np.isfinite(array)].astype(_np.float64)
    nonzero = _np.abs(finite[finite != 0])
    integral = finite.size == 0 or bool(_np.all(finite == _np.ceil(finite)))
    sci = nonzero.size > 0 and (nonzero.max() / nonzero.min() > 1000 or nonzero.max() > 1e8 or
                                (not integral and nonzero.min() < 1e-4))
    if _print_options["sci_mode"] is not None:
        sci = _print_options["sci_mode"]
    precision = _print_options["precision"]
    if sci:
        text = f"{{:.{precision}e}}".format
    elif integral:
        text = lambda v: f"{v:.0f}." if _np.isfinite(v) else f"{v}"  # noqa: E731
    else:
        text = f"{{:.{precision}f}}".format
    return text


_Var = _C.Var
_C.set_tensor_class(Tensor)  # for the methods in C (_in_c)
# the public name, as torch.Tensor's (type(x) prints <class 'meshflow.Tensor'>, pickles name it so)
Tensor.__module__ = "meshflow"
# size() and shape in C: a Size made there, size(dim) of an int dim; other calls: size's Python.
Tensor.size = _functools.update_wrapper(_C.size_method(Size, Tensor.size), Tensor.size)
Tensor.shape = property(Tensor.size, doc="The shape, a meshflow.Size (torch.Size).")
Tensor.item = _functools.update_wrapper(_C.item_method(Tensor.item), Tensor.item)  # a local tensor's in C


def _in_c(form, op, scalar, fallback):
    """`fallback`, a Tensor method of op `op`, in C (python/op_calls.h): its common calls (Tensor
    operands, or a Tensor and a Python number, no keywords) go straight to C++, the others to
    `fallback`. form: "binary", "reflected" (other <op> self, commutative ops) or "reduce";
    `scalar`: the op on a Tensor and a number, or None. A reduction's `fallback` takes NumPy's
    `axis` and `keepdims` too, as torch's (_numpy_names)."""
    if form == "reduce":
        from ._numpy_names import wrapped
        fallback = wrapped(fallback) or fallback
    return _functools.update_wrapper(_C.tensor_method(form, op, scalar, fallback), fallback)


def _rebuild(cls, impl, requires_grad):
    """A tensor of class `cls` (Tensor or a subclass, whose __init__ may take other arguments)
    holding `impl`, a leaf."""
    new = object.__new__(cls)
    new._impl = impl
    return new.requires_grad_(requires_grad)


def _unpickle(cls, value, dtype, device, requires_grad):
    """Tensor.__reduce_ex__'s inverse (pickles name it: keep its name and arguments)."""
    local = _C.LocalTensor.from_bits(value) if dtype == "bfloat16" else _C.LocalTensor.from_numpy(value)
    t = Tensor(_C.Var(local))
    if device != "cpu":
        t = t.to(device)
    return _rebuild(cls, t._impl, requires_grad)


def _legacy_tensor(data, sizes, dtype):
    """torch's legacy constructors (torch.Tensor(...), FloatTensor(...)): sizes (ints or a
    Size) make zeros of that shape (torch leaves them uninitialized), data a tensor of
    `dtype`, nothing an empty one."""
    import numbers
    from ._ops_creation import zeros
    if data is None and not sizes:
        return zeros(0, dtype=dtype)
    items = (data,) + tuple(sizes)
    if all(isinstance(d, numbers.Integral) and not isinstance(d, bool) for d in items):
        return zeros(*items, dtype=dtype)
    if sizes:
        raise TypeError(f"new(): expected sizes (ints) or data, got {items!r}")
    if type(data).__name__ == "Size":
        return zeros(*data, dtype=dtype)
    if isinstance(data, Tensor):
        return data if data.dtype == dtype else data.to(dtype)
    return tensor(data, dtype=dtype)


class _LegacyType(type):
    """The type of torch's legacy tensor types (FloatTensor, ...): calling one constructs a
    tensor of its dtype (_legacy_tensor), and a CPU tensor of that dtype is an instance, as
    torch's (`isinstance(x, torch.FloatTensor)`); a tensor on another device is not."""

    def __call__(cls, data=None, *sizes):
        return _legacy_tensor(data, sizes, cls.dtype)

    def __instancecheck__(cls, obj):
        return isinstance(obj, Tensor) and obj.dtype == cls.dtype and (obj.is_global or obj._impl.device_type == "cpu")


def _legacy_constructor(name, dtype):
    # `dtype`: x.type(mf.FloatTensor) names the dtype by its type, as torch's
    return _LegacyType(name, (), {"dtype": dtype, "__module__": "meshflow", "__doc__":
                                  f"torch.{name}(data) or {name}(*sizes): a {dtype.name} tensor (legacy constructor)."})


FloatTensor = _legacy_constructor("FloatTensor", _dtype.float32)
DoubleTensor = _legacy_constructor("DoubleTensor", _dtype.float64)
HalfTensor = _legacy_constructor("HalfTensor", _dtype.float16)
BFloat16Tensor = _legacy_constructor("BFloat16Tensor", _dtype.bfloat16)
IntTensor = _legacy_constructor("IntTensor", _dtype.int32)
LongTensor = _legacy_constructor("LongTensor", _dtype.int64)
ShortTensor = _legacy_constructor("ShortTensor", _dtype.int16)
CharTensor = _legacy_constructor("CharTensor", _dtype.int8)
ByteTensor = _legacy_constructor("ByteTensor", _dtype.uint8)
BoolTensor = _legacy_constructor("BoolTensor", _dtype.bool_)


def _in_layout_of(value, reference, op="copy_"):
    """`value` (local or global) converted to `reference`'s kind and layout; a local value
    is the full logical value, taken as op `op` takes a local beside a global (implicit
    replication, checked under MESHFLOW_CHECK_CONSISTENCY)."""
    if reference.is_global:
        if value.is_global:
            return value.to_global(placement=reference.placement, sbp=reference.sbp)
        return Tensor(_C.replicated_beside(op, value._impl, reference._impl.placement, list(reference._impl.nd_sbp)))
    value = Tensor(_C.Var(_C.gather_full(value._impl))) if value.is_global else value
    return value.to(reference.device)  # itself when on the reference's device


def _out_of_range(data, probe, lo, hi):
    """A Python int of `data` outside [lo, hi], if any. NumPy turns such ints into floats,
    uint64 or objects (or wraps them, given an integer dtype), so the array `probe` made
    without a dtype tells where to look: ints beyond int64 make a value of magnitude 2^63."""
    if probe.dtype == object or (probe.dtype.kind in "uif" and probe.size and
                                 (float(probe.max()) > hi or float(probe.min()) < lo)):
        for v in _np.array(data, dtype=object).ravel():
            if isinstance(v, (int, _np.integer)) and not isinstance(v, bool) and not lo <= int(v) <= hi:
                return int(v)
    return None


class _DataTypeError(TypeError, ValueError):
    """torch's TypeError for data tensor() cannot hold, still the ValueError meshflow raised."""


def _as_array(data, dtype):
    if dtype is None and type(data) in (list, tuple):
        # The commonest data, a flat list of Python floats or ints, without the inference
        # below (same result: the default float dtype, or int64 where every int fits).
        kinds = set(map(type, data))
        if kinds == {float}:
            return _np.array(data, dtype=get_default_dtype().numpy)
        if kinds == {int}:
            try:
                return _np.array(data, dtype=_np.int64)
            except OverflowError:
                pass  # named below
    if isinstance(data, Tensor):
        data = data._numpy()
    if dtype is not None:
        target = _dtype.to_dtype(dtype)
        if target.numpy.kind in "iu" and not isinstance(data, _np.ndarray):
            info = _np.iinfo(target.numpy)
            bad = _out_of_range(data, _np.array(data), info.min, info.max)
            if bad is not None:
                raise _C.OpError(f"tensor: value {bad} does not fit in {target.name}")
        return _np.array(data, dtype=target.numpy, order="C", copy=True)
    array = _np.array(data, order="C", copy=True)
    if not isinstance(data, (_np.ndarray, _np.generic)):
        # Python numbers follow PyTorch: floats become the default float dtype, ints int64
        # (those beyond int64 are an error, never a wrapped or rounded value); NumPy scalars
        # and tensors among them keep their dtype, all promoted together (torch's inference).
        bad = _out_of_range(data, array, -2**63, 2**63 - 1)
        if bad is not None:
            raise _C.OpError(f"tensor: value {bad} does not fit in int64")
        typed = _typed_leaves_dtype(data) if array.dtype.kind in "fiubc" else None
        if typed is not None:
            array = array.astype(typed.numpy)
        elif array.dtype.kind == "f":
            array = array.astype(get_default_dtype().numpy)
        elif array.dtype.kind == "c":  # Python complex numbers: the default float dtype's complex, as torch
            array = array.astype(_dtype.complex_of(get_default_dtype()).numpy)
        elif array.dtype.kind in "iu":
            array = array.astype(_np.int64)
        elif array.dtype.kind in "US":  # torch's errors for strings: alone a ValueError, among numbers a TypeError
            if all(isinstance(v, str) for v in _np.asarray(data, dtype=object).ravel()):
                raise ValueError(f"too many dimensions 'str': tensor() takes numbers, bools, tensors or sequences "
                                 "of them")
            raise _DataTypeError("new(): invalid data type 'str': tensor() takes numbers, bools, tensors or "
                                 "sequences of them")
        elif array.dtype.kind == "O":
            kinds = sorted({type(v).__name__ for v in array.ravel() if not isinstance(v, (int, float, bool))})
            raise _C.OpError(f"Could not infer dtype of {', '.join(kinds) or 'object'}: tensor() takes numbers, "
                             "bools, tensors or sequences of them")
    _dtype.to_dtype(array.dtype)  # rejects unsupported dtypes with a clear message
    if not array.dtype.isnative:
        array = array.astype(array.dtype.newbyteorder("="))
    return array


def _typed_leaves_dtype(data):
    """torch's dtype for nested sequences holding NumPy arrays, NumPy scalars or tensors (each
    of its own dtype: a list of float64 arrays makes float64) beside Python numbers (bool,
    int64, the default float), promoted together; None when there are no typed leaves
    (Python numbers alone)."""
    from ._promotion import promote_types
    stack, found, result = [data], False, None
    while stack:
        item = stack.pop()
        if isinstance(item, (list, tuple)):
            stack.extend(item)
            continue
        if isinstance(item, (_np.generic, _np.ndarray, Tensor)):
            found = True
            d = _dtype.to_dtype(item.dtype)
        elif isinstance(item, bool):
            d = _dtype.bool_
        elif isinstance(item, int):
            d = _dtype.int64
        elif isinstance(item, complex):
            d = _dtype.complex_of(get_default_dtype())
        else:
            d = get_default_dtype()
        result = d if result is None else promote_types(result, d)
    return result if found else None


def _names_dtype(name):
    try:
        _dtype.to_dtype(name)
        return True
    except ValueError:
        return False


def tensor(data, dtype=None, placement=None, sbp=None, requires_grad=False, device=None):
    """A tensor holding a copy of `data`, on `device` (a local tensor; by default where `data`
    is when it is a local tensor, as torch.tensor(t), else the default device).

    With placement and sbp, a global tensor whose logical value is `data`, which every
    rank passes in full; each rank keeps its part (no data moves).
    """
    if device is not None:
        device = _device.device(device)
        if placement is not None:
            raise ValueError("tensor: give a device (a local tensor) or a placement (a global one), not both")
    elif placement is None:
        device = data.device if isinstance(data, Tensor) and not data.is_global else _device.default
    array = _as_array(data, dtype)
    local = _C.LocalTensor.from_numpy(array)
    if dtype is not None and _dtype.to_dtype(dtype) == _dtype.bfloat16:
        local = _C.cast_local(local, _C.DType.bfloat16)  # rounded from float32
    if placement is None and sbp is None:
        t = Tensor(_C.Var(local))
        return (t if device is None else t.to(device)).requires_grad_(requires_grad)
    if placement is None or sbp is None:
        raise ValueError("tensor: a global tensor needs both placement and sbp")
    placement = _check_placement(placement)
    return Tensor(_C.global_from_full(local, placement, _as_nd_sbp(sbp, placement))).requires_grad_(requires_grad)


# Whether any tensor has shared memory with NumPy yet (from_numpy, numpy()): until then a write
# through a view asks nothing of its bases (_inplace._fresh).
numpy_shared = [False]


def from_numpy(array):
    """A local CPU tensor over a NumPy array's memory, of the array's dtype, as torch's: writes
    through either show in the other (an array that is not C-contiguous, aligned and
    writeable is copied: docs/porting.md)."""
    if not isinstance(array, _np.ndarray):
        raise TypeError(f"from_numpy expects a numpy.ndarray, got {type(array).__name__}")
    _dtype.to_dtype(array.dtype)
    numpy_shared[0] = True
    return Tensor(_C.Var(_C.LocalTensor.from_numpy(array, share=True)))


def _copy_of(array):
    """A local tensor holding a copy of a NumPy array: meshflow's own loads, whose tensors
    (parameters) would otherwise share memory with arrays nobody writes, and so run every op
    reading them synchronously (vm.h: share_with_host)."""
    return Tensor(_C.Var(_C.LocalTensor.from_numpy(array)))


def _shared_numpy(data, dtype=None, device=None):
    """from_numpy(data) where torch.as_tensor and torch.asarray share an array's memory (an
    ndarray of a dtype meshflow has, given no other dtype and no device but the CPU), else
    None: the caller copies."""
    if not isinstance(data, _np.ndarray) or data.dtype.kind not in "biufc":
        return None
    try:
        own = _dtype.to_dtype(data.dtype)
    except (TypeError, ValueError):
        return None
    if dtype is not None and _dtype.to_dtype(dtype) != own:
        return None
    device = device if device is not None else _device.default
    if device is not None and _device.device(device).type != "cpu":
        return None
    return from_numpy(data)


def _in_memory_format(t, memory_format):
    """t in torch's `memory_format` (channels_last, channels_last_3d, contiguous_format;
    preserve_format keeps t's), itself when it is in it already: a local CPU tensor of 4
    (channels_last) or 5 (channels_last_3d) dims moves to the channels-last layout that
    convolutions, batch norm and elementwise ops keep (C++ core/tensor.h); global tensors and
    other devices' stay row-major."""
    name = getattr(memory_format, "_name", None)
    if name not in ("channels_last", "channels_last_3d", "contiguous_format", "preserve_format",
                    "legacy_contiguous_format"):
        raise TypeError(f"memory_format must be a meshflow.memory_format, not {memory_format!r}")
    if name == "preserve_format":
        return t
    last = name not in ("contiguous_format", "legacy_contiguous_format")
    if last and t.ndim != (4 if name == "channels_last" else 5):
        raise RuntimeError(f"required rank {4 if name == 'channels_last' else 5} tensor to use {name} format")
    return _to_format(t, last)


def _to_format(t, channels_last):
    """t channels-last or row-major (the to_memory_format op), itself when it is so already."""
    if t._impl.channels_last == channels_last:
        return t
    return Tensor(_C.apply("to_memory_format", [t._impl], {"format": int(channels_last)}, None, None)[0])
