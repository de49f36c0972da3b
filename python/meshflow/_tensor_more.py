"""Tensor methods and functions that torch spells another way, each an existing op under
torch's name (issue 37): multiply, divide, subtract, greater, greater_equal, less,
less_equal, not_equal; Tensor.reshape_as, ravel, unflatten, broadcast_to, bfloat16(), is_cpu,
is_cuda, is_meta, is_xpu, is_mps and get_device."""
import builtins
import math

from . import _dtype
from ._ops_elementwise import div, ge, gt, le, lt, mul, ne, sub
from ._tensor import Tensor

multiply, divide, subtract = mul, div, sub
greater, greater_equal, less, less_equal, not_equal = gt, ge, lt, le, ne
for _name, _f in (("multiply", mul), ("divide", div), ("subtract", sub), ("greater", gt), ("greater_equal", ge),
                  ("less", lt), ("less_equal", le), ("not_equal", ne)):
    setattr(Tensor, _name, _f)


def _unflatten(self, dim, sizes):
    """Splits dim `dim` into `sizes` (one may be -1, inferred from that dim's size alone, so
    a tensor of no elements unflattens too), as torch's."""
    dim = dim % builtins.max(self.ndim, 1)
    shape = list(self.shape)
    sizes = [int(n) for n in sizes]
    if sizes.count(-1) == 1:
        known = math.prod(n for n in sizes if n != -1)
        size = shape[dim] if shape else 1
        if known == 0 or size % known:
            raise RuntimeError(f"unflatten: provided sizes {sizes} don't multiply up to the size of dim {dim} "
                               f"({size}) in the input tensor")
        sizes[sizes.index(-1)] = size // known
    return self.reshape(shape[:dim] + sizes + shape[dim + 1:])


def _device_type(t):
    return t.placement.type if t.is_global else t.device.type


Tensor.unflatten = _unflatten
Tensor.reshape_as = lambda self, other: self.reshape(list(other.shape))
Tensor.ravel = lambda self: self.reshape([-1])
Tensor.broadcast_to = lambda self, size: self.expand(*size)
Tensor.bfloat16 = lambda self: self.to(_dtype.bfloat16)
for _type in ("cpu", "cuda", "meta", "xpu", "mps"):  # programs ask for kinds meshflow lacks too: `input.is_xpu`
    setattr(Tensor, f"is_{_type}", property(lambda self, _type=_type: _device_type(self) == _type))
# torch's: -1 on the CPU, else the device's index.
Tensor.get_device = lambda self: -1 if _device_type(self) == "cpu" or self.is_global else (self.device.index or 0)

__all__ = ["multiply", "divide", "subtract", "greater", "greater_equal", "less", "less_equal", "not_equal"]
