"""The modules of convolutional networks, shaped like torch.nn's: Conv1d/2d/3d, MaxPool1d/2d/3d,
AvgPool1d/2d/3d, AdaptiveAvgPool2d/3d, AdaptiveMaxPool2d/3d, Upsample, BatchNorm1d/2d, SyncBatchNorm,
GroupNorm, RMSNorm. Re-exported by meshflow.nn.

Weights are initialized with torch's formulas from meshflow's generator (same seed, same
values on every rank and layout); BatchNorm's running statistics are buffers: tensors the
module updates in training and reads in eval, not trained.
"""
import math
import numbers

from .._ops_creation import ones, zeros
from .._tensor import no_grad, tensor
from . import _functional_conv as F
from .modules import Module, Parameter, _check_size, _redraw, _reset_affine, _reset_if_overridden, _uniform


def _register_buffer(module, name, value):
    """Module.register_buffer where Module has it (then state_dict, to_global and friends
    see the buffer); until then a plain attribute that only this module reads."""
    register = getattr(module, "register_buffer", None)
    if register is not None:
        register(name, value)
    else:
        object.__setattr__(module, name, value)


def _tuple(value, n):
    return tuple(value) if isinstance(value, (tuple, list)) else (value,) * n


class _ConvNd(Module):
    _dims = 2
    _function = None

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1, bias=True,
                 padding_mode="zeros", device=None, dtype=None):
        super().__init__()
        name = type(self).__name__
        if groups <= 0 or in_channels % groups or out_channels % groups:
            raise ValueError(f"{name}: in_channels {in_channels} and out_channels {out_channels} must be divisible "
                             f"by groups {groups} (a positive int)")
        if padding_mode not in ("zeros", "reflect", "replicate", "circular"):
            raise ValueError(f"{name}: padding_mode {padding_mode!r}; expected 'zeros', 'reflect', 'replicate' or "
                             "'circular'")
        if isinstance(padding, str) and padding not in ("same", "valid"):
            raise ValueError(f"{name}: padding {padding!r}; expected 'valid', 'same', an int or a tuple of ints")
        self.in_channels, self.out_channels, self.groups = in_channels, out_channels, groups
        self.kernel_size = _tuple(kernel_size, self._dims)
        self.stride, self.dilation = _tuple(stride, self._dims), _tuple(dilation, self._dims)
        self.padding = padding if isinstance(padding, str) else _tuple(padding, self._dims)
        self.padding_mode = padding_mode
        if padding == "same" and any(s != 1 for s in self.stride):
            raise ValueError(f"{name}: padding='same' is not supported for strided convolutions")
        self._reversed_padding_repeated_twice = _pad_sides(self.padding, self.kernel_size, self.dilation)
        # torch's reset_parameters: kaiming_uniform_(a=sqrt(5)) is U(-1/sqrt(fan_in), 1/sqrt(fan_in)),
        # and so is the bias.
        fan_in = in_channels // groups * math.prod(self.kernel_size)
        bound = 1 / math.sqrt(fan_in) if fan_in else 0
        shape = (out_channels, in_channels // groups) + self.kernel_size
        self.weight = Parameter(_uniform(shape, bound, device, dtype))
        self.bias = Parameter(_uniform((out_channels,), bound, device, dtype)) if bias else None
        _reset_if_overridden(self, _ConvNd)

    def reset_parameters(self):
        """Draws the weight and bias anew as the constructor does (U(-1/sqrt(fan_in),
        1/sqrt(fan_in)), torch's kaiming_uniform_(a=sqrt(5)))."""
        fan_in = self.weight.shape[1] * math.prod(self.kernel_size)
        _redraw((self.weight, self.bias), 1 / math.sqrt(fan_in) if fan_in else 0)

    def forward(self, input):
        _check_size(self, input, -self._dims - 1, self.in_channels, "in_channels",
                    (self._dims + 1, self._dims + 2))  # unbatched or batched
        input, padding = self._padded(input)
        return type(self)._function(input, self.weight, self.bias, self.stride, padding, self.dilation,
                                    self.groups)

    def _padded(self, input):
        """(input, the convolution's padding): with a padding_mode other than zeros, input padded
        by F.pad in that mode and no padding left for the convolution, as torch's."""
        if self.padding_mode == "zeros":
            return input, self.padding
        return F.pad(input, self._reversed_padding_repeated_twice, mode=self.padding_mode), (0,) * self._dims

    def extra_repr(self):
        s = (f"{self.in_channels}, {self.out_channels}, kernel_size={self.kernel_size}, stride={self.stride}")
        if self.padding != (0,) * self._dims:
            s += f", padding={self.padding}"  # torch's format: a string as it is (padding=same)
        if self.dilation != (1,) * self._dims:
            s += f", dilation={self.dilation}"
        if self.groups != 1:
            s += f", groups={self.groups}"
        if self.bias is None:
            s += ", bias=False"
        if self.padding_mode != "zeros":
            s += f", padding_mode={self.padding_mode}"
        return s


def _pad_sides(padding, kernel_size, dilation):
    """F.pad's padding (last dim first, (begin, end) each) of a convolution's padding: ints, or
    'same' (the extra element at the end, as torch's) or 'valid'."""
    if isinstance(padding, str):
        sides = []
        for k, d in zip(reversed(kernel_size), reversed(dilation)):
            total = d * (k - 1) if padding == "same" else 0
            sides += [total // 2, total - total // 2]
        return sides
    return [p for p in reversed(padding) for _ in (0, 1)]


class Conv2d(_ConvNd):
    """2-d convolution over [N, C_in, H, W] (torch.nn.Conv2d)."""
    _dims = 2
    _function = staticmethod(F.conv2d)


class Conv3d(_ConvNd):
    """3-d convolution over [N, C_in, D, H, W] (torch.nn.Conv3d)."""
    _dims = 3
    _function = staticmethod(F.conv3d)


class Conv1d(_ConvNd):
    """1-d convolution over [N, C_in, L] (torch.nn.Conv1d)."""
    _dims = 1
    _function = staticmethod(F.conv1d)

    def forward(self, input):
        _check_size(self, input, -2, self.in_channels, "in_channels", (2, 3))  # unbatched or batched
        input, padding = self._padded(input)
        padding = padding if isinstance(padding, str) else padding[0]
        return F.conv1d(input, self.weight, self.bias, self.stride[0], padding, self.dilation[0], self.groups)


class MaxPool2d(Module):
    def __init__(self, kernel_size, stride=None, padding=0, dilation=1, return_indices=False, ceil_mode=False):
        super().__init__()
        self.kernel_size, self.padding = kernel_size, padding
        self.stride = stride if stride is not None else kernel_size
        self.dilation, self.return_indices, self.ceil_mode = dilation, return_indices, ceil_mode

    _function = staticmethod(F.max_pool2d)

    def forward(self, input):
        return type(self)._function(input, self.kernel_size, self.stride, self.padding, self.dilation,
                                    self.ceil_mode, self.return_indices)

    def extra_repr(self):
        return (f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}, "
                f"dilation={self.dilation}, ceil_mode={self.ceil_mode}")


class MaxPool1d(MaxPool2d):
    _function = staticmethod(F.max_pool1d)


class MaxPool3d(MaxPool2d):
    _function = staticmethod(F.max_pool3d)


class AvgPool2d(Module):
    _function = staticmethod(F.avg_pool2d)

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
                 divisor_override=None):
        super().__init__()
        self.kernel_size, self.padding = kernel_size, padding
        self.stride = stride if stride is not None else kernel_size
        self.ceil_mode, self.count_include_pad, self.divisor_override = ceil_mode, count_include_pad, divisor_override

    def forward(self, input):
        return type(self)._function(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                                    self.count_include_pad, self.divisor_override)

    def extra_repr(self):
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


