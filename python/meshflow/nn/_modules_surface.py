"""meshflow.nn modules, continued (issue 37): Bilinear, PixelShuffle, PixelUnshuffle,
ChannelShuffle, Unfold, Fold, Hardshrink, Softshrink, the padding layers (ZeroPad, ConstantPad,
ReflectionPad, ReplicationPad, 1d to 3d), AdaptiveAvgPool1d / AdaptiveMaxPool1d,
PairwiseDistance, UpsamplingNearest2d / UpsamplingBilinear2d and the losses of
_functional_surface, each the function it names with torch's arguments."""
import math

from . import functional as F
from .modules import Module, Parameter, _Loss, _uniform
from ._modules_conv import Upsample


class Bilinear(Module):
    """y = x1^T W x2 + b, weight [out, in1, in2] and bias U(-1/sqrt(in1), 1/sqrt(in1)) as torch's."""

    def __init__(self, in1_features, in2_features, out_features, bias=True, device=None, dtype=None):
        super().__init__()
        self.in1_features, self.in2_features, self.out_features = in1_features, in2_features, out_features
        bound = 1 / math.sqrt(in1_features)
        self.weight = Parameter(_uniform((out_features, in1_features, in2_features), bound, device, dtype))
        self.bias = Parameter(_uniform((out_features,), bound, device, dtype)) if bias else None

    def forward(self, input1, input2):
        return F.bilinear(input1, input2, self.weight, self.bias)

    def extra_repr(self):
        return (f"in1_features={self.in1_features}, in2_features={self.in2_features}, "
                f"out_features={self.out_features}, bias={self.bias is not None}")


class _Reshaper(Module):
    """A module of one function and its keyword arguments."""

    _function = None

    def __init__(self, **kwargs):
        super().__init__()
        self.__dict__.update(kwargs)
        self._names = tuple(kwargs)

    def forward(self, input):
        return type(self)._function(input, *(getattr(self, n) for n in self._names))

    def extra_repr(self):
        return ", ".join(f"{n}={getattr(self, n)}" for n in self._names)


class PixelShuffle(_Reshaper):
    _function = staticmethod(F.pixel_shuffle)

    def __init__(self, upscale_factor):
        super().__init__(upscale_factor=upscale_factor)


class PixelUnshuffle(_Reshaper):
    _function = staticmethod(F.pixel_unshuffle)

    def __init__(self, downscale_factor):
        super().__init__(downscale_factor=downscale_factor)


class ChannelShuffle(_Reshaper):
    _function = staticmethod(F.channel_shuffle)

    def __init__(self, groups):
        super().__init__(groups=groups)


class Unfold(_Reshaper):
    _function = staticmethod(F.unfold)

    def __init__(self, kernel_size, dilation=1, padding=0, stride=1):
        super().__init__(kernel_size=kernel_size, dilation=dilation, padding=padding, stride=stride)


class Fold(_Reshaper):
    _function = staticmethod(F.fold)

    def __init__(self, output_size, kernel_size, dilation=1, padding=0, stride=1):
        super().__init__(output_size=output_size, kernel_size=kernel_size, dilation=dilation, padding=padding,
                         stride=stride)


class Hardshrink(_Reshaper):
    _function = staticmethod(F.hardshrink)

    def __init__(self, lambd=0.5):
        super().__init__(lambd=lambd)


class Softshrink(Hardshrink):
    _function = staticmethod(F.softshrink)


class _Pad(Module):
    """F.pad with one padding (an int for every side, or torch's tuple) and mode."""

    _dims, _mode, _zero = 1, "constant", False

    def __init__(self, padding, value=0.0):
        super().__init__()
        self.padding = tuple(padding) if isinstance(padding, (tuple, list)) else (int(padding),) * (2 * self._dims)
        if len(self.padding) != 2 * self._dims:
            raise ValueError(f"{type(self).__name__}: padding {padding!r}; expected an int or {2 * self._dims} ints")
        self.value = value

    def forward(self, input):
        if self._mode == "constant":
            return F.pad(input, self.padding, value=self.value)
        return F.pad(input, self.padding, mode=self._mode)

    def extra_repr(self):  # torch's: ConstantPad names its arguments, the others show the padding
        return f"padding={self.padding}, value={self.value}" if self._mode == "constant" and not self._zero \
            else f"{self.padding}"


def _pad_class(name, dims, mode, zero=False):
    if mode == "constant" and not zero:
        def __init__(self, padding, value):
            _Pad.__init__(self, padding, value)
    else:
        def __init__(self, padding):
            _Pad.__init__(self, padding)
    what = "zeros" if zero else "a value" if mode == "constant" else f"mode {mode!r}"
    return type(name, (_Pad,), {"_dims": dims, "_mode": mode, "_zero": zero, "__init__": __init__,
                                "__doc__": f"F.pad of the last {dims} dim(s) with {what}."})


ZeroPad1d, ZeroPad2d, ZeroPad3d = (_pad_class(f"ZeroPad{d}d", d, "constant", True) for d in (1, 2, 3))
ConstantPad1d, ConstantPad2d, ConstantPad3d = (_pad_class(f"ConstantPad{d}d", d, "constant") for d in (1, 2, 3))
ReflectionPad1d, ReflectionPad2d, ReflectionPad3d = (_pad_class(f"ReflectionPad{d}d", d, "reflect") for d in (1, 2, 3))
ReplicationPad1d, ReplicationPad2d, ReplicationPad3d = (_pad_class(f"ReplicationPad{d}d", d, "replicate")
                                                        for d in (1, 2, 3))


