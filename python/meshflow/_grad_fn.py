"""Tensor.grad_fn: the autograd graph's nodes as torch shows them (torch.autograd.graph.Node).

A node is one recorded call (meshflow/autograd/var.h): name() as torch names its backward
("AddBackward0"), next_functions one (node, output index) pair per input: the node that made
the input, an AccumulateGrad for a leaf that requires grad, or (None, 0) where no gradient
flows. A composite (mse_loss, linear) shows torch's one node: its next_functions are its
inputs' nodes, not those of the calls it is made of, so that walking the graph as the
tutorials do (`loss.grad_fn.next_functions[0][0]`) meets torch's nodes. The graph is read,
never changed, through these objects.
"""
import functools
import weakref

from . import _C

# One Node object per graph node while any is held, so that `y.grad_fn is y.grad_fn`, as in
# torch. Keyed by the node's address, which no other node takes while the Node holds it.
_nodes = weakref.WeakValueDictionary()


def node(impl, name=None, edges=None):
    """The Node of a _C.Node (None for None), named `name` where given (named()), with the
    composite's `edges` where given (its arguments, or _edge()'s of them). Without an impl: a
    node torch records and meshflow does not (linear's TBackward0 of the weight), named and
    with its edges."""
    if impl is None:
        return None if name is None else _node_class(name)(None, edges)
    found = _nodes.get(impl.id)
    if found is None or (name is not None and type(found).__name__ != name):
        if name is None and impl.name == "matmul" and len(impl.edges) == 3:
            name, edges = _addmm(impl)
        found = _nodes[impl.id] = _node_class(name or _torch_name(impl.name))(impl)
    if edges is not None:
        found._edges = edges
    return found


def _addmm(impl):
    """A linear's node (meshflow records a matmul of input, weight and bias) as torch's
    AddmmBackward0: the bias, the input, then a TBackward0 of the weight."""
    x, w, b = [_Edge() if t is None else _Edge((t,)) if isinstance(t, _C.Var) else _Edge((t, None, None))
               for t, _ in impl.edges]
    return "AddmmBackward0", (b, x, _Edge((None, "TBackward0", (w,))))


class _Edge(tuple):
    """An edge of a node as node() takes it: () where no gradient flows, (leaf _C.Var,) for
    its AccumulateGrad, or node()'s arguments for the node at the other end."""
    __slots__ = ()

    def pair(self):
        from ._tensor import Tensor
        if not self:
            return None, 0
        return (AccumulateGrad(Tensor(self[0])) if len(self) == 1 else node(*self)), 0


def named(tensor, name, inputs=None):
    """tensor, its grad_fn shown under torch's name for the op that made it: a composite's
    last recorded call is another op's (mse_loss ends in a mean), where torch records one
    node ("MseLossBackward0"), which `print(loss)` shows, and whose next_functions lead to
    the nodes of `inputs`' floating-point tensors (the call's arguments, in order; None: the
    recorded call's edges). Those are looked up when the graph is read, not here, so naming
    costs no node lookup on the hot path (and the inputs stay while the result's Python
    object does). A later in-place write (a new version) shows its own node. A result that
    does not require grad has no node to name."""
    impl = tensor._impl
    if impl.requires_grad:
        tensor._grad_name = (impl.version, name, inputs)
    return tensor


def _edge(e):
    """The _Edge of one of a composite's arguments (node()'s edges): a floating-point
    tensor's; an _Edge as it is; None for an argument of another kind (a number, an integer
    tensor), which torch's node has no edge for."""
    from ._tensor import Tensor
    if not isinstance(e, Tensor):
        return e if isinstance(e, _Edge) else None
    if not e.is_floating_point():
        return None
    if not e._impl.requires_grad:
        return _Edge()
    impl = e._impl.grad_fn
    if impl is None:
        return _Edge((e._impl,))
    named = getattr(e, "_grad_name", None)
    return _Edge((impl,) + named[1:] if named is not None and named[0] == e._impl.version else (impl, None, None))


