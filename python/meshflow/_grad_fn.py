"""Tensor.grad_fn: the autograd graph's nodes as torch shows them (torch.autograd.graph.Node).

A node is one recorded call (meshflow/autograd/var.h): name() as torch names its backward
("AddBackward0"), next_functions one (node, output index) pair per input: the node that made
the input, an AccumulateGrad for a leaf that requires grad, or (None, 0) where no gradient
flows. The graph is read, never changed, through these objects.
"""
import weakref

from . import _C

# One Node object per graph node while any is held, so that `y.grad_fn is y.grad_fn`, as in
# torch. Keyed by the node's address, which no other node takes while the Node holds it.
_nodes = weakref.WeakValueDictionary()


def node(impl, name=None):
    """The Node of a _C.Node (None for None), named `name` where given (named())."""
    if impl is None:
        return None
    found = _nodes.get(impl.id)
    if found is None or (name is not None and type(found).__name__ != name):
        found = _nodes[impl.id] = _node_class(name or _torch_name(impl.name))(impl)
    return found


def named(tensor, name):
    """tensor, its grad_fn shown under torch's name for the op that made it: a composite's
    last recorded call is another op's (mse_loss ends in a mean), where torch records one
    node ("MseLossBackward0"), which `print(loss)` shows. A later in-place write shows its
    own node."""
    impl = tensor._impl.grad_fn
    if impl is not None:
        tensor._grad_name = (impl.id, name)
    return tensor


def backward_named(name):
    """Decorator: the function's tensor result named as named() does."""
    import functools

    def decorate(f):
        @functools.wraps(f)
        def call(*args, **kwargs):
            return named(f(*args, **kwargs), name)
        return call
    return decorate


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

    __slots__ = ("_impl", "__weakref__")

    def __init__(self, impl):
        self._impl = impl

    def name(self):
        return type(self).__name__  # the recorded call's torch name, or the one named() gave

    @property
    def next_functions(self):
        from ._tensor import Tensor
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
        return "AccumulateGrad"

    @property
    def next_functions(self):
        return ()

    @property
    def metadata(self):
        return {}

    def __repr__(self):
        return f"<AccumulateGrad object at {id(self):#x}>"
