"""torch.nn.utils.parametrize: a module's parameter (or buffer) computed from others by
parametrization modules, as torch's.

register_parametrization(module, "weight", P) moves the tensor to
module.parametrizations.weight.original (its right_inverse first, when P has one; several
originals, original0, original1, ..., when right_inverse returns a tuple) and makes
`module.weight` a property of the module's class (a subclass made for it, named
Parametrized<Class>) that computes P(original) at each read; more parametrizations registered
on the same name chain (each takes the previous one's result). Assigning `module.weight = X`
writes right_inverse(X) into the originals. The originals keep their identity (an optimizer
holding them sees the updates), their names in named_parameters and state_dict are torch's
("parametrizations.weight.original"), and gradients reach them through the parametrization.
`cached()` computes each parametrized tensor once inside its block.
remove_parametrizations(module, "weight") makes it a plain parameter again, holding the
parametrized value (leave_parametrized=True) or the original."""
import contextlib

from ..._tensor import Tensor, no_grad
from ..modules import Module, ModuleDict, ModuleList, Parameter

__all__ = ["register_parametrization", "remove_parametrizations", "is_parametrized", "cached",
           "type_before_parametrizations", "transfer_parametrizations_and_params", "ParametrizationList"]

_cache_depth = 0
_cache = {}


@contextlib.contextmanager
def cached():
    """Inside the block each parametrized tensor is computed once, at its first read, and the
    same tensor is returned after (torch's cache, for a module that reads a weight often)."""
    global _cache_depth
    _cache_depth += 1
    try:
        yield
    finally:
        _cache_depth -= 1
        if not _cache_depth:
            _cache.clear()


def _set_value(original, value):
    """original takes value's data (shape too), staying the same object, as torch's set_."""
    with no_grad():
        original.data = value.detach()


def _as_original(value, like):
    """A new original made from `value`: a Parameter requiring grad as `like` did, or a plain
    tensor where `like` was a buffer."""
    value = value.detach()
    return Parameter(value, like.requires_grad) if isinstance(like, Parameter) else value


class ParametrizationList(ModuleList):
    """The parametrizations of one tensor, applied in order, and the original(s) they read."""

    def __init__(self, modules, original, unsafe=False):
        if not modules:
            raise ValueError("ParametrizationList requires one or more modules.")
        super().__init__(modules)
        self.unsafe = unsafe
        with no_grad():
            new = original
            for module in reversed(list(self)):
                if hasattr(module, "right_inverse"):
                    new = module.right_inverse(new)
        self.is_tensor = isinstance(new, Tensor)
        self.ntensors = 1 if self.is_tensor else len(new)
        if self.is_tensor:
            if new.dtype != original.dtype:
                raise ValueError(f"When `right_inverse` outputs one tensor, it may not change the dtype.\n"
                                 f"original.dtype: {original.dtype}\nright_inverse(original).dtype: {new.dtype}")
            _set_value(original, new)
            self._register_original("original", original)
        else:
            for i, value in enumerate(new):
                if not isinstance(value, Tensor):
                    raise ValueError(f"'right_inverse' must return a Tensor or a Sequence of tensors (list, tuple...). "
                                     f"Got element {i} of the sequence with type {type(value).__name__}.")
                self._register_original(f"original{i}", _as_original(value, original))
        if not unsafe:
            self._check(original)

    def _register_original(self, name, value):
        if isinstance(value, Parameter):
            self.register_parameter(name, value)
        else:
            self.register_buffer(name, value)

    def _check(self, original):
        z = self()
        if not isinstance(z, Tensor):
            raise ValueError(f"A parametrization must return a tensor. Got {type(z).__name__}.")
        if z.dtype != original.dtype or tuple(z.shape) != tuple(original.shape):
            raise ValueError(f"Registering a parametrization may not change the shape or dtype of the tensor, unless "
                             f"`unsafe` flag is enabled.\nunparametrized dtype: {original.dtype}\n"
                             f"parametrized dtype: {z.dtype}\nunparametrized shape: {tuple(original.shape)}\n"
                             f"parametrized shape: {tuple(z.shape)}")

    def right_inverse(self, value):
        """Writes the originals so that the parametrization gives `value` (each
        parametrization's right_inverse, last first)."""
        with no_grad():
            for module in reversed(list(self)):
                if hasattr(module, "right_inverse"):  # none: the identity, as torch's
                    value = module.right_inverse(value)
            if self.is_tensor:
                if not isinstance(value, Tensor):
                    raise ValueError(f"`right_inverse` should return a tensor. Got {type(value).__name__}")
                if value.dtype != self.original.dtype:
                    raise ValueError(f"The tensor returned by `right_inverse` has dtype {value.dtype} while "
                                     f"`original` has dtype {self.original.dtype}")
                _set_value(self.original, value)
            else:
                if len(value) != self.ntensors:
                    raise ValueError(f"'right_inverse' must return a sequence of tensors of length {self.ntensors}. "
                                     f"Got a sequence of length {len(value)}.")
                for i, tensor in enumerate(value):
                    _set_value(getattr(self, f"original{i}"), tensor)

    def forward(self):
        modules = list(self)
        if self.is_tensor:
            x = modules[0](self.original)
        else:
            x = modules[0](*(getattr(self, f"original{i}") for i in range(self.ntensors)))
        for module in modules[1:]:
            x = module(x)
        return x


