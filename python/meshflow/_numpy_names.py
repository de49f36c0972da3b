"""NumPy's argument names that torch's native functions take beside their own: torch's
argument parser reads `axis` as `dim` and `keepdims` as `keepdim`, so `x.sum(axis=1)` and
`P.sum(1, keepdims=True)` (Karpathy's makemore) run. install() gives every public meshflow
function and Tensor method with a `dim` or `keepdim` parameter the same two names, once, at
import.

Thread-safety: install() runs at import; the wrappers are stateless."""
import functools
import inspect
import sys

_ALIASES = {"axis": "dim", "keepdims": "keepdim"}


def _renaming(f, names):
    @functools.wraps(f)
    def call(*args, **kwargs):
        if kwargs:
            for alias, name in _ALIASES.items():
                if alias in kwargs and name in names:
                    if name in kwargs:
                        raise TypeError(f"{f.__name__}() got both {name!r} and its NumPy name {alias!r}")
                    kwargs[name] = kwargs.pop(alias)
        return f(*args, **kwargs)
    call.numpy_names = True
    return call


def wrapped(f):
    """`f` taking the NumPy names too, or None where it needs no wrapper (not a Python function,
    no `dim` or `keepdim`, taking the names already). The Tensor methods in C (_tensor._in_c)
    send every call with keywords to their Python method, which is wrapped there."""
    if not inspect.isfunction(f) or getattr(f, "numpy_names", False):
        return None
    try:
        params = set(inspect.signature(f).parameters)
    except (TypeError, ValueError):
        return None
    names = {name for name in _ALIASES.values() if name in params}
    if not names or params & set(_ALIASES):
        return None
    return _renaming(f, names)


def install(namespace, names, tensor_class):
    """Wraps namespace[name] for each of `names`, and tensor_class's own methods. One function
    gets one wrapper, which replaces it under every public name of meshflow's public modules
    too (mf.softmax stays mf.nn.functional.softmax); the private modules keep calling the
    functions themselves."""
    done = {}
    for f in [namespace.get(name) for name in names] + list(vars(tensor_class).values()):
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
