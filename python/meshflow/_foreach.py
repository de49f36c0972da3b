"""torch's _foreach_* functions (torch._foreach_mul_(params, 0.9), ...): each applies a Tensor
method to every tensor of a list, with the other argument a list of tensors, a list of
numbers or one number (or tensor), as torch's. EMA and optimizer code written for torch
calls them; here they are loops over the methods (meshflow has no multi-tensor kernels),
the in-place forms (trailing "_") writing each tensor, the others returning a list. The
names are private in torch too; meshflow binds them under torch's names only."""
from ._tensor import Tensor

# name -> how many tensor-or-number arguments follow the list (0: unary).
_BINARY = {"add": 1, "sub": 1, "mul": 1, "div": 1, "maximum": 1, "minimum": 1, "pow": 1, "clamp_min": 1,
           "clamp_max": 1, "lerp": 2, "addcmul": 2, "addcdiv": 2}
_UNARY = ("neg", "abs", "sqrt", "exp", "log", "sign", "reciprocal", "sigmoid", "tanh", "ceil", "floor", "round",
          "trunc", "frac", "log1p", "expm1", "sin", "cos", "erf", "rsqrt")


def _per_tensor(arg, n, name):
    """arg spread over n tensors: a list (one each), else the same value for all."""
    if isinstance(arg, (list, tuple)):
        if len(arg) != n:
            raise RuntimeError(f"_foreach_{name}: expected {n} values, one per tensor, got {len(arg)}")
        return list(arg)
    return [arg] * n


def _make(name, arity, in_place):
    method = name + ("_" if in_place else "")

    def foreach(tensors, *args, **kwargs):
        tensors = list(tensors)
        if any(not isinstance(t, Tensor) for t in tensors):
            raise TypeError(f"_foreach_{method}: expected a list of meshflow Tensors")
        if len(args) > arity:
            raise TypeError(f"_foreach_{method} takes {arity} argument(s) after the tensors, got {len(args)}")
        spread = [_per_tensor(a, len(tensors), method) for a in args]
        out = [getattr(t, method)(*(s[i] for s in spread), **kwargs) for i, t in enumerate(tensors)]
        return None if in_place else out
    foreach.__name__ = f"_foreach_{method}"
    foreach.__doc__ = f"Tensor.{method} of each tensor (lists or one value for the other arguments), as torch's."
    return foreach


def _norm(tensors, ord=2, dtype=None):
    """The ord-norm of each tensor, as torch._foreach_norm."""
    from .linalg import vector_norm
    return [vector_norm(t, ord, dtype=dtype) for t in tensors]


def _zero_(tensors):
    for t in tensors:
        t.zero_()


def _copy_(tensors, sources, non_blocking=False):
    for t, s in zip(tensors, _per_tensor(sources, len(tensors), "copy_")):
        t.copy_(s)


FUNCTIONS = {"_foreach_norm": _norm, "_foreach_zero_": _zero_, "_foreach_copy_": _copy_}
for _name, _arity in list(_BINARY.items()) + [(n, 0) for n in _UNARY]:
    for _in_place in (False, True):
        FUNCTIONS[f"_foreach_{_name}{'_' if _in_place else ''}"] = _make(_name, _arity, _in_place)
