"""Modules: parameters, submodules, state_dict, train/eval, and layouts over a mesh.

Modules are built with local parameters whose values come from the counter-based generator,
so every rank builds the same weights; `module.to_global(placement, sbp)` then gives each
parameter its placement and SBP (each rank keeps its part). Choosing the SBPs is how a user
picks data, tensor (column / row) or hybrid parallelism.
"""
import collections
import math

from .. import _C
from .._tensor import Tensor, _impl_of, _in_layout_of, _type_name
from .._ops_creation import ones, rand, randn, zeros
from .._ops_elementwise import cast
from ..sbp import as_nd_sbp as _as_nd_sbp
from . import functional as F


class Parameter(Tensor):
    """A tensor that a module owns and trains: a leaf that requires grad."""

    __slots__ = ()

    def __init__(self, data, requires_grad=True):
        super().__init__(_impl_of("Parameter", data).detach())
        self.requires_grad = requires_grad

    def __repr__(self):
        return "Parameter(" + super().__repr__() + ")"


class Module:
    """Base class of layers and models, shaped like torch.nn.Module."""

    def __init__(self):
        object.__setattr__(self, "_parameters", collections.OrderedDict())
        object.__setattr__(self, "_modules", collections.OrderedDict())
        object.__setattr__(self, "training", True)

    def __setattr__(self, name, value):
        if "_parameters" not in self.__dict__:
            raise AttributeError("call Module.__init__() before assigning attributes")
        for table in (self._parameters, self._modules):
            table.pop(name, None)
        if isinstance(value, (Parameter, Module)):
            # A plain attribute of this name (bias = None) would hide the table entry from
            # __getattr__.
            self.__dict__.pop(name, None)
            (self._parameters if isinstance(value, Parameter) else self._modules)[name] = value
        else:
            object.__setattr__(self, name, value)

    def __getattr__(self, name):
        for table in ("_parameters", "_modules"):
            entries = self.__dict__.get(table, {})
            if name in entries:
                return entries[name]
        raise AttributeError(f"{type(self).__name__} has no attribute {name!r}")

    def __call__(self, *args, **kwargs):
        return self.forward(*args, **kwargs)

    def forward(self, *args, **kwargs):
        raise NotImplementedError(f"{type(self).__name__} does not define forward()")

    # Traversal.
    def named_modules(self, prefix=""):
        yield prefix, self
        for name, module in self._modules.items():
            yield from module.named_modules(f"{prefix}.{name}" if prefix else name)

    def modules(self):
        return (m for _, m in self.named_modules())

    def children(self):
        return iter(self._modules.values())

    def named_parameters(self, prefix=""):
        """(name, parameter) pairs, names as in state_dict; a parameter shared by two modules
        (tied weights) is listed once."""
        seen = set()
        for module_name, module in self.named_modules(prefix):
            for name, p in module._parameters.items():
                if id(p) not in seen:
                    seen.add(id(p))
                    yield (f"{module_name}.{name}" if module_name else name), p

    def parameters(self):
        return [p for _, p in self.named_parameters()]

    def train(self, mode=True):
        for m in self.modules():
            object.__setattr__(m, "training", bool(mode))
        return self

    def eval(self):
        return self.train(False)

    def zero_grad(self):
        for p in self.parameters():
            p.grad = None

    # State.
    def state_dict(self):
        """Name -> parameter (global tensors stay global: .numpy() gives the full value)."""
        return collections.OrderedDict(self.named_parameters())

    def load_state_dict(self, state_dict, strict=True):
        """Copies values into the parameters, converting each to the parameter's layout and
        dtype (as torch's copy_: a float64 checkpoint loads into a float32 model).

        All or nothing, as the C++ Module: every entry is checked and converted before any
        parameter changes, so an error leaves the module as it was."""
        own = self.state_dict()
        missing = [k for k in own if k not in state_dict]
        unexpected = [k for k in state_dict if k not in own]
        if strict and (missing or unexpected):
            raise KeyError(f"load_state_dict: missing keys {missing}, unexpected keys {unexpected}")
        entries = [(name, p, state_dict[name]) for name, p in own.items() if name in state_dict]
        for name, p, value in entries:
            if not isinstance(value, Tensor):
                raise TypeError(f"load_state_dict: {name} is a {_type_name(value)}; expected a meshflow Tensor")
            if tuple(value.shape) != tuple(p.shape):
                raise ValueError(f"load_state_dict: {name} has shape {tuple(value.shape)}; the module's parameter "
                                 f"has shape {tuple(p.shape)}")
        # Converting can fail too (a layout the value cannot take): convert all, then assign.
        values = []
        for _, p, value in entries:
            value = _in_layout_of(value.detach(), p)
            values.append(value if value.dtype == p.dtype else cast(value, p.dtype))
        for (_, p, _), value in zip(entries, values):
            p.data = value

    def to_global(self, placement, sbp):
        """Gives every parameter `placement` and an SBP: `sbp` is one SBP or tuple for every
        parameter, or a function (name, parameter) -> SBP (names as in state_dict). A local
        parameter holds the full value on every rank; each rank keeps its part."""
        for name, p in self.named_parameters():
            chosen = sbp(name, p) if callable(sbp) else sbp
            nd_sbp = _as_nd_sbp(chosen, placement)
            if p.is_global:
                value = _C.to_global(p._impl.detach(), placement, nd_sbp)
            else:
                value = _C.global_from_full(p._impl.local_tensor, placement, nd_sbp)
            p.data = Tensor(value)
            p.grad = None
        return self

    def __repr__(self):
        lines = [f"({name}): {module!r}".replace("\n", "\n  ") for name, module in self._modules.items()]
        extra = self.extra_repr()
        if not lines:
            return f"{type(self).__name__}({extra})"
        return f"{type(self).__name__}(\n  " + "\n  ".join(lines) + "\n)"

    def extra_repr(self):
        return ""