def _parametrized(module, name):
    key = (id(module), name)
    if _cache_depth:
        value = _cache.get(key)
        if value is None:
            value = _cache[key] = module.parametrizations[name]()
        return value
    return module.parametrizations[name]()


def _inject_class(module):
    """Gives `module` a class of its own (Parametrized<Class>), where the properties go."""
    cls = module.__class__
    param_cls = type(f"Parametrized{cls.__name__}", (cls,), {"__module__": cls.__module__})
    param_cls._parametrized_base = cls
    module.__class__ = param_cls


def _inject_property(module, name):
    def get_parametrized(self):
        return _parametrized(self, name)

    def set_original(self, value):
        self.parametrizations[name].right_inverse(value)
    setattr(module.__class__, name, property(get_parametrized, set_original))


def register_parametrization(module, tensor_name, parametrization, *, unsafe=False):
    """Parametrizes module's tensor `tensor_name` (a parameter or buffer) by the module
    `parametrization` (module docstring); registering another on the same name chains it.
    Returns module."""
    if not isinstance(parametrization, Module):
        raise TypeError(f"register_parametrization: the parametrization must be an nn.Module, got "
                        f"{type(parametrization).__name__}")
    if is_parametrized(module, tensor_name):
        chain = module.parametrizations[tensor_name]
        if not unsafe:
            y = getattr(module, tensor_name)
            z = parametrization(y)
            if not isinstance(z, Tensor) or z.dtype != y.dtype or tuple(z.shape) != tuple(y.shape):
                raise ValueError("Registering a parametrization may not change the shape or dtype of the tensor, "
                                 "unless the `unsafe` flag is enabled.")
        chain.append(parametrization)
        chain.unsafe |= unsafe
        return module
    if tensor_name not in module._parameters and tensor_name not in module._buffers:
        raise ValueError(f"Module '{module}' does not have a parameter, a buffer, or a parametrized element with "
                         f"name '{tensor_name}'")
    original = getattr(module, tensor_name)
    chain = ParametrizationList([parametrization], original, unsafe=unsafe)
    delattr(module, tensor_name)
    if not is_parametrized(module):
        _inject_class(module)
        module.parametrizations = ModuleDict()
    _inject_property(module, tensor_name)
    module.parametrizations[tensor_name] = chain
    return module


def is_parametrized(module, tensor_name=None):
    """Whether the module has a parametrization (on `tensor_name`, when given)."""
    parametrizations = module._modules.get("parametrizations")
    if not isinstance(parametrizations, ModuleDict):
        return False
    return len(parametrizations) > 0 if tensor_name is None else tensor_name in parametrizations


def remove_parametrizations(module, tensor_name, leave_parametrized=True):
    """Undoes the parametrizations of `tensor_name`: a plain parameter (or buffer) again,
    holding the parametrized value (leave_parametrized) or the original, kept as the same
    object where there was one original. Returns module."""
    if not is_parametrized(module, tensor_name):
        raise ValueError(f"Module {module} does not have a parametrization on {tensor_name}")
    chain = module.parametrizations[tensor_name]
    if chain.is_tensor:
        original = chain.original
        if leave_parametrized:
            with no_grad():
                value = getattr(module, tensor_name)
            _set_value(original, value)
    else:
        if not leave_parametrized:
            raise ValueError("Cannot leave unparametrized (`leave_parametrized=False`) a tensor that is "
                             "parametrized in terms of a sequence of tensors.")
        with no_grad():
            value = getattr(module, tensor_name)
        like = chain.original0
        original = Parameter(value.detach(), like.requires_grad) if isinstance(like, Parameter) else value.detach()
    delattr(module.__class__, tensor_name)
    del module.parametrizations[tensor_name]
    if isinstance(original, Parameter):
        module.register_parameter(tensor_name, original)
    else:
        module.register_buffer(tensor_name, original)
    if not is_parametrized(module):
        delattr(module, "parametrizations")
        module.__class__ = module.__class__._parametrized_base
    return module


def type_before_parametrizations(module):
    """The module's class before any parametrization was registered."""
    return module.__class__._parametrized_base if is_parametrized(module) else type(module)


def transfer_parametrizations_and_params(from_module, to_module, tensor_name=None):
    """Registers from_module's parametrizations (of tensor_name, or all) on to_module, its
    originals copied in. Returns to_module."""
    if not is_parametrized(from_module):
        raise ValueError("from_module is not parametrized")
    names = [tensor_name] if tensor_name is not None else list(from_module.parametrizations.keys())
    for name in names:
        chain = from_module.parametrizations[name]
        if not hasattr(to_module, name):
            setattr(to_module, name, Parameter(getattr(from_module, name).detach().clone()))
        for parametrization in chain:
            register_parametrization(to_module, name, parametrization)
        with no_grad():
            if chain.is_tensor:
                to_module.parametrizations[name].original.copy_(chain.original)
            else:
                for i in range(chain.ntensors):
                    getattr(to_module.parametrizations[name], f"original{i}").copy_(getattr(chain, f"original{i}"))
    return to_module
