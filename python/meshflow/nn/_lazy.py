"""torch's Lazy modules of the layers whose input size is the channels (d2l's LazyConv2d and
LazyBatchNorm2d): the module is made with no input channels, and its first forward makes it
the layer for its input's channels (torch's initialization, in the placeholders' device and
dtype), with the same Parameter objects, hooks and training mode, and then a module of that
layer's class. Make the optimizer after the first forward, as torch asks.

Thread-safety: a module's first forward changes it; run it from one thread."""
import inspect

from ._modules_conv import Conv1d, Conv2d, Conv3d, BatchNorm1d, BatchNorm2d, BatchNorm3d
from ._modules_more import InstanceNorm1d, InstanceNorm2d, InstanceNorm3d
from ._conv_transpose import ConvTranspose1d, ConvTranspose2d, ConvTranspose3d

__all__ = []


def _lazy(layer, channels):
    """The Lazy class of `layer`; channels(module, input) is the input's channel count."""
    def __init__(self, *args, **kwargs):
        layer.__init__(self, 0, *args, **kwargs)
        self._lazy_args = args, kwargs

    def forward(self, input):
        args, kwargs = self.__dict__.pop("_lazy_args")
        placeholder = next(iter([*self._parameters.values(), *self._buffers.values()]), None)
        if placeholder is not None:
            kwargs = {"device": placeholder.device, "dtype": placeholder.dtype, **kwargs}
        made = layer(channels(self, input), *args, **kwargs)
        for name, value in made._parameters.items():
            if value is not None:
                self._parameters[name].data = value.data
        self._buffers.update(made._buffers)
        self.__dict__.update({k: v for k, v in made.__dict__.items() if not k.startswith("_") and k != "training"})
        self.__class__ = layer
        return self.forward(input)

    made_by = inspect.signature(layer.__init__)  # the layer's arguments but its input size
    self_param, _, *rest = made_by.parameters.values()
    __init__.__signature__ = made_by.replace(parameters=[self_param, *rest])
    return type("Lazy" + layer.__name__, (layer,), {"__init__": __init__, "forward": forward, "cls_to_become": layer,
                                                    "__doc__": f"torch's Lazy{layer.__name__} (see the module's doc)."})


def _conv_channels(module, input):
    return input.shape[0] if input.dim() == module._dims + 1 else input.shape[1]  # unbatched, or batched


def _norm_channels(module, input):
    return input.shape[1]


for _layer in (Conv1d, Conv2d, Conv3d, ConvTranspose1d, ConvTranspose2d, ConvTranspose3d):
    globals()["Lazy" + _layer.__name__] = _lazy(_layer, _conv_channels)
    __all__.append("Lazy" + _layer.__name__)
for _layer in (BatchNorm1d, BatchNorm2d, BatchNorm3d, InstanceNorm1d, InstanceNorm2d, InstanceNorm3d):
    globals()["Lazy" + _layer.__name__] = _lazy(_layer, _norm_channels)
    __all__.append("Lazy" + _layer.__name__)
del _layer