def _uniform(shape, bound):
    """U(-bound, bound) from the counter-based generator."""
    return rand(*shape) * (2 * bound) - bound


class Linear(Module):
    """y = x @ weight^T + bias, weight [out_features, in_features], initialized as in torch."""

    def __init__(self, in_features, out_features, bias=True):
        super().__init__()
        self.in_features, self.out_features = in_features, out_features
        bound = 1 / math.sqrt(in_features) if in_features else 0
        self.weight = Parameter(_uniform((out_features, in_features), bound))
        self.bias = Parameter(_uniform((out_features,), bound)) if bias else None

    def forward(self, x):
        return F.linear(x, self.weight, self.bias)

    def extra_repr(self):
        return f"in_features={self.in_features}, out_features={self.out_features}, bias={self.bias is not None}"


class Embedding(Module):
    """Rows of weight [num_embeddings, embedding_dim] (initialized N(0, 1) as in torch)."""

    def __init__(self, num_embeddings, embedding_dim):
        super().__init__()
        self.num_embeddings, self.embedding_dim = num_embeddings, embedding_dim
        self.weight = Parameter(randn(num_embeddings, embedding_dim))

    def forward(self, indices):
        return F.embedding(indices, self.weight)

    def extra_repr(self):
        return f"{self.num_embeddings}, {self.embedding_dim}"


class LayerNorm(Module):
    def __init__(self, normalized_shape, eps=1e-5, elementwise_affine=True):
        super().__init__()
        self.normalized_shape = (normalized_shape,) if isinstance(normalized_shape, int) else tuple(normalized_shape)
        self.eps = eps
        self.weight = Parameter(ones(*self.normalized_shape)) if elementwise_affine else None
        self.bias = Parameter(zeros(*self.normalized_shape)) if elementwise_affine else None

    def forward(self, x):
        return F.layer_norm(x, self.normalized_shape, self.weight, self.bias, self.eps)

    def extra_repr(self):
        return f"{self.normalized_shape}, eps={self.eps}"


class _Activation(Module):
    """A module applying the functional op of the same name to its input."""

    _function = None

    def forward(self, x):
        return type(self)._function(x)


class GELU(_Activation):
    _function = staticmethod(F.gelu)


class ReLU(_Activation):
    _function = staticmethod(F.relu)


class SiLU(_Activation):
    _function = staticmethod(F.silu)


class Tanh(_Activation):
    _function = staticmethod(F.tanh)


class Sigmoid(_Activation):
    _function = staticmethod(F.sigmoid)


class Identity(Module):
    """Its input, as it is (torch.nn.Identity; arguments to the constructor are ignored)."""

    def __init__(self, *args, **kwargs):
        super().__init__()

    def forward(self, x):
        return x


