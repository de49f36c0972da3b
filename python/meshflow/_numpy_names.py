"""The keywords torch's argument parser takes beside a function's own parameters. NumPy's
names: torch reads `axis` as `dim` and `keepdims` as `keepdim`, so `x.sum(axis=1)` and
`P.sum(1, keepdims=True)` (Karpathy's makemore) run. And `out=` on the top-level functions
(`torch.matmul(a, b, out=c)`, the tensor tutorial's): the result written into the given tensor
(tensors, for functions returning several), which is returned. install() gives every public
meshflow function and Tensor method with a `dim` or `keepdim` parameter the two names, and
every public function `out=`, once, at import.

Thread-safety: install() runs at import; the wrappers are stateless."""
import functools
import inspect
import sys

_ALIASES = {"axis": "dim", "keepdims": "keepdim"}


def _written(name, out, result):
    """torch's out=: `result` copied into `out` in out's dtype (resized, with torch's warning,
    when out has other elements), out returned; refused as torch refuses it where autograd
    would record the write or the dtype cannot hold the result."""
    from ._tensor import Tensor, is_grad_enabled, no_grad
    from ._promotion import can_cast
    if isinstance(out, (tuple, list)):
        if not isinstance(result, tuple) or len(result) != len(out):
            raise TypeError(f"{name}(): out= got {len(out)} tensors; expected one per result")
        written = [_written(name, o, r) for o, r in zip(out, result)]
        return type(result)(*written) if hasattr(result, "_fields") else tuple(written)
    if not isinstance(out, Tensor):
        raise TypeError(f"{name}(): argument 'out' must be Tensor, not {type(out).__name__}")
    if not isinstance(result, Tensor):
        raise TypeError(f"{name}() got an unexpected keyword argument 'out': it returns {type(result).__name__}")
    if is_grad_enabled() and (result.requires_grad or out.requires_grad):
        raise RuntimeError(f"{name}(): functions with out=... arguments don't support automatic differentiation, "
                           "but one of the arguments requires grad.")
    if not can_cast(result.dtype, out.dtype):
        raise RuntimeError(f"result type {result.dtype} can't be cast to the desired output type {out.dtype}")
    with no_grad():
        if tuple(out.shape) == tuple(result.shape):
            out.copy_(result)
        else:
            if out.numel():
                import warnings
                warnings.warn(f"An output with one or more elements was resized since it had shape "
                              f"{list(out.shape)}, which does not match the required output shape "
                              f"{list(result.shape)}.", UserWarning, stacklevel=3)
            out.data = result.to(out.dtype)
    return out


def _renaming(f, names, takes_out):
    @functools.wraps(f)
    def call(*args, **kwargs):
        if kwargs:
            for alias, name in _ALIASES.items():
                if alias in kwargs and name in names:
                    if name in kwargs:
                        raise TypeError(f"{f.__name__}() got both {name!r} and its NumPy name {alias!r}")
                    kwargs[name] = kwargs.pop(alias)
            if takes_out and "out" in kwargs:
                out = kwargs.pop("out")
                if out is not None:
                    return _written(f.__name__, out, f(*args, **kwargs))
        return f(*args, **kwargs)
    call.numpy_names = True
    return call


def wrapped(f, takes_out=False):
    """`f` taking the NumPy names too (and, takes_out, `out=`), or None where it needs no
    wrapper (not a Python function, no `dim` or `keepdim` and no `out=` to add, taking the
    names already). The Tensor methods in C (_tensor._in_c) send every call with keywords to
    their Python method, which is wrapped there."""
    if getattr(f, "numpy_names", False):
        return None
    if not inspect.isfunction(f):
        # A function in C over a Python one (_ops_shape.cat): the C object made again over
        # the wrapped Python function, so its keyword calls (which it sends there) take the
        # names, and its positional fast path stays.
        inner, remake = getattr(f, "__wrapped__", None), getattr(f, "remake", None)
        if remake is None or not inspect.isfunction(inner) or (w := wrapped(inner, takes_out)) is None:
            return None
        made = functools.update_wrapper(remake(w), inner)
        made.remake, made.numpy_names = remake, True
        return made
    try:
        params = set(inspect.signature(f).parameters)
    except (TypeError, ValueError):
        return None
    names = {name for name in _ALIASES.values() if name in params}
    takes_out = takes_out and "out" not in params
    if (not names and not takes_out) or params & set(_ALIASES):
        return None
    return _renaming(f, names, takes_out)


def install(namespace, names, tensor_class):
    """Wraps namespace[name] for each of `names`, and tensor_class's own methods. One function
    gets one wrapper, which replaces it under every public name of meshflow's public modules
    too (mf.softmax stays mf.nn.functional.softmax); the private modules keep calling the
    functions themselves."""
    done = {}
    names = list(dict.fromkeys(names))  # a name listed twice is wrapped once
    for f in [namespace.get(name) for name in names]:
        if id(f) not in done:
            done[id(f)] = (f, wrapped(f, takes_out=True) or f)
    for f in vars(tensor_class).values():
        if id(f) not in done:
            done[id(f)] = (f, wrapped(f) or f)
    for name in names:
        namespace[name] = done[id(namespace.get(name))][1]
    for name, f in list(vars(tensor_class).items()):
        if done[id(f)][1] is not f:
            setattr(tensor_class, name, done[id(f)][1])
    public = [m for name, m in list(sys.modules.items())
              if name.startswith("meshflow.") and not any(part.startswith("_") for part in name.split("."))]
    for module in public:
        for name, value in list(vars(module).items()):
            replacement = done.get(id(value), (None, None))
            if replacement[0] is value and replacement[1] is not value and not name.startswith("_"):
                setattr(module, name, replacement[1])
