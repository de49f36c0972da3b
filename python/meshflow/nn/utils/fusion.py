"""torch.nn.utils.fusion: a convolution or linear layer and the BatchNorm after it folded into
one layer for inference (torch's formulas: weight * gamma / sqrt(var + eps) per output
channel, bias (b - mean) * gamma / sqrt(var + eps) + beta), computed by tensor ops in the
weight's layout and dtype."""
import copy

__all__ = ["fuse_conv_bn_eval", "fuse_conv_bn_weights", "fuse_linear_bn_eval", "fuse_linear_bn_weights"]


def _fusable(layer, bn):
    if layer.training or bn.training:
        raise AssertionError("Fusion only for eval!")
    if bn.running_mean is None or bn.running_var is None:
        raise AssertionError("bn.running_mean and bn.running_var must not be None")


def fuse_conv_bn_eval(conv, bn, transpose=False):
    """A new convolution (a deep copy of `conv`) computing bn(conv(x)); both in eval mode."""
    _fusable(conv, bn)
    fused = copy.deepcopy(conv)
    fused.weight, fused.bias = fuse_conv_bn_weights(fused.weight, fused.bias, bn.running_mean, bn.running_var, bn.eps,
                                                    bn.weight, bn.bias, transpose)
    return fused


def _bn_scale_shift(bias, rm, rv, eps, gamma, beta):
    from ... import ones_like, rsqrt, zeros_like
    bias = zeros_like(rm) if bias is None else bias
    gamma = ones_like(rm) if gamma is None else gamma
    beta = zeros_like(rm) if beta is None else beta
    scale = gamma * rsqrt(rv + eps)
    return scale, (bias - rm) * scale + beta


def fuse_conv_bn_weights(conv_w, conv_b, bn_rm, bn_rv, bn_eps, bn_w, bn_b, transpose=False):
    """(weight, bias) Parameters of the convolution that computes bn(conv(x)); `transpose` for
    a transposed convolution's weight (output channels second)."""
    from ..modules import Parameter
    scale, bias = _bn_scale_shift(conv_b, bn_rm, bn_rv, bn_eps, bn_w, bn_b)
    shape = ([1, -1] if transpose else [-1, 1]) + [1] * (conv_w.dim() - 2)
    weight = (conv_w * scale.reshape(shape)).to(conv_w.dtype)
    bias = bias.to(conv_b.dtype if conv_b is not None else conv_w.dtype)
    return (Parameter(weight.detach(), conv_w.requires_grad),
            Parameter(bias.detach(), conv_b.requires_grad if conv_b is not None else False))


def fuse_linear_bn_eval(linear, bn):
    """A new Linear (a deep copy of `linear`) computing bn(linear(x)); both in eval mode, bn
    over linear's out_features (or one feature)."""
    _fusable(linear, bn)
    if linear.out_features != bn.num_features and bn.num_features != 1:
        raise AssertionError("To fuse, linear.out_features == bn.num_features or bn.num_features == 1, got "
                             f"linear.out_features={linear.out_features} and bn.num_features={bn.num_features}")
    fused = copy.deepcopy(linear)
    fused.weight, fused.bias = fuse_linear_bn_weights(fused.weight, fused.bias, bn.running_mean, bn.running_var,
                                                      bn.eps, bn.weight, bn.bias)
    return fused


def fuse_linear_bn_weights(linear_w, linear_b, bn_rm, bn_rv, bn_eps, bn_w, bn_b):
    """(weight, bias) Parameters of the Linear that computes bn(linear(x))."""
    from ..modules import Parameter
    scale, bias = _bn_scale_shift(linear_b, bn_rm, bn_rv, bn_eps, bn_w, bn_b)
    weight = linear_w * scale.unsqueeze(-1)
    return Parameter(weight.detach(), linear_w.requires_grad), Parameter(bias.detach(), True)
