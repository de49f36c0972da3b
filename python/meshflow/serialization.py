"""meshflow.serialization: torch.serialization's allowlist for load's weights-only unpickling.

A file holding a whole module (save(model)) holds pickled objects; load() with weights_only
left at its default unpickles them only when every global the pickle names is data-only
(containers, tensors, parameters, NumPy arrays) or allowed by the program: add_safe_globals,
or the safe_globals context (torch's spelling), listing the classes and functions it trusts.
Anything else is refused, naming the global to allow. The allowlist is process-wide and not
thread-safe (as torch's); the context restores it on exit."""
import collections
import contextlib
import pickle

__all__ = ["add_safe_globals", "get_safe_globals", "clear_safe_globals", "safe_globals"]

_allowed = []


def add_safe_globals(globals_):
    """Allows each of `globals_` (a class or function, or torch's (object, "module.name") pair)
    in weights-only loads from now on."""
    _allowed.extend(g[0] if isinstance(g, tuple) else g for g in globals_)


def get_safe_globals():
    return list(_allowed)


def clear_safe_globals():
    del _allowed[:]


@contextlib.contextmanager
def safe_globals(globals_):
    """add_safe_globals for the block only."""
    saved = list(_allowed)
    add_safe_globals(globals_)
    try:
        yield
    finally:
        _allowed[:] = saved


def _data_globals():
    """What a saved module's pickle names beside its classes: containers and tensor data."""
    import numpy as np
    from . import _tensor
    from .nn import Parameter
    from ._dtype import dtype
    numpy_core = getattr(np, "_core", None) or np.core  # NumPy 2 renamed it; its old name warns there
    return [collections.OrderedDict, _tensor._unpickle, _tensor.Tensor, Parameter, dtype, np.ndarray, np.dtype,
            numpy_core.multiarray._reconstruct]


class _WeightsOnly(pickle.Unpickler):
    def find_class(self, module, name):
        found = super().find_class(module, name)
        if not any(found is g for g in _allowed + _data_globals()):
            raise pickle.UnpicklingError(
                f"[load] Weights only load failed: unsupported global {module}.{name}; expected only tensors and "
                f"containers, or globals the program trusts: list it with meshflow.serialization.add_safe_globals("
                f"[{name}]) or within `with meshflow.serialization.safe_globals([{name}]):`, or pass "
                "weights_only=False if you trust the file's source")
        return found


def weights_only_loads(data):
    """`data` (a pickle) unpickled with only the allowed globals."""
    import io
    return _WeightsOnly(io.BytesIO(data)).load()
