"""meshflow.device: a device type and index, as torch.device.

Device types are registered in C++ (meshflow/device/device.h); `device_types()` lists them.
A local tensor lives on one device; a global tensor's placement names its device type.
"""

from . import _C


_known = ("cpu",)
# The default device of creation ops (set_default_device): None for the CPU, where they run.
default = None


def _registered(name):
    """Whether `name` is a registered device type (asking C++ only for names not seen yet:
    types are only ever added)."""
    global _known
    if name not in _known:
        _known = tuple(_C.device_types())
    return name in _known


def device_types():
    """The registered device types, "cpu" first."""
    return list(_C.device_types())


class device:
    """device("cpu"), device("cpu:0"), device("cpu", 0), or another device (copied)."""

    __slots__ = ("_type", "_index", "_outer")

    def __init__(self, type, index=None):
        if isinstance(type, device):
            if index is not None:
                raise ValueError("device: an index goes with a type name, not a device")
            type, index = type.type, type.index
        if not isinstance(type, str):
            raise TypeError(f"device: expected a device type name such as 'cpu', got {type!r}")
        name = type
        if ":" in name:
            if index is not None:
                raise ValueError(f"device: {name!r} has an index already; got index={index!r} too")
            name, _, text = name.partition(":")
            if not text.isdigit():
                raise ValueError(f"device: {type!r}: the index after ':' must be a non-negative integer")
            index = int(text)
        if not _registered(name):
            raise _C.OpError(f"device: '{name}' is not a registered device type; registered: "
                             + ", ".join(_C.device_types()))
        if index is not None and (not isinstance(index, int) or isinstance(index, bool) or index < 0):
            raise ValueError(f"device: index must be a non-negative integer, got {index!r}")
        self._type, self._index = name, index
        self._outer = []  # the default devices its `with` blocks replaced, innermost last

    @property
    def type(self):
        return self._type

    @property
    def index(self):
        return self._index

    def __eq__(self, other):
        if isinstance(other, str):
            other = device(other)
        if not isinstance(other, device):
            return NotImplemented
        return self._type == other._type and self._index == other._index

    def __hash__(self):
        return hash((self._type, self._index))

    def __str__(self):
        return self._type if self._index is None else f"{self._type}:{self._index}"

    def __repr__(self):
        return f"device(type='{self._type}')" if self._index is None else \
            f"device(type='{self._type}', index={self._index})"

    def __enter__(self):
        """`with torch.device(d):` makes d the default device of the block, as
        set_default_device(d): creation ops and layers' parameters made without device= go
        there (`with mf.device("meta"): model = Big()` builds a model without its memory);
        the one before comes back at exit. Blocks nest."""
        from ._ops_port3 import get_default_device, set_default_device
        self._outer.append(get_default_device())
        set_default_device(self)
        return self

    def __exit__(self, *exc):
        from ._ops_port3 import set_default_device
        set_default_device(self._outer.pop())
        return False
