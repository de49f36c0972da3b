"""torch.nn.utils.prune (the pruning tutorial's API): pruning a parameter `name` moves it to
`name_orig`, adds a buffer `name_mask` (1 keeps an element, 0 prunes it) and makes `name` the
product, recomputed by a forward pre-hook before every forward, as torch's. Pruning a pruned
parameter again combines the masks (a PruningContainer): the new method sees only the elements
still kept. remove() makes `name` a parameter holding the pruned values again.

Thread-safety: as the module it changes (none of its own state)."""
import numbers
from abc import ABC, abstractmethod

from ..._tensor import no_grad

__all__ = ["BasePruningMethod", "PruningContainer", "Identity", "RandomUnstructured", "L1Unstructured",
           "RandomStructured", "LnStructured", "CustomFromMask", "identity", "random_unstructured", "l1_unstructured",
           "random_structured", "ln_structured", "global_unstructured", "custom_from_mask", "remove", "is_pruned"]


def _pruning_hooks(module):
    """(handle id, method) of each pruning method registered on `module`."""
    return [(key, hook) for key, hook in module.__dict__.get("_forward_pre_hooks", {}).items()
            if isinstance(hook, BasePruningMethod)]


def _count(amount, size):
    """How many of `size` units `amount` prunes (an int: that many; a float: that fraction,
    rounded as torch's), checked against size."""
    if isinstance(amount, bool) or not isinstance(amount, numbers.Real) or amount < 0 or (
            not isinstance(amount, numbers.Integral) and amount > 1):
        raise ValueError(f"amount={amount} should either be a float in the range [0, 1] or a non-negative integer")
    if isinstance(amount, numbers.Integral):
        if amount > size:
            raise ValueError(f"amount={amount} should be smaller than the number of parameters to prune={size}")
        return int(amount)
    return round(amount * size)


class BasePruningMethod(ABC):
    """A way of pruning one tensor: compute_mask(t, default_mask) gives the new mask (elements
    pruned already stay pruned). Registered as the module's forward pre-hook."""
    _tensor_name = None
    PRUNING_TYPE = "unstructured"

    def __call__(self, module, inputs):
        setattr(module, self._tensor_name, self.apply_mask(module))

    @abstractmethod
    def compute_mask(self, t, default_mask):
        """The mask of t, given the mask of the pruning before (default_mask)."""

    def apply_mask(self, module):
        orig = getattr(module, self._tensor_name + "_orig")
        return getattr(module, self._tensor_name + "_mask").to(orig.dtype) * orig

    @classmethod
    def apply(cls, module, name, *args, importance_scores=None, **kwargs):
        """Prunes module.name by this method (made with args and kwargs), combining with an
        earlier pruning of it; returns the method."""
        earlier = [(key, hook) for key, hook in _pruning_hooks(module) if hook._tensor_name == name]
        if len(earlier) > 1:
            raise RuntimeError(f"prune: {name} of {type(module).__name__} has {len(earlier)} pruning hooks; expected one")
        method = cls(*args, **kwargs)
        method._tensor_name = name
        old = None
        if earlier:
            key, old = earlier[0]
            del module._forward_pre_hooks[key]
            container = old if isinstance(old, PruningContainer) else PruningContainer(old)
            container.add_pruning_method(method)
            method = container
        orig = getattr(module, name)
        scores = orig if importance_scores is None else importance_scores
        if tuple(scores.shape) != tuple(orig.shape):
            raise ValueError(f"importance_scores should have the same shape as parameter {name} of {module}")
        if old is None:
            module.register_parameter(name + "_orig", orig)
            del module._parameters[name]
            default_mask = orig.detach() * 0 + 1
        else:
            default_mask = getattr(module, name + "_mask").detach().clone()
        with no_grad():
            mask = method.compute_mask(scores.detach(), default_mask=default_mask)
        module.register_buffer(name + "_mask", mask)
        setattr(module, name, method.apply_mask(module))
        module.register_forward_pre_hook(method)
        return method

    def prune(self, t, default_mask=None, importance_scores=None):
        """t with this method's mask applied (out of place)."""
        scores = t if importance_scores is None else importance_scores
        mask = self.compute_mask(scores, default_mask=t.detach() * 0 + 1 if default_mask is None else default_mask)
        return t * mask

    def remove(self, module):
        """Makes the pruning permanent: `name` becomes a parameter of the pruned values."""
        weight = self.apply_mask(module)
        name = self._tensor_name
        if name in module.__dict__:
            object.__delattr__(module, name)
        orig = module._parameters.pop(name + "_orig")
        orig.data = weight.detach()
        del module._buffers[name + "_mask"]
        setattr(module, name, orig)


