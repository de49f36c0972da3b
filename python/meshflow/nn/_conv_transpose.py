"""F.conv_transpose1d/2d/3d and nn.ConvTranspose1d/2d/3d, as torch's (the 1-d forms are the 2-d
on a height of 1): the transposed convolution is the convolution's input gradient (the op
conv2d_backward_data or conv3d_backward_data, meshflow/ops/conv.cc) for the output size
(H - 1) * stride - 2 * padding + dilation * (kernel - 1) + output_padding + 1 of each spatial
dim. Its gradients are that op's own (the convolution for the input, the weight gradient op
for the weight), differentiable again. The bias is that op's own input on local tensors (added
as one pass over the output), else an add. On global tensors the ops' SBP signatures apply (a
batch split stays split)."""
import math

from .. import _C, _dtype
from .._autocast import autocast_dtype
from ._functional_conv import _batched, _ints, _single, _with_bias
from .modules import Module, Parameter, _redraw, _reset_if_overridden, _uniform

__all__ = ["conv_transpose1d", "conv_transpose2d", "conv_transpose3d", "ConvTranspose1d", "ConvTranspose2d",
           "ConvTranspose3d"]


_LAYOUT = {2: "[C_in, C_out / groups, kH, kW]", 3: "[C_in, C_out / groups, kD, kH, kW]"}


def _conv_transpose(op, dims, input, weight, bias, stride, padding, output_padding, groups, dilation):
    """The transposed convolution of dims = 2 or 3 spatial dims on a batched or unbatched input."""
    x, unbatched = _batched(op, input, dims + 2)
    stride, padding = _ints(op, "stride", stride, dims), _ints(op, "padding", padding, dims)
    output_padding, dilation = _ints(op, "output_padding", output_padding, dims), _ints(op, "dilation", dilation, dims)
    if weight.ndim != dims + 2:
        raise ValueError(f"[{op}] the weight has shape {tuple(weight.shape)}; expected {dims + 2} dims {_LAYOUT[dims]}")
    if groups <= 0 or weight.shape[0] % groups:
        raise ValueError(f"[{op}] the weight's {weight.shape[0]} input channels are not divisible by groups {groups}")
    if x.shape[1] != weight.shape[0]:
        raise RuntimeError(f"[{op}] the input has {x.shape[1]} channels (shape {tuple(input.shape)}); the weight of "
                           f"shape {tuple(weight.shape)} expects {weight.shape[0]}")
    if any(s <= 0 for s in stride) or any(d <= 0 for d in dilation) or any(p < 0 for p in padding):
        raise RuntimeError(f"[{op}] stride {stride} and dilation {dilation} must be positive, padding {padding} "
                           "non-negative")
    for o, s, d in zip(output_padding, stride, dilation):
        if not (0 <= o < s or 0 <= o < d):
            raise RuntimeError(f"[{op}] output padding must be smaller than either stride or dilation, but got "
                               f"output_padding {output_padding}, stride {stride}, dilation {dilation}")
    size = [(n - 1) * s - 2 * p + d * (k - 1) + o + 1
            for n, s, p, d, k, o in zip(x.shape[2:], stride, padding, dilation, weight.shape[2:], output_padding)]
    if any(n <= 0 for n in size):
        raise RuntimeError(f"[{op}] the output size {size} of input {tuple(input.shape)} is not positive")
    # The convolution taking the output back to the input: its end padding drops the
    # output_padding rows, which no output of the convolution reads when they are at least one
    # stride (with fewer, the rounding down of the output size does the same).
    pad_end = [p - o if o >= s else p for p, o, s in zip(padding, output_padding, stride)]
    if any(e < 0 for e in pad_end):
        raise NotImplementedError(f"[{op}] output_padding {output_padding} of at least the stride {stride} and more "
                                  f"than the padding {padding} is not supported")
    attrs = {"stride": stride, "pad_begin": padding, "pad_end": pad_end, "dilation": dilation, "groups": int(groups)}
    low = autocast_dtype()
    if low is not None:  # on torch's lower-precision list, as the convolutions
        x, weight, bias = [t.to(low) if t is not None and t.dtype in (_dtype.float32, _dtype.float16, _dtype.bfloat16)
                           else t for t in (x, weight, bias)]
    # The convolution's data gradient, whose own gradient (ops/conv.cc) is this one's.
    y = _with_bias(f"conv{dims}d_backward_data", dims, [x, weight], dict(attrs, input_size=size), bias,
                   weight.shape[1] * groups)
    # torch's one ConvolutionBackward0 (an unbatched input's ends in its squeeze, as here)
    return y.squeeze(0) if unbatched else _C.grad_fn_as(y, "ConvolutionBackward0", input, weight, bias)


def conv_transpose2d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    """The 2-d transposed convolution of input [N, C_in, H, W] (or [C_in, H, W]) with weight
    [C_in, C_out / groups, kH, kW], plus bias [C_out]: [N, C_out, (H - 1) * stride - 2 *
    padding + dilation * (kH - 1) + output_padding + 1, likewise W]."""
    return _conv_transpose("conv_transpose2d", 2, input, weight, bias, stride, padding, output_padding, groups,
                           dilation)


def conv_transpose3d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    """The 3-d transposed convolution of input [N, C_in, D, H, W] (or [C_in, D, H, W]) with
    weight [C_in, C_out / groups, kD, kH, kW], plus bias [C_out]; each output size as
    conv_transpose2d's."""
    return _conv_transpose("conv_transpose3d", 3, input, weight, bias, stride, padding, output_padding, groups,
                           dilation)