def backward_named(name):
    """Decorator: the function's tensor result (the first of a tuple's) named as named()
    does; `name` is a name or a function of the call's arguments giving one (None: the
    recorded call's name stands); the node's inputs are the call's floating-point tensors."""
    def decorate(f):
        @functools.wraps(f)
        def call(*args, **kwargs):
            out = f(*args, **kwargs)
            first = out[0] if isinstance(out, tuple) and out else out
            impl = getattr(first, "_impl", None)
            # Only a result that requires grad has a node to name: no choosing for the others.
            if impl is not None and impl.requires_grad and first is not (args[0] if args else None):
                chosen = name(*args, **kwargs) if callable(name) else name
                if chosen is not None:
                    named(first, chosen, (*args, *kwargs.values()))
            return out
        return call
    return decorate


def _given(position, keyword):
    """Whether an optional argument (at `position`, counting the tensor, or by `keyword`) was given."""
    return lambda *a, **k: (len(a) > position and a[position] is not None) or k.get(keyword) is not None


def _reduction(stem):
    # of all elements: <stem>Backward0; along dims: <stem>Backward1 (torch's overloads)
    given = _given(1, "dim")
    return lambda *a, **k: f"{stem}Backward{int(given(*a, **k))}"


def _extremum(stem, binary):
    # of all: <stem>Backward1; of two tensors: the binary op's; along a dim: <stem>Backward0
    def choose(*a, **k):
        other = a[1] if len(a) > 1 else k.get("dim", k.get("other"))
        if other is None:
            return f"{stem}Backward1"
        return binary if hasattr(other, "_impl") else f"{stem}Backward0"
    return choose


def _clamp(*a, **k):
    bounds = list(a[1:3]) + [k.get("min"), k.get("max")]
    return "ClampBackward0" if any(hasattr(b, "_impl") for b in bounds) else "ClampBackward1"


def _linear(input, weight, bias=None):
    # torch's linear: addmm for a matrix and a bias (node() shows meshflow's matmul of three
    # inputs so), a matmul folded to 2-d (an unsafe view back) for any other rank; a matrix
    # without bias is the mm meshflow records too
    return "UnsafeViewBackward0" if input.dim() != 2 else None


# A convolution's (plain or transposed, any rank) node as torch's: one ConvolutionBackward0
# for a batched input (meshflow records the bias add, or the reshape of a 1-d one); an
# unbatched one ends in torch's squeeze, as meshflow's.
convolution_named = backward_named(lambda input, weight, *a, **k: "ConvolutionBackward0" if input.dim() == weight.dim() else None)


def interpolate_name(input, size=None, scale_factor=None, mode="nearest", *a, **k):
    """F.interpolate's node as torch's (Upsample<Mode><N>DBackward0)."""
    kinds = {"nearest": "Nearest", "linear": "Linear", "bilinear": "Bilinear", "bicubic": "Bicubic",
             "trilinear": "Trilinear"}
    return f"Upsample{kinds[mode]}{input.dim() - 2}DBackward0" if mode in kinds else None


def pad_name(input, pad, mode="constant", value=None):
    """F.pad's node as torch's (ConstantPadNdBackward0, Reflection/ReplicationPad<N>DBackward0)."""
    kinds = {"reflect": "Reflection", "replicate": "Replication"}
    if mode == "constant":
        return "ConstantPadNdBackward0"
    return f"{kinds[mode]}Pad{len(pad) // 2}DBackward0" if mode in kinds else None