class Flatten(Module):
    def __init__(self, start_dim=1, end_dim=-1):
        super().__init__()
        self.start_dim, self.end_dim = start_dim, end_dim

    def forward(self, x):
        return x.flatten(self.start_dim, self.end_dim)


class _Loss(Module):
    """A loss module: the functional loss of the same name with the constructor's arguments."""

    _function = None

    def __init__(self, reduction="mean", **kwargs):
        super().__init__()
        self.reduction, self._kwargs = reduction, kwargs

    def forward(self, input, target):
        return type(self)._function(input, target, reduction=self.reduction, **self._kwargs)


class MSELoss(_Loss):
    _function = staticmethod(F.mse_loss)


class L1Loss(_Loss):
    _function = staticmethod(F.l1_loss)


class SmoothL1Loss(_Loss):
    _function = staticmethod(F.smooth_l1_loss)

    def __init__(self, reduction="mean", beta=1.0):
        super().__init__(reduction, beta=beta)


class BCELoss(_Loss):
    _function = staticmethod(F.binary_cross_entropy)

    def __init__(self, weight=None, reduction="mean"):
        super().__init__(reduction, weight=weight)


class BCEWithLogitsLoss(_Loss):
    _function = staticmethod(F.binary_cross_entropy_with_logits)

    def __init__(self, weight=None, reduction="mean", pos_weight=None):
        super().__init__(reduction, weight=weight, pos_weight=pos_weight)


class NLLLoss(_Loss):
    _function = staticmethod(F.nll_loss)

    def __init__(self, weight=None, ignore_index=-100, reduction="mean"):
        super().__init__(reduction, weight=weight, ignore_index=ignore_index)


class CrossEntropyLoss(_Loss):
    _function = staticmethod(F.cross_entropy)

    def __init__(self, weight=None, ignore_index=None, reduction="mean", label_smoothing=0.0):
        kwargs = dict(weight=weight, label_smoothing=label_smoothing)
        if ignore_index is not None:
            kwargs["ignore_index"] = ignore_index
        super().__init__(reduction, **kwargs)


class Dropout(Module):
    def __init__(self, p=0.5):
        super().__init__()
        if not 0 <= p < 1:
            raise ValueError(f"Dropout: p is {p}; expected 0 <= p < 1")
        self.p = p

    def forward(self, x):
        return F.dropout(x, self.p, self.training)

    def extra_repr(self):
        return f"p={self.p}"


def _add_module(owner, name, module):
    """Registers a child of a container: anything but a Module would become a plain attribute
    and the container would silently skip it (Sequential([a, b]) an identity)."""
    if not isinstance(module, Module):
        raise TypeError(f"{type(owner).__name__}: {name!r} is a {_type_name(module)}, not a meshflow.nn.Module")
    if not isinstance(name, str):
        raise TypeError(f"{type(owner).__name__}: module name {name!r} is a {_type_name(name)}; expected a str")
    if not name or "." in name or (hasattr(owner, name) and name not in owner._modules):
        raise KeyError(f"{type(owner).__name__}: module name {name!r} is empty, has a '.' or is an attribute "
                       "already; expected a new name without '.' (names join with '.' in state_dict)")
    setattr(owner, name, module)


class Sequential(Module):
    """Calls its modules in order: Sequential(a, b) names them "0" and "1", as torch does;
    Sequential(OrderedDict(name=module, ...)) by the keys."""

    def __init__(self, *modules):
        super().__init__()
        if len(modules) == 1 and isinstance(modules[0], collections.OrderedDict):
            named = modules[0].items()
        else:
            named = ((str(i), m) for i, m in enumerate(modules))
        for name, m in named:
            _add_module(self, name, m)

    def forward(self, x):
        for m in self._modules.values():
            x = m(x)
        return x

    def __getitem__(self, i):
        return list(self._modules.values())[i]

    def __len__(self):
        return len(self._modules)


class ModuleList(Module):
    def __init__(self, modules=()):
        super().__init__()
        for m in modules:
            self.append(m)

    def append(self, module):
        _add_module(self, str(len(self._modules)), module)
        return self

    def __getitem__(self, i):
        return list(self._modules.values())[i]

    def __iter__(self):
        return iter(self._modules.values())

    def __len__(self):
        return len(self._modules)
