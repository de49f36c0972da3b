"""meshflow.nn modules, third round (issue 37): EmbeddingBag, RReLU, AlphaDropout,
FeatureAlphaDropout, LPPool1d / LPPool2d, MaxUnpool1d / MaxUnpool2d, FractionalMaxPool2d and CircularPad1d to 3d,
each the function of _functional_surface2 it names, with torch's arguments."""
from . import functional as F
from ._modules_extra import Dropout
from ._modules_surface import _pad_class
from .modules import Module, Parameter, _init_devices
from .._ops_creation import randn


class EmbeddingBag(Module):
    """Sums, means or maxima of bags of rows of weight [num_embeddings, embedding_dim]
    (initialized N(0, 1) as torch's; the row padding_idx starts at zero): F.embedding_bag."""

    def __init__(self, num_embeddings, embedding_dim, max_norm=None, norm_type=2.0, scale_grad_by_freq=False,
                 mode="mean", sparse=False, _weight=None, include_last_offset=False, padding_idx=None, device=None,
                 dtype=None):
        super().__init__()
        if scale_grad_by_freq or sparse:
            raise NotImplementedError("EmbeddingBag: scale_grad_by_freq and sparse gradients are not supported")
        self.num_embeddings, self.embedding_dim = num_embeddings, embedding_dim
        self.max_norm, self.norm_type, self.mode = max_norm, norm_type, mode
        self.scale_grad_by_freq, self.sparse, self.include_last_offset = scale_grad_by_freq, sparse, include_last_offset
        if padding_idx is not None:
            if not -num_embeddings <= padding_idx < num_embeddings:
                raise ValueError("padding_idx must be within num_embeddings")
            padding_idx %= num_embeddings
        self.padding_idx = padding_idx
        if _weight is None:
            target, drawn_on = _init_devices(device)
            weight = randn(num_embeddings, embedding_dim, device=drawn_on).to(device=target, dtype=dtype)
            if padding_idx is not None:
                weight[padding_idx] = 0.0
        else:
            if tuple(_weight.shape) != (num_embeddings, embedding_dim):
                raise ValueError("Shape of weight does not match num_embeddings and embedding_dim")
            weight = _weight.detach()
        self.weight = Parameter(weight)

    def forward(self, input, offsets=None, per_sample_weights=None):
        return F.embedding_bag(input, self.weight, offsets, self.max_norm, self.norm_type, mode=self.mode,
                               per_sample_weights=per_sample_weights, include_last_offset=self.include_last_offset,
                               padding_idx=self.padding_idx)

    @classmethod
    def from_pretrained(cls, embeddings, freeze=True, max_norm=None, norm_type=2.0, scale_grad_by_freq=False,
                        mode="mean", sparse=False, include_last_offset=False, padding_idx=None):
        """An EmbeddingBag whose weight is `embeddings`, frozen unless freeze=False."""
        rows, cols = embeddings.shape
        bag = cls(rows, cols, max_norm, norm_type, scale_grad_by_freq, mode, sparse, embeddings,
                  include_last_offset, padding_idx)
        bag.weight.requires_grad = not freeze
        return bag

    def extra_repr(self):
        return f"{self.num_embeddings}, {self.embedding_dim}, mode='{self.mode}'"


class RReLU(Module):
    """F.rrelu: random negative slopes in [lower, upper] in training, their mean otherwise."""

    def __init__(self, lower=1.0 / 8, upper=1.0 / 3, inplace=False):
        super().__init__()
        self.lower, self.upper, self.inplace = lower, upper, inplace

    def forward(self, input):
        return F.rrelu(input, self.lower, self.upper, self.training, self.inplace)

    def extra_repr(self):
        return f"lower={self.lower}, upper={self.upper}"


class AlphaDropout(Dropout):
    """F.alpha_dropout in training mode: dropout that keeps selu's mean and variance."""

    def forward(self, input):
        return F.alpha_dropout(input, self.p, self.training, self.inplace)


class FeatureAlphaDropout(Dropout):
    """F.feature_alpha_dropout in training mode: alpha dropout of whole channels."""

    def forward(self, input):
        return F.feature_alpha_dropout(input, self.p, self.training, self.inplace)


class _LPPool(Module):
    def __init__(self, norm_type, kernel_size, stride=None, ceil_mode=False):
        super().__init__()
        self.norm_type, self.kernel_size, self.stride, self.ceil_mode = norm_type, kernel_size, stride, ceil_mode

    def forward(self, input):
        return self._function(input, self.norm_type, self.kernel_size, self.stride, self.ceil_mode)

    def extra_repr(self):
        return f"norm_type={self.norm_type}, kernel_size={self.kernel_size}, stride={self.stride}, " \
               f"ceil_mode={self.ceil_mode}"


class LPPool1d(_LPPool):
    """F.lp_pool1d: the norm_type-norm of each window."""
    _function = staticmethod(F.lp_pool1d)


class LPPool2d(_LPPool):
    """F.lp_pool2d: the norm_type-norm of each 2-d window."""
    _function = staticmethod(F.lp_pool2d)


class _MaxUnpool(Module):
    _dims = None

    def __init__(self, kernel_size, stride=None, padding=0):
        super().__init__()
        as_tuple = lambda v: tuple(v) if isinstance(v, (tuple, list)) else (v,) * self._dims  # noqa: E731: torch's
        self.kernel_size, self.stride = as_tuple(kernel_size), as_tuple(stride or kernel_size)
        self.padding = as_tuple(padding)

    def forward(self, input, indices, output_size=None):
        return self._function(input, indices, self.kernel_size, self.stride, self.padding, output_size)

    def extra_repr(self):
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class MaxUnpool1d(_MaxUnpool):
    """F.max_unpool1d: max_pool1d's values put back at their indices, zeros elsewhere."""
    _function = staticmethod(F.max_unpool1d)
    _dims = 1


class MaxUnpool2d(_MaxUnpool):
    """F.max_unpool2d: max_pool2d's values put back at their indices, zeros elsewhere."""
    _function = staticmethod(F.max_unpool2d)
    _dims = 2


class FractionalMaxPool2d(Module):
    """F.fractional_max_pool2d (its windows from meshflow's generator unless _random_samples
    gives torch's samples)."""

    def __init__(self, kernel_size, output_size=None, output_ratio=None, return_indices=False, _random_samples=None):
        super().__init__()
        if output_size is None and output_ratio is None:
            raise ValueError("FractionalMaxPool2d requires specifying either an output size, or a pooling ratio")
        if output_size is not None and output_ratio is not None:
            raise ValueError("only one of output_size and output_ratio may be specified")
        ratios = (output_ratio,) * 2 if isinstance(output_ratio, (int, float)) else output_ratio
        if ratios is not None and not all(0 < r < 1 for r in ratios):
            raise ValueError(f"output_ratio must be between 0 and 1 (got {output_ratio})")
        self.kernel_size, self.output_size, self.output_ratio = kernel_size, output_size, output_ratio
        self.return_indices = return_indices
        self._random_samples = _random_samples  # read on the host (torch keeps them as a buffer)

    def forward(self, input):
        return F.fractional_max_pool2d(input, self.kernel_size, self.output_size, self.output_ratio,
                                       self.return_indices, _random_samples=self._random_samples)


CircularPad1d, CircularPad2d, CircularPad3d = (_pad_class(f"CircularPad{d}d", d, "circular") for d in (1, 2, 3))