# torch's node names where meshflow records another op's as the last call (a composite, or
# a shape op meshflow does with a more general one), by the owners' attribute names.
_TORCH_NAMES = {
    "t": "TBackward0", "transpose": "TransposeBackward0", "swapaxes": "TransposeBackward0",
    "swapdims": "TransposeBackward0", "sub": "SubBackward0", "subtract": "SubBackward0",
    "__rsub__": "RsubBackward1", "rsub": "RsubBackward1", "__rtruediv__": "MulBackward0",
    "unsqueeze": "UnsqueezeBackward0", "squeeze": lambda *a, **k: f"SqueezeBackward{int(_given(1, 'dim')(*a, **k))}",
    "clone": "CloneBackward0", "masked_fill": "MaskedFillBackward0", "tril": "TrilBackward0",
    "triu": "TriuBackward0", "bmm": "BmmBackward0", "addmm": "AddmmBackward0", "var": "VarBackward0",
    "std": "StdBackward0", "norm": "LinalgVectorNormBackward0", "vector_norm": "LinalgVectorNormBackward0",
    "logsumexp": "LogsumexpBackward0", "topk": "TopkBackward0", "repeat": "RepeatBackward0",
    "roll": "RollBackward0", "index_select": "IndexSelectBackward0", "masked_select": "MaskedSelectBackward0",
    "mean": _reduction("Mean"), "max": _extremum("Max", "MaximumBackward0"),
    "min": _extremum("Min", "MinimumBackward0"), "clamp": _clamp, "clip": _clamp,
    "leaky_relu": "LeakyReluBackward0", "elu": "EluBackward0", "softplus": "SoftplusBackward0",
    "linear": _linear, "diagonal": "DiagonalBackward0",
}


def install_torch_names(*owners):
    """Wraps each owner's functions of _TORCH_NAMES (where it has them) in backward_named;
    the Tensor methods written in C (x - 1, x.sum) stay as they are, for their speed. An
    alias (clip of clamp) stays one object with what it names."""
    wrapped = {}
    for owner in owners:
        for attr, name in _TORCH_NAMES.items():
            f = owner.__dict__.get(attr) if isinstance(owner, type) else getattr(owner, attr, None)
            if f is not None and callable(f) and not isinstance(f, _C.TensorMethod):
                if id(f) not in wrapped:
                    wrapped[id(f)] = (f, backward_named(name)(f))  # f kept: its id stays its own
                setattr(owner, attr, wrapped[id(f)][1])


# A Node subclass per backward name, as torch's grad_fn classes are: type(y.grad_fn).__name__
# is "AddBackward0", or a custom Function's "MyReLUBackward".
_classes = {}


def _node_class(name):
    made = _classes.get(name)
    if made is None:
        made = _classes[name] = type(name, (Node,), {"__slots__": ()})
    return made


def _torch_name(recorded):
    """An op's node name ("add_scalar") as torch's ("AddBackward0"); a Python Function's (its
    class name: op names are lower case) as torch names a custom Function's ("CubeBackward")."""
    return _C.backward_name(recorded)


class Node:
    """One recorded call of the autograd graph (torch's grad_fn object)."""

    __slots__ = ("_impl", "_edges", "__weakref__")

    def __init__(self, impl, edges=None):
        self._impl = impl
        self._edges = edges  # a composite's arguments (_edge()), else None: the recorded call's

    def name(self):
        return type(self).__name__  # the recorded call's torch name, or the one named() gave

    @property
    def next_functions(self):
        from ._tensor import Tensor
        if self._edges is not None:
            return tuple(e.pair() for e in map(_edge, self._edges) if e is not None)
        return tuple((AccumulateGrad(Tensor(target)) if isinstance(target, _C.Var) else node(target), index)
                      for target, index in self._impl.edges)

    @property
    def metadata(self):
        return {}

    def __repr__(self):
        return f"<{self.name()} object at {id(self):#x}>"


class AccumulateGrad:
    """Where a leaf's gradient goes (torch's AccumulateGrad node): `variable` is the leaf."""

    __slots__ = ("variable",)

    def __init__(self, variable):
        self.variable = variable

    def name(self):
        return "torch::autograd::AccumulateGrad"  # torch's name() of it (its class is AccumulateGrad)

    @property
    def next_functions(self):
        return ()

    @property
    def metadata(self):
        return {}

    def __repr__(self):
        return f"<AccumulateGrad object at {id(self):#x}>"
