"""Tensor.grad_fn: the autograd graph's nodes as torch shows them (torch.autograd.graph.Node).

A node is one recorded call (meshflow/autograd/var.h): name() as torch names its backward
("AddBackward0"), next_functions one (node, output index) pair per input: the node that made
the input, an AccumulateGrad for a leaf that requires grad, or (None, 0) where no gradient
flows. Where torch records one node for what meshflow records as several calls (a composite:
mse_loss, linear) or as another op (transpose's permute), the op shows its node as torch's
(_C.grad_fn_as, Node::torch_name in C++): torch's name, and next_functions that lead to its
arguments' nodes, so that walking the graph as the tutorials do
(`loss.grad_fn.next_functions[0][0]`) meets torch's nodes. The graph is read, never changed,
through these objects.
"""
import weakref

from . import _C

# One Node object per graph node while any is held, so that `y.grad_fn is y.grad_fn`, as in
# torch. Keyed by the node's address, which no other node takes while the Node holds it.
_nodes = weakref.WeakValueDictionary()


# A custom autograd.Function's ctx by its node's id while the node lives: torch's grad_fn of
# a Function is its ctx, so what forward set on it (and saved_tensors) reads through
# y.grad_fn. The entry ends with the node's owner (_C.record_function's), which the node
# keeps until it is freed, before its address can be reused.
_contexts = {}


class NodeOwner:
    """What a Function's node keeps for its life (nothing else refers to it)."""

    __slots__ = ("__weakref__",)


def attach_context(impl, ctx, owner):
    """Makes ctx's attributes readable through the Node of `impl` while `owner` lives."""
    _contexts[impl.id] = ctx
    weakref.finalize(owner, _contexts.pop, impl.id, None)


def node(impl):
    """The Node of a _C.Node (None for None)."""
    if impl is None:
        return None
    found = _nodes.get(impl.id)
    if found is None:
        found = _nodes[impl.id] = _node_class(impl.torch_name)(impl)
    return found


# A Node subclass per backward name, as torch's grad_fn classes are: type(y.grad_fn).__name__
# is "AddBackward0", or a custom Function's "MyReLUBackward".
_classes = {}


def _node_class(name):
    made = _classes.get(name)
    if made is None:
        made = _classes[name] = type(name, (Node,), {"__slots__": ()})
    return made


class Node:
    """One recorded call of the autograd graph (torch's grad_fn object)."""

    __slots__ = ("_impl", "__weakref__")

    def __init__(self, impl):
        self._impl = impl

    def name(self):
        return type(self).__name__  # torch's name of the node (_C.Node.torch_name)

    def __getattr__(self, name):
        ctx = _contexts.get(self._impl.id)
        if ctx is not None and not name.startswith("__") and hasattr(ctx, name):
            return getattr(ctx, name)
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    @property
    def next_functions(self):
        from ._tensor import Tensor
        return tuple((AccumulateGrad(Tensor(target)) if isinstance(target, _C.Var) else node(target), index)
                     for target, index in self._impl.shown_edges)

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
