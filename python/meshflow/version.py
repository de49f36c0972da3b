"""meshflow.version, as torch.version: `__version__` names the torch API meshflow's surface
follows (scripts compare `torch.__version__` to choose an API), tagged +meshflow; it compares
as a version with strings and tuples (`mf.__version__ >= "2.0"`, `< (2, 1)`), as torch's
TorchVersion. `cuda` and `hip` are None (torch's CPU build's values: meshflow's GPU support
does not come from a torch build). Thread-safe: constants only."""
import re as _re

__all__ = ["__version__", "cuda", "hip", "debug", "git_version"]


def _parts(value):
    """A version's numeric release parts: "2.6.0+meshflow" -> (2, 6, 0)."""
    if isinstance(value, tuple):
        return tuple(int(v) for v in value)
    match = _re.match(r"\d+(\.\d+)*", str(value))
    if match is None:
        raise ValueError(f"not a version: {value!r}")
    return tuple(int(v) for v in match.group(0).split("."))


def _padded(a, b):
    n = max(len(a), len(b))
    return a + (0,) * (n - len(a)), b + (0,) * (n - len(b))


class TorchVersion(str):
    """A version string compared by its release numbers (torch.torch_version.TorchVersion)."""

    def _cmp(self, other, op):
        try:
            a, b = _padded(_parts(self), _parts(other))
        except (ValueError, TypeError):
            return NotImplemented
        return op(a, b)

    def __lt__(self, other):
        return self._cmp(other, tuple.__lt__)

    def __le__(self, other):
        return self._cmp(other, tuple.__le__)

    def __gt__(self, other):
        return self._cmp(other, tuple.__gt__)

    def __ge__(self, other):
        return self._cmp(other, tuple.__ge__)

    __hash__ = str.__hash__


__version__ = TorchVersion("2.6.0+meshflow")
cuda = None
hip = None
debug = False
git_version = "unknown"