def conv_transpose1d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    """The 1-d transposed convolution of input [N, C_in, L] (or [C_in, L]) with weight [C_in,
    C_out / groups, k], plus bias [C_out]: conv_transpose2d on a height of 1."""
    op = "conv_transpose1d"
    x, unbatched = _batched(op, input, 3)
    if weight.ndim != 3:
        raise ValueError(f"[{op}] the weight has shape {tuple(weight.shape)}; expected 3 dims "
                         "[C_in, C_out / groups, k]")
    one = lambda name, value: _single(op, name, value)  # noqa: E731
    y = conv_transpose2d(x.unsqueeze(2), weight.unsqueeze(2), bias, (1, one("stride", stride)),
                         (0, one("padding", padding)), (0, one("output_padding", output_padding)), groups,
                         (1, one("dilation", dilation))).squeeze(2)
    return y.squeeze(0) if unbatched else _C.grad_fn_as(y, "ConvolutionBackward0", input, weight, bias)


def _tuple(name, value, dims):
    if dims == 1:
        return (_single(name, "size", value),)
    return tuple(value) if isinstance(value, (tuple, list)) else (value,) * dims


class _ConvTransposeNd(Module):
    """torch's transposed convolution modules: weight [in_channels, out_channels / groups,
    kernel...] and bias [out_channels], both U(-1/sqrt(fan_in), 1/sqrt(fan_in)) with fan_in =
    out_channels / groups * the kernel's volume (torch's kaiming_uniform_(a=sqrt(5)) on this
    weight). forward(input, output_size=None): output_size picks the output_padding that gives
    it, as torch's."""

    _dims = 2
    _function = None

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, output_padding=0, groups=1,
                 bias=True, dilation=1, padding_mode="zeros", device=None, dtype=None):
        super().__init__()
        name, dims = type(self).__name__, self._dims
        if groups <= 0 or in_channels % groups or out_channels % groups:
            raise ValueError(f"{name}: in_channels {in_channels} and out_channels {out_channels} must be "
                             f"divisible by groups {groups} (a positive int)")
        if padding_mode != "zeros":
            raise ValueError(f'Only "zeros" padding mode is supported for {name}, got {padding_mode!r}')
        self.in_channels, self.out_channels, self.groups = in_channels, out_channels, groups
        self.kernel_size, self.stride = _tuple(name, kernel_size, dims), _tuple(name, stride, dims)
        self.padding, self.output_padding = _tuple(name, padding, dims), _tuple(name, output_padding, dims)
        self.dilation, self.padding_mode = _tuple(name, dilation, dims), padding_mode
        fan_in = out_channels // groups * math.prod(self.kernel_size)
        bound = 1 / math.sqrt(fan_in) if fan_in else 0
        shape = (in_channels, out_channels // groups) + self.kernel_size
        self.weight = Parameter(_uniform(shape, bound, device, dtype))
        self.bias = Parameter(_uniform((out_channels,), bound, device, dtype)) if bias else None
        _reset_if_overridden(self, _ConvTransposeNd)

    def reset_parameters(self):
        """Draws the weight and bias anew as the constructor does (fan_in: out_channels / groups
        * the kernel's volume)."""
        fan_in = self.weight.shape[1] * math.prod(self.kernel_size)
        _redraw((self.weight, self.bias), 1 / math.sqrt(fan_in) if fan_in else 0)

    def _output_padding(self, input, output_size):
        if output_size is None:
            return self.output_padding
        dims = len(self.kernel_size)
        output_size = list(output_size)[-dims:]
        result = []
        for i, want in enumerate(output_size):
            n = input.shape[input.ndim - dims + i]
            smallest = ((n - 1) * self.stride[i] - 2 * self.padding[i] + self.dilation[i] * (self.kernel_size[i] - 1)
                        + 1)
            if not smallest <= want < smallest + self.stride[i]:
                raise ValueError(f"requested an output size of {output_size}, but valid sizes range from {smallest} "
                                 f"to {smallest + self.stride[i] - 1} (for an input of {list(input.shape[2:])})")
            result.append(want - smallest)
        return tuple(result)

    def forward(self, input, output_size=None):
        unpack = (lambda t: t[0]) if self._dims == 1 else (lambda t: t)  # noqa: E731
        return type(self)._function(input, self.weight, self.bias, unpack(self.stride), unpack(self.padding),
                                    unpack(self._output_padding(input, output_size)), self.groups,
                                    unpack(self.dilation))

    def extra_repr(self):
        s = f"{self.in_channels}, {self.out_channels}, kernel_size={self.kernel_size}, stride={self.stride}"
        if any(self.padding):
            s += f", padding={self.padding}"
        if any(d != 1 for d in self.dilation):
            s += f", dilation={self.dilation}"
        if any(self.output_padding):
            s += f", output_padding={self.output_padding}"
        if self.groups != 1:
            s += f", groups={self.groups}"
        if self.bias is None:
            s += ", bias=False"
        return s


class ConvTranspose1d(_ConvTransposeNd):
    """torch.nn.ConvTranspose1d: weight [in_channels, out_channels / groups, k] and bias
    [out_channels]; forward(input [N, C_in, L] or [C_in, L], output_size=None)."""
    _dims = 1
    _function = staticmethod(conv_transpose1d)


class ConvTranspose2d(_ConvTransposeNd):
    """torch.nn.ConvTranspose2d: weight [in_channels, out_channels / groups, kH, kW] and bias
    [out_channels]; forward(input [N, C_in, H, W] or [C_in, H, W], output_size=None)."""
    _dims = 2
    _function = staticmethod(conv_transpose2d)


class ConvTranspose3d(_ConvTransposeNd):
    """torch.nn.ConvTranspose3d: weight [in_channels, out_channels / groups, kD, kH, kW] and
    bias [out_channels]; forward(input [N, C_in, D, H, W] or [C_in, D, H, W],
    output_size=None)."""
    _dims = 3
    _function = staticmethod(conv_transpose3d)
