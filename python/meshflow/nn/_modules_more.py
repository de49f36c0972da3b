"""meshflow.nn modules, continued (issue 26): SELU, CELU, Softmax2d, InstanceNorm1d/2d and
LocalResponseNorm, each the function of meshflow.nn.functional it names, as torch's."""
from . import functional as F
from ._modules_conv import _init_norm, _norm_load_from_state_dict, _norm_repr
from .modules import Module
from .._ops_reduce import softmax


class SELU(Module):
    """F.selu: scale * elu(x, alpha) with torch's self-normalizing constants."""

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):
        return F.selu(input, self.inplace)

    def extra_repr(self):
        return "inplace=True" if self.inplace else ""


class CELU(Module):
    """F.celu: max(0, x) + min(0, alpha * (exp(x / alpha) - 1))."""

    def __init__(self, alpha=1.0, inplace=False):
        super().__init__()
        self.alpha, self.inplace = alpha, inplace

    def forward(self, input):
        return F.celu(input, self.alpha, self.inplace)

    def extra_repr(self):
        return f"alpha={self.alpha}" + (", inplace=True" if self.inplace else "")


class Softmax2d(Module):
    """softmax over the channels of [N, C, H, W] or [C, H, W] (dim -3)."""

    def forward(self, input):
        if input.ndim not in (3, 4):
            raise ValueError(f"Softmax2d: expected input to be 3D or 4D, got {input.ndim}D instead")
        return softmax(input, -3)


class _InstanceNorm(Module):
    _ndim = None  # the dims of a batched input
    _version = 2
    _load_from_state_dict = _norm_load_from_state_dict

    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=False, track_running_stats=False, device=None,
                 dtype=None, *, bias=True):
        super().__init__()
        _init_norm(self, num_features, eps, momentum, affine, track_running_stats, device, dtype, bias)

    def forward(self, input):
        if input.ndim not in (self._ndim - 1, self._ndim):
            raise ValueError(f"expected {self._ndim - 1}D or {self._ndim}D input (got {input.ndim}D input)")
        unbatched = input.ndim == self._ndim - 1
        feature_dim = input.ndim - self._ndim + 1
        if input.shape[feature_dim] != self.num_features and self.affine:
            raise ValueError(f"expected input's size at dim={feature_dim} to match num_features "
                             f"({self.num_features}), but got: {input.shape[feature_dim]}.")
        x = input.unsqueeze(0) if unbatched else input
        y = F.instance_norm(x, self.running_mean, self.running_var, self.weight, self.bias,
                            self.training or not self.track_running_stats,
                            self.momentum if self.momentum is not None else 0.0, self.eps)
        return y.squeeze(0) if unbatched else y

    def extra_repr(self):
        return _norm_repr(self)


class InstanceNorm1d(_InstanceNorm):
    """Instance normalization of [N, C, L] or [C, L]."""
    _ndim = 3


class InstanceNorm2d(_InstanceNorm):
    """Instance normalization of [N, C, H, W] or [C, H, W]."""
    _ndim = 4


class InstanceNorm3d(_InstanceNorm):
    """Instance normalization of [N, C, D, H, W] or [C, D, H, W]."""
    _ndim = 5


class LocalResponseNorm(Module):
    """F.local_response_norm over the channels (dim 1) of [N, C, ...]."""

    def __init__(self, size, alpha=1e-4, beta=0.75, k=1.0):
        super().__init__()
        self.size, self.alpha, self.beta, self.k = size, alpha, beta, k

    def forward(self, input):
        return F.local_response_norm(input, self.size, self.alpha, self.beta, self.k)

    def extra_repr(self):
        return f"{self.size}, alpha={self.alpha}, beta={self.beta}, k={self.k}"