class AdaptiveAvgPool1d(_Reshaper):
    _function = staticmethod(F.adaptive_avg_pool1d)

    def __init__(self, output_size):
        super().__init__(output_size=output_size)


class AdaptiveMaxPool1d(_Reshaper):
    _function = staticmethod(F.adaptive_max_pool1d)

    def __init__(self, output_size, return_indices=False):
        super().__init__(output_size=output_size, return_indices=return_indices)

    def extra_repr(self):
        return f"output_size={self.output_size}"  # torch's, as its 2-d and 3-d pools


class PairwiseDistance(Module):
    def __init__(self, p=2.0, eps=1e-6, keepdim=False):
        super().__init__()
        self.norm, self.eps, self.keepdim = p, eps, keepdim

    def forward(self, x1, x2):
        return F.pairwise_distance(x1, x2, self.norm, self.eps, self.keepdim)


class UpsamplingNearest2d(Upsample):
    """Upsample with mode 'nearest', as torch's."""

    def __init__(self, size=None, scale_factor=None):
        super().__init__(size, scale_factor, mode="nearest")


class UpsamplingBilinear2d(Upsample):
    """Upsample with mode 'bilinear' and align_corners=True, as torch's."""

    def __init__(self, size=None, scale_factor=None):
        super().__init__(size, scale_factor, mode="bilinear", align_corners=True)


class MarginRankingLoss(_Loss):
    _function = staticmethod(F.margin_ranking_loss)

    def __init__(self, margin=0.0, size_average=None, reduce=None, reduction="mean"):
        super().__init__(size_average, reduce, reduction, margin=margin)


class HingeEmbeddingLoss(_Loss):
    _function = staticmethod(F.hinge_embedding_loss)

    def __init__(self, margin=1.0, size_average=None, reduce=None, reduction="mean"):
        super().__init__(size_average, reduce, reduction, margin=margin)


class SoftMarginLoss(_Loss):
    _function = staticmethod(F.soft_margin_loss)

    def __init__(self, size_average=None, reduce=None, reduction="mean"):
        super().__init__(size_average, reduce, reduction)


class MultiLabelSoftMarginLoss(_Loss):
    _function = staticmethod(F.multilabel_soft_margin_loss)

    def __init__(self, weight=None, size_average=None, reduce=None, reduction="mean"):
        super().__init__(size_average, reduce, reduction)
        self.register_buffer("weight", weight)

    def forward(self, input, target):
        return F.multilabel_soft_margin_loss(input, target, self.weight, reduction=self.reduction)


class MultiLabelMarginLoss(_Loss):
    _function = staticmethod(F.multilabel_margin_loss)

    def __init__(self, size_average=None, reduce=None, reduction="mean"):
        super().__init__(size_average, reduce, reduction)


class MultiMarginLoss(_Loss):
    def __init__(self, p=1, margin=1.0, weight=None, size_average=None, reduce=None, reduction="mean"):
        super().__init__(size_average, reduce, reduction)
        if p not in (1, 2):
            raise ValueError("MultiMarginLoss: only p == 1 and p == 2 supported")
        self.p, self.margin = p, margin
        self.register_buffer("weight", weight)

    def forward(self, input, target):
        return F.multi_margin_loss(input, target, self.p, self.margin, self.weight, reduction=self.reduction)


class CosineEmbeddingLoss(_Loss):
    _function = staticmethod(F.cosine_embedding_loss)

    def __init__(self, margin=0.0, size_average=None, reduce=None, reduction="mean"):
        super().__init__(size_average, reduce, reduction, margin=margin)


class PoissonNLLLoss(_Loss):
    _function = staticmethod(F.poisson_nll_loss)

    def __init__(self, log_input=True, full=False, size_average=None, eps=1e-8, reduce=None, reduction="mean"):
        super().__init__(size_average, reduce, reduction, log_input=log_input, full=full, eps=eps)


class GaussianNLLLoss(_Loss):
    _function = staticmethod(F.gaussian_nll_loss)

    def __init__(self, *, full=False, eps=1e-6, reduction="mean"):
        super().__init__(reduction=reduction, full=full, eps=eps)


class TripletMarginLoss(_Loss):
    _function = staticmethod(F.triplet_margin_loss)

    def __init__(self, margin=1.0, p=2.0, eps=1e-6, swap=False, size_average=None, reduce=None, reduction="mean"):
        super().__init__(size_average, reduce, reduction, margin=margin, p=p, eps=eps, swap=swap)


class TripletMarginWithDistanceLoss(_Loss):
    _function = staticmethod(F.triplet_margin_with_distance_loss)

    def __init__(self, *, distance_function=None, margin=1.0, swap=False, reduction="mean"):
        super().__init__(reduction=reduction, distance_function=distance_function, margin=margin, swap=swap)


class CTCLoss(_Loss):
    _function = staticmethod(F.ctc_loss)

    def __init__(self, blank=0, reduction="mean", zero_infinity=False):
        super().__init__(reduction=reduction, blank=blank, zero_infinity=zero_infinity)