def _single(value):
    """torch's _single: a 1-tuple of an int (a tuple as it is)."""
    return tuple(value) if isinstance(value, (tuple, list)) else (value,)


class AvgPool1d(Module):
    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True):
        super().__init__()
        # tuples, as torch's attributes (and repr)
        self.kernel_size, self.padding = _single(kernel_size), _single(padding)
        self.stride = _single(stride if stride is not None else kernel_size)
        self.ceil_mode, self.count_include_pad = ceil_mode, count_include_pad

    def forward(self, input):
        return F.avg_pool1d(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                            self.count_include_pad)

    def extra_repr(self):
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class AvgPool3d(AvgPool2d):
    _function = staticmethod(F.avg_pool3d)


class AdaptiveAvgPool2d(Module):
    _function = staticmethod(F.adaptive_avg_pool2d)

    def __init__(self, output_size):
        super().__init__()
        self.output_size = output_size

    def forward(self, input):
        return type(self)._function(input, self.output_size)

    def extra_repr(self):
        return f"output_size={self.output_size}"


class AdaptiveAvgPool3d(AdaptiveAvgPool2d):
    _function = staticmethod(F.adaptive_avg_pool3d)


class AdaptiveMaxPool2d(Module):
    _function = staticmethod(F.adaptive_max_pool2d)

    def __init__(self, output_size, return_indices=False):
        super().__init__()
        self.output_size, self.return_indices = output_size, return_indices

    def forward(self, input):
        return type(self)._function(input, self.output_size, self.return_indices)

    def extra_repr(self):
        return f"output_size={self.output_size}"


