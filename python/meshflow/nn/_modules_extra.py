"""meshflow.nn modules, continued (issue 26): the activations with torch's inplace= argument
(ReLU, ReLU6, Hardtanh, Threshold, SiLU, Mish, Hardswish, Hardsigmoid), those without
(Softplus, LogSigmoid, Softsign, Tanhshrink, GLU), PReLU with its parameter, Unflatten and
Dropout(inplace=). Each is the function of the same name in meshflow.nn.functional."""
from .. import _ops_creation
from . import functional as F
from .modules import Module, Parameter


class _InplaceActivation(Module):
    _function = None

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):
        return type(self)._function(input, inplace=self.inplace)

    def extra_repr(self):
        return "inplace=True" if self.inplace else ""


class ReLU(_InplaceActivation):
    _function = staticmethod(F.relu)


class ReLU6(_InplaceActivation):
    _function = staticmethod(F.relu6)


class SiLU(_InplaceActivation):
    _function = staticmethod(F.silu)


class Mish(_InplaceActivation):
    _function = staticmethod(F.mish)


class Hardswish(_InplaceActivation):
    _function = staticmethod(F.hardswish)


class Hardsigmoid(_InplaceActivation):
    _function = staticmethod(F.hardsigmoid)


class Hardtanh(Module):
    def __init__(self, min_val=-1.0, max_val=1.0, inplace=False):
        super().__init__()
        if min_val > max_val:
            raise ValueError("Hardtanh: min_val cannot be greater than max_val")
        self.min_val, self.max_val, self.inplace = min_val, max_val, inplace

    def forward(self, input):
        return F.hardtanh(input, self.min_val, self.max_val, self.inplace)

    def extra_repr(self):
        return f"min_val={self.min_val}, max_val={self.max_val}" + (", inplace=True" if self.inplace else "")


class Threshold(Module):
    def __init__(self, threshold, value, inplace=False):
        super().__init__()
        self.threshold, self.value, self.inplace = threshold, value, inplace

    def forward(self, input):
        return F.threshold(input, self.threshold, self.value, self.inplace)

    def extra_repr(self):
        return f"threshold={self.threshold}, value={self.value}" + (", inplace=True" if self.inplace else "")


class Softplus(Module):
    def __init__(self, beta=1.0, threshold=20.0):
        super().__init__()
        self.beta, self.threshold = beta, threshold

    def forward(self, input):
        return F.softplus(input, self.beta, self.threshold)

    def extra_repr(self):
        return f"beta={self.beta}, threshold={self.threshold}"


class _Plain(Module):
    _function = None

    def forward(self, input):
        return type(self)._function(input)


class LogSigmoid(_Plain):
    _function = staticmethod(F.logsigmoid)


class Softsign(_Plain):
    _function = staticmethod(F.softsign)


class Tanhshrink(_Plain):
    _function = staticmethod(F.tanhshrink)


class GLU(Module):
    def __init__(self, dim=-1):
        super().__init__()
        self.dim = dim

    def forward(self, input):
        return F.glu(input, self.dim)

    def extra_repr(self):
        return f"dim={self.dim}"


class PReLU(Module):
    """max(0, x) + weight * min(0, x), weight [num_parameters] initialized to `init` (one
    weight for every channel, or one per channel of dim 1)."""

    def __init__(self, num_parameters=1, init=0.25, device=None, dtype=None):
        super().__init__()
        self.num_parameters, self.init = num_parameters, init
        self.weight = Parameter(_ops_creation.full((num_parameters,), float(init), dtype=dtype, device=device))

    def forward(self, input):
        return F.prelu(input, self.weight)

    def extra_repr(self):
        return f"num_parameters={self.num_parameters}"


class Unflatten(Module):
    """Expands dim `dim` into `unflattened_size` (a -1 entry is inferred)."""

    def __init__(self, dim, unflattened_size):
        super().__init__()
        if isinstance(dim, str):
            raise NotImplementedError("Unflatten: named dims are not supported")
        if not isinstance(unflattened_size, (tuple, list)):
            raise TypeError(f"unflattened_size must be tuple of ints, but found type {type(unflattened_size).__name__}")
        self.dim, self.unflattened_size = dim, tuple(unflattened_size)

    def forward(self, input):
        dim = self.dim % input.ndim
        shape = list(input.shape)
        return input.reshape(shape[:dim] + list(self.unflattened_size) + shape[dim + 1:])

    def extra_repr(self):
        return f"dim={self.dim}, unflattened_size={self.unflattened_size}"


class Dropout(Module):
    """Zeroes elements with probability p in training mode and scales the others by 1 / (1 - p)."""

    def __init__(self, p=0.5, inplace=False):
        super().__init__()
        if not 0 <= p <= 1:
            raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
        self.p, self.inplace = p, inplace

    def forward(self, input):
        return F.dropout(input, self.p, self.training, self.inplace)

    def extra_repr(self):
        return f"p={self.p}, inplace={self.inplace}"


class Dropout1d(Dropout):
    """Zeroes whole channels of [N, C, L] (or [C, L]) in training mode, scaling the rest by 1 / (1 - p)."""

    def forward(self, input):
        return F.dropout1d(input, self.p, self.training, self.inplace)


class Dropout2d(Dropout):
    """Zeroes whole channels of [N, C, H, W] in training mode, scaling the rest by 1 / (1 - p)."""

    def forward(self, input):
        return F.dropout2d(input, self.p, self.training, self.inplace)


class Dropout3d(Dropout):
    """Zeroes whole channels of [N, C, D, H, W] (or [C, D, H, W]) in training mode, scaling the rest
    by 1 / (1 - p)."""

    def forward(self, input):
        return F.dropout3d(input, self.p, self.training, self.inplace)