def _unstructured_kept(default_mask):
    return (default_mask == 1).reshape(-1)


class PruningContainer(BasePruningMethod):
    """Successive prunings of one tensor: each later method prunes among the elements (or, for
    structured ones, the slices) the earlier ones kept."""

    def __init__(self, *methods):
        self._pruning_methods = ()
        for m in methods:
            self.add_pruning_method(m)

    def add_pruning_method(self, method):
        if not isinstance(method, BasePruningMethod) and method is not None:
            raise TypeError(f"{type(method)} is not a BasePruningMethod subclass")
        if method is not None and self._tensor_name is not None and method._tensor_name != self._tensor_name:
            raise ValueError(f"Can only add pruning methods acting on the parameter named '{self._tensor_name}' to "
                             f"PruningContainer. Found '{method._tensor_name}'")
        if method is not None:
            self._tensor_name = method._tensor_name
            self._pruning_methods += (method,)

    def __len__(self):
        return len(self._pruning_methods)

    def __iter__(self):
        return iter(self._pruning_methods)

    def __getitem__(self, idx):
        return self._pruning_methods[idx]

    def compute_mask(self, t, default_mask):
        method = self._pruning_methods[-1]
        if method.PRUNING_TYPE == "unstructured":
            kept = _unstructured_kept(default_mask)
            flat = default_mask.reshape(-1).clone()
            flat[kept] = method.compute_mask(t.reshape(-1)[kept], default_mask=flat[kept]).to(flat.dtype)
            return flat.reshape(list(default_mask.shape))
        if method.PRUNING_TYPE == "structured":
            dim = method.dim if method.dim >= 0 else method.dim + t.ndim
            others = [d for d in range(t.ndim) if d != dim]
            alive = (default_mask.sum(others) != 0) if others else default_mask != 0
            index = alive.nonzero().reshape(-1)
            partial = method.compute_mask(t.index_select(dim, index), default_mask=default_mask.index_select(dim, index))
            new_mask = default_mask.clone()
            new_mask.index_copy_(dim, index, partial.to(new_mask.dtype))
            return new_mask
        if method.PRUNING_TYPE == "global":
            return method.compute_mask(t, default_mask)
        raise ValueError(f"Unrecognized PRUNING_TYPE {method.PRUNING_TYPE}")


class Identity(BasePruningMethod):
    """Prunes nothing (a mask of ones)."""

    def compute_mask(self, t, default_mask):
        return default_mask

    @classmethod
    def apply(cls, module, name):
        return super().apply(module, name)


class _Unstructured(BasePruningMethod):
    def __init__(self, amount):
        _count(amount, 10 ** 18)  # the type and range now, the size at compute_mask
        self.amount = amount

    def _scores(self, t):
        raise NotImplementedError

    def compute_mask(self, t, default_mask):
        n = _count(self.amount, t.numel())
        mask = default_mask.clone().reshape(-1)
        if n:
            from ..._ops_math import topk
            mask[topk(self._scores(t).reshape(-1), n, largest=False).indices] = 0
        return mask.reshape(list(default_mask.shape))


class RandomUnstructured(_Unstructured):
    """Prunes `amount` of the elements, drawn at random."""

    def _scores(self, t):
        from ..._ops_creation import rand_like
        return -rand_like(t.float())

    @classmethod
    def apply(cls, module, name, amount):
        return super().apply(module, name, amount=amount)


class L1Unstructured(_Unstructured):
    """Prunes `amount` of the elements: those of the smallest magnitude."""

    def _scores(self, t):
        return t.abs()

    @classmethod
    def apply(cls, module, name, amount, importance_scores=None):
        return super().apply(module, name, amount=amount, importance_scores=importance_scores)


def _slices_mask(t, dim, kept):
    """Ones on the slices `kept` (indices along dim) of t's shape, zeros elsewhere."""
    mask = t.detach() * 0
    shape = [1] * t.ndim
    shape[dim] = t.shape[dim]
    keep = (t.detach().new_zeros(t.shape[dim]).index_fill(0, kept, 1)).reshape(shape)
    return mask + keep