class AdaptiveMaxPool3d(AdaptiveMaxPool2d):
    _function = staticmethod(F.adaptive_max_pool3d)


def _init_norm(module, num_features, eps, momentum, affine, track_running_stats, device, dtype, bias=True):
    """The state torch's batch and instance norms share: sizes, the affine parameters (the
    bias only with `bias`, torch 2's keyword) and the running statistics (buffers, None when
    not tracked), on `device` in `dtype` but for num_batches_tracked, an int64 count in every
    dtype (torch's)."""
    module.num_features, module.eps, module.momentum = num_features, eps, momentum
    module.affine, module.track_running_stats = affine, track_running_stats
    made = {"device": device, "dtype": dtype}
    module.weight = Parameter(ones(num_features, **made)) if affine else None
    module.bias = Parameter(zeros(num_features, **made)) if affine and bias else None
    tracked = {"running_mean": zeros(num_features, **made), "running_var": ones(num_features, **made),
               "num_batches_tracked": tensor(0, device=device)}
    for name, value in tracked.items():
        _register_buffer(module, name, value if track_running_stats else None)


def _norm_load_from_state_dict(module, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys,
                               error_msgs):
    """torch's _NormBase loading: a state dict from before num_batches_tracked (no version in
    its metadata, as a plain dict filtered from a state_dict, or one under 2) takes the
    module's own count instead of missing it."""
    key = prefix + "num_batches_tracked"
    if local_metadata.get("version", 0) < 2 and module.track_running_stats and key not in state_dict:
        state_dict[key] = module.num_batches_tracked
    Module._load_from_state_dict(module, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys,
                                 error_msgs)


def _norm_repr(module):
    """torch's repr of a batch or instance norm."""
    return (f"{module.num_features}, eps={module.eps}, momentum={module.momentum}, affine={module.affine}, "
            f"bias={module.bias is not None}, track_running_stats={module.track_running_stats}")


