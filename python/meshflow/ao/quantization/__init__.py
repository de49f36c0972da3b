"""torch.ao.quantization (also torch.quantization): dynamic quantization as the tutorials call
it, run in float. meshflow has no quantized kernels, so quantize_dynamic gives a model that
computes what the float model computes: torch's int8 model rounds each Linear's weights and
inputs to 8 bits, so its outputs differ from the float model's (and from these) by that
rounding, about 1% of a layer's output. Programs that compare the quantized model with the
float one within such a tolerance run unchanged; the size of a saved state_dict stays float's.
Fake quantization (quantization-aware training's `fake_quantize_per_tensor_affine` and
`fake_quantize_per_channel_affine`, bound on meshflow as torch's) rounds in float as torch's
does, with its straight-through gradient.

Thread-safety: stateless."""
import copy

from ... import _dtype

__all__ = ["quantize_dynamic", "fake_quantize_per_tensor_affine", "fake_quantize_per_channel_affine"]


def quantize_dynamic(model, qconfig_spec=None, dtype=None, mapping=None, inplace=False):
    """torch's signature: the model (a deep copy unless inplace), its layers left in float."""
    dtype = _dtype.qint8 if dtype is None else dtype
    if dtype not in (_dtype.qint8, _dtype.float16, _dtype.quint8):
        raise ValueError(f"Don't know how to quantize with default settings for {dtype}. Provide full qconfig please")
    return model if inplace else copy.deepcopy(model)


def _fake_quantize(input, scale, zero_point, quant_min, quant_max):
    """(clamp(round(input / scale) + zero_point, quant_min, quant_max) - zero_point) * scale,
    rounding halves to even after multiplying by 1 / scale as torch's kernel; the gradient is
    the incoming one where the rounded value lies in [quant_min, quant_max], else 0."""
    from ..._ops_elementwise import where
    if quant_min > quant_max:
        raise RuntimeError(f"`quant_min` should be less than or equal to `quant_max`, got {quant_min} > {quant_max}")
    q = (input * (1.0 / scale)).round() + zero_point
    out = ((q.clamp(quant_min, quant_max) - zero_point) * scale).to(input.dtype)
    inside = (q >= quant_min) & (q <= quant_max)
    # input - input.detach() is zero: the value is out's, the gradient 1 inside the range
    return where(inside, out + (input - input.detach()), out.detach()) if input.requires_grad else out


def fake_quantize_per_tensor_affine(input, scale, zero_point, quant_min, quant_max):
    """torch's: input quantized to integers in [quant_min, quant_max] with one scale and zero
    point (numbers, or one-element tensors), and back to floats."""
    return _fake_quantize(input, scale, zero_point, quant_min, quant_max)


def fake_quantize_per_channel_affine(input, scale, zero_point, axis, quant_min, quant_max):
    """torch's: as per tensor, with scale and zero_point [C] along dim `axis` of input."""
    shape = [1] * input.dim()
    shape[axis] = -1
    return _fake_quantize(input, scale.reshape(shape), zero_point.reshape(shape).to(scale.dtype), quant_min, quant_max)