class _Structured(BasePruningMethod):
    PRUNING_TYPE = "structured"

    def __init__(self, amount, dim=-1):
        _count(amount, 10 ** 18)
        self.amount, self.dim = amount, dim

    def _scores(self, t, dim):
        raise NotImplementedError

    def compute_mask(self, t, default_mask):
        dim = self.dim if self.dim >= 0 else self.dim + t.ndim
        if not 0 <= dim < t.ndim:
            raise IndexError(f"Invalid index {self.dim} for tensor of size {tuple(t.shape)}")
        size = t.shape[dim]
        n = _count(self.amount, size)
        if n == 0:
            return default_mask
        from ..._ops_math import topk
        kept = topk(self._scores(t, dim), size - n, largest=True).indices
        return _slices_mask(t, dim, kept) * default_mask.to(t.dtype)


class RandomStructured(_Structured):
    """Prunes `amount` of the slices along dim, drawn at random."""

    def _scores(self, t, dim):
        from ..._ops_creation import rand
        return rand(t.shape[dim])

    @classmethod
    def apply(cls, module, name, amount, dim=-1):
        return super().apply(module, name, amount=amount, dim=dim)


class LnStructured(_Structured):
    """Prunes `amount` of the slices along dim: those of the smallest Ln norm."""

    def __init__(self, amount, n, dim=-1):
        super().__init__(amount, dim)
        self.n = n

    def _scores(self, t, dim):
        from ..._ops_reduce import norm
        others = [d for d in range(t.ndim) if d != dim]
        return norm(t, p=self.n, dim=others) if others else t.abs()

    @classmethod
    def apply(cls, module, name, amount, n, dim, importance_scores=None):
        return super().apply(module, name, amount=amount, n=n, dim=dim, importance_scores=importance_scores)


class CustomFromMask(BasePruningMethod):
    """Prunes where the given mask is 0."""
    PRUNING_TYPE = "global"

    def __init__(self, mask):
        self.mask = mask

    def compute_mask(self, t, default_mask):
        if tuple(default_mask.shape) != tuple(self.mask.shape):
            raise ValueError(f"custom_from_mask: the mask has shape {tuple(self.mask.shape)}; expected the "
                             f"parameter's {tuple(default_mask.shape)}")
        return default_mask * self.mask.to(default_mask.dtype)

    @classmethod
    def apply(cls, module, name, mask):
        return super().apply(module, name, mask=mask)


def identity(module, name):
    Identity.apply(module, name)
    return module


def random_unstructured(module, name, amount):
    RandomUnstructured.apply(module, name, amount)
    return module


def l1_unstructured(module, name, amount, importance_scores=None):
    L1Unstructured.apply(module, name, amount=amount, importance_scores=importance_scores)
    return module


def random_structured(module, name, amount, dim):
    RandomStructured.apply(module, name, amount, dim)
    return module


def ln_structured(module, name, amount, n, dim, importance_scores=None):
    LnStructured.apply(module, name, amount, n, dim, importance_scores=importance_scores)
    return module


def custom_from_mask(module, name, mask):
    CustomFromMask.apply(module, name, mask)
    return module


def global_unstructured(parameters, pruning_method, importance_scores=None, **kwargs):
    """Prunes the (module, name) pairs together: the method (unstructured) ranks all their
    elements as one vector, each then pruned by its part of the mask."""
    from .. import utils
    parameters = list(parameters)
    scores = importance_scores or {}
    vector = utils.parameters_to_vector([scores.get((m, n), getattr(m, n)).detach() for m, n in parameters])
    default = utils.parameters_to_vector([getattr(m, n + "_mask", None) if hasattr(m, n + "_mask")
                                          else getattr(m, n).detach() * 0 + 1 for m, n in parameters])
    method = pruning_method(**kwargs)
    if method.PRUNING_TYPE != "unstructured":
        raise TypeError(f'Only "unstructured" PRUNING_TYPE supported for the `pruning_method`. Found method '
                        f"{pruning_method} of type {method.PRUNING_TYPE}")
    method._tensor_name = "temp"
    container = PruningContainer(method)
    with no_grad():
        final = container.compute_mask(vector, default)
    start = 0
    for module, name in parameters:
        param = getattr(module, name)
        custom_from_mask(module, name, final[start:start + param.numel()].reshape(list(param.shape)))
        start += param.numel()


def remove(module, name):
    """Makes the pruning of module.name permanent (see BasePruningMethod.remove)."""
    for key, hook in _pruning_hooks(module):
        if hook._tensor_name == name:
            hook.remove(module)
            del module._forward_pre_hooks[key]
            return module
    raise ValueError(f"Parameter '{name}' of module {module} has to be pruned before pruning can be removed")


def is_pruned(module):
    """Whether any submodule of module holds a pruned tensor."""
    return any(_pruning_hooks(m) for m in module.modules())