class _BatchNorm(Module):
    """torch's _BatchNorm: normalizes over every dim but the channels (dim 1) with the batch's
    statistics in training, the running ones in eval (track_running_stats)."""

    _sync = False
    _version = 2
    _load_from_state_dict = _norm_load_from_state_dict

    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=True, track_running_stats=True, device=None,
                 dtype=None, *, bias=True, local_stats=False):
        super().__init__()
        _init_norm(self, num_features, eps, momentum, affine, track_running_stats, device, dtype, bias)
        self.local_stats = bool(local_stats) and not self._sync

    def extra_repr(self):
        return _norm_repr(self)

    def reset_parameters(self):
        """Running statistics reset, weight 1 and bias 0, as torch's."""
        self.reset_running_stats()
        _reset_affine(self)

    def _check_input_dim(self, input):
        pass

    def reset_running_stats(self):
        """Running mean 0, variance 1 and no batches tracked, as torch's."""
        if self.track_running_stats:
            with no_grad():
                self.running_mean.zero_()
                self.running_var.fill_(1)
                self.num_batches_tracked.zero_()

    def forward(self, input):
        self._check_input_dim(input)
        _check_size(self, input, 1, self.num_features, "num_features")
        factor = 0.0 if self.momentum is None else self.momentum
        if self.training and self.track_running_stats:
            with no_grad():
                self.num_batches_tracked.data = self.num_batches_tracked + 1
                if self.momentum is None:  # a cumulative moving average; a tensor, which a graph reads at every run
                    count = self.num_batches_tracked.to(self.running_mean.dtype)
                    factor = count.reciprocal()
        use_batch = self.training or self.running_mean is None
        running = self.running_mean, self.running_var
        if self.training and not self.track_running_stats:
            running = None, None
        if use_batch and self._syncs_local(input):
            return self._synced_local(input, running, factor)
        return F.batch_norm(input, running[0], running[1], self.weight, self.bias, use_batch, factor, self.eps,
                            local_stats=self.local_stats)

    def _syncs_local(self, input):
        """A SyncBatchNorm's local input in a DDP job (init_process_group called): the batch is
        every rank's local one. In a program of global tensors alone a local tensor is one
        device's."""
        if not self._sync or not input.is_local:
            return False
        from .. import distributed
        return distributed._called_init() and distributed.get_world_size() > 1

    def _synced_local(self, input, running, factor):
        """torch's SyncBatchNorm under DDP: the statistics of every rank's batch together
        (their sums all-reduced, differentiably: a rank's input gets the gradient of every
        rank's loss through them, as torch's), the ranks' batches of any sizes."""
        from .. import distributed, sbp, placement, cat, tensor as make
        where = placement(input.device.type, ranks=distributed._state["world"].ranks)

        def over_ranks(t):
            return t.to_global(where, sbp.partial_sum).to_global(sbp=sbp.broadcast)._part()

        dims = [0] + list(range(2, input.ndim))
        shape = [1, -1] + [1] * (input.ndim - 2)
        count = make([float(input.numel() // input.shape[1])], dtype=input.dtype, device=input.device)
        sums = over_ranks(cat([input.sum(dims), count]))
        n = sums[-1]
        mean = sums[:-1] / n
        centered = input - mean.reshape(shape)
        var = over_ranks((centered * centered).sum(dims)) / n
        out = centered * (var + self.eps).rsqrt().reshape(shape)
        if running[0] is not None:
            with no_grad():
                running[0].copy_((1 - factor) * running[0] + factor * mean)
                running[1].copy_((1 - factor) * running[1] + factor * var * (n / (n - 1)))
        if self.weight is None:
            return out
        return out * self.weight.reshape(shape) + self.bias.reshape(shape)


class BatchNorm1d(_BatchNorm):
    """Batch normalization of [N, C] or [N, C, L]. On global tensors the batch statistics are
    those of the logical batch (synchronized across data-parallel ranks, as SyncBatchNorm);
    local_stats=True normalizes each rank's part of the batch with its own statistics, as
    PyTorch's BatchNorm1d under DDP (see functional.batch_norm)."""

    def _check_input_dim(self, input):
        if input.ndim not in (2, 3):
            raise ValueError(f"expected 2D or 3D input (got {input.ndim}D input)")


class BatchNorm2d(_BatchNorm):
    """Batch normalization of [N, C, H, W]; statistics as in BatchNorm1d (local_stats too)."""

    def _check_input_dim(self, input):
        if input.ndim != 4:
            raise ValueError(f"expected 4D input (got {input.ndim}D input)")


class BatchNorm3d(_BatchNorm):
    """Batch normalization of [N, C, D, H, W]; statistics as in BatchNorm1d (local_stats too)."""

    def _check_input_dim(self, input):
        if input.ndim != 5:
            raise ValueError(f"expected 5D input (got {input.ndim}D input)")


class SyncBatchNorm(_BatchNorm):
    """Batch normalization with the statistics of the whole logical batch, across every
    data-parallel rank (torch.nn.SyncBatchNorm): what BatchNorm1d/2d do by default on global
    tensors; on local tensors in a DDP job (meshflow.distributed initialized), the statistics of
    every rank's batch together, as torch's. process_group is accepted for torch's signature."""

    _sync = True

    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=True, track_running_stats=True,
                 process_group=None, device=None, dtype=None, *, bias=True):
        super().__init__(num_features, eps, momentum, affine, track_running_stats, device, dtype, bias=bias)

    def _check_input_dim(self, input):
        if input.ndim < 2:
            raise ValueError(f"expected at least 2D input (got {input.ndim}D input)")

    @classmethod
    def convert_sync_batchnorm(cls, module, process_group=None):
        """torch's converter: `module` with every BatchNorm*d under it replaced by a
        SyncBatchNorm holding the same parameters and buffers (the same tensors, so an
        optimizer made before still steps them), its children replaced in place; a BatchNorm
        `module` itself comes back as a new SyncBatchNorm."""
        converted = module
        if isinstance(module, _BatchNorm) and not isinstance(module, SyncBatchNorm):
            converted = SyncBatchNorm(module.num_features, module.eps, module.momentum, module.affine,
                                      module.track_running_stats, process_group)
            converted._parameters.update(module._parameters)
            converted._buffers.update(module._buffers)
            converted._non_persistent_buffers_set.update(module._non_persistent_buffers_set)
            converted.training = module.training
        for name, child in module.named_children():
            converted.add_module(name, cls.convert_sync_batchnorm(child, process_group))
        return converted


class Upsample(Module):
    """F.interpolate as a module (every mode it takes)."""

    def __init__(self, size=None, scale_factor=None, mode="nearest", align_corners=None,
                 recompute_scale_factor=None):
        super().__init__()
        if isinstance(scale_factor, (tuple, list)):  # floats, as torch keeps them
            scale_factor = tuple(float(f) for f in scale_factor)
        elif scale_factor:
            scale_factor = float(scale_factor)
        else:
            scale_factor = None
        self.size, self.scale_factor, self.mode = size, scale_factor, mode
        self.align_corners, self.recompute_scale_factor = align_corners, recompute_scale_factor

    def forward(self, input):
        return F.interpolate(input, self.size, self.scale_factor, self.mode, self.align_corners,
                             self.recompute_scale_factor)

    def extra_repr(self):
        what = f"scale_factor={self.scale_factor!r}" if self.scale_factor is not None else f"size={self.size!r}"
        return f"{what}, mode={self.mode!r}"


class GroupNorm(Module):
    def __init__(self, num_groups, num_channels, eps=1e-5, affine=True, device=None, dtype=None, *, bias=True):
        super().__init__()
        if num_groups <= 0 or num_channels % num_groups:
            raise ValueError(f"GroupNorm: num_channels {num_channels} must be divisible by num_groups {num_groups}")
        self.num_groups, self.num_channels, self.eps, self.affine = num_groups, num_channels, eps, affine
        self.weight = Parameter(ones(num_channels, device=device, dtype=dtype)) if affine else None
        self.bias = Parameter(zeros(num_channels, device=device, dtype=dtype)) if affine and bias else None

    def reset_parameters(self):
        """Weight 1 and bias 0, as the constructor makes them."""
        _reset_affine(self)

    def forward(self, input):
        return F.group_norm(input, self.num_groups, self.weight, self.bias, self.eps)

    def extra_repr(self):
        return f"{self.num_groups}, {self.num_channels}, eps={self.eps}, affine={self.affine}, bias={self.bias is not None}"


class RMSNorm(Module):
    def __init__(self, normalized_shape, eps=None, elementwise_affine=True, device=None, dtype=None):
        super().__init__()
        if isinstance(normalized_shape, numbers.Integral):
            normalized_shape = (normalized_shape,)
        self.normalized_shape, self.eps = tuple(normalized_shape), eps
        self.elementwise_affine = elementwise_affine
        made = {"device": device, "dtype": dtype}
        self.weight = Parameter(ones(*self.normalized_shape, **made)) if elementwise_affine else None

    def forward(self, input):
        return F.rms_norm(input, self.normalized_shape, self.weight, self.eps)

    def extra_repr(self):
        return f"{self.normalized_shape}, eps={self.eps}, elementwise_affine={self.elementwise_affine}"
