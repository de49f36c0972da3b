"""torch.ao.quantization (also torch.quantization): dynamic quantization as the tutorials call
it, run in float. meshflow has no quantized kernels, so quantize_dynamic gives a model that
computes what the float model computes: torch's int8 model rounds each Linear's weights and
inputs to 8 bits, so its outputs differ from the float model's (and from these) by that
rounding, about 1% of a layer's output. Programs that compare the quantized model with the
float one within such a tolerance run unchanged; the size of a saved state_dict stays float's.

Thread-safety: stateless."""
import copy

from ... import _dtype

__all__ = ["quantize_dynamic"]


def quantize_dynamic(model, qconfig_spec=None, dtype=None, mapping=None, inplace=False):
    """torch's signature: the model (a deep copy unless inplace), its layers left in float."""
    dtype = _dtype.qint8 if dtype is None else dtype
    if dtype not in (_dtype.qint8, _dtype.float16, _dtype.quint8):
        raise ValueError(f"Don't know how to quantize with default settings for {dtype}. Provide full qconfig please")
    return model if inplace else copy.deepcopy(model)
