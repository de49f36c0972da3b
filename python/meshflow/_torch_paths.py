"""torch's module paths below its packages, as ported programs import them
(`import torch.backends.cudnn as cudnn`, `from torch.optim.optimizer import Optimizer`,
`from torch.nn.modules.batchnorm import _BatchNorm`, `from torch.nn.parameter import Parameter`).

meshflow keeps such names in fewer modules (meshflow.nn holds every layer, meshflow.optim every
optimizer); each path below is a module of its own in sys.modules, so `import` and `from ...
import` find it, and an attribute of its parent, so `torch.nn.modules.loss._Loss` reads. It
holds no names: an attribute is looked up in the meshflow module that defines it (a name torch
has there and meshflow lacks raises AttributeError, naming the module). Run once, at import of
meshflow; not thread-safe beyond that (the import lock covers it).
"""
import sys
import types

# torch's path (below meshflow) -> the meshflow module holding its names.
_PATHS = {
    "nn.parameter": "nn",
    "nn.utils.clip_grad": "nn.utils",
    "optim.optimizer": "optim",
    "amp.grad_scaler": "amp",
    "amp.autocast_mode": "amp",
    "autograd.grad_mode": "autograd",
    "autograd.function": "autograd",
    "autograd.profiler": "profiler",
    "distributions.distribution": "distributions",
    "distributions.transforms": "distributions.transforms",
    "distributions.constraints": "distributions.constraints",
    "distributed._tensor": "distributed.tensor",
    "distributed.tensor.placement_types": "distributed.tensor",
    "distributed.tensor.parallel.style": "distributed.tensor.parallel",
}
_PATHS.update({f"nn.modules.{name}": "nn" for name in (
    "module", "linear", "conv", "batchnorm", "loss", "activation", "dropout", "pooling", "normalization",
    "container", "sparse", "rnn", "transformer", "padding", "pixelshuffle", "flatten", "upsampling", "distance",
    "instancenorm", "fold", "channelshuffle")})
_PATHS.update({f"optim.{name}": "optim" for name in (
    "sgd", "adam", "adamw", "rmsprop", "adagrad", "adamax", "nadam", "radam", "adadelta", "asgd", "rprop", "lbfgs",
    "sparse_adam")})
_PATHS.update({f"distributions.{name}": "distributions" for name in (
    "normal", "categorical", "bernoulli", "uniform", "laplace", "exponential", "log_normal", "multivariate_normal",
    "gamma", "beta", "dirichlet", "poisson", "independent", "mixture_same_family", "one_hot_categorical", "cauchy",
    "studentT", "geometric", "binomial", "transformed_distribution", "relaxed_bernoulli", "relaxed_categorical")})

# torch's private base classes that programs subclass or test with isinstance, where meshflow's
# classes of the same role live (a class standing for torch's base covers the same subclasses).
_PRIVATE = {
    "_Loss": "nn.modules._Loss", "_WeightedLoss": "nn.modules._WeightedLoss",
    "_BatchNorm": "nn._modules_conv._BatchNorm", "_ConvNd": "nn._modules_conv._ConvNd",
    "_ConvTransposeNd": "nn._conv_transpose._ConvTransposeNd", "_InstanceNorm": "nn._modules_more._InstanceNorm",
    "_DropoutNd": "nn.Dropout", "_MaxPoolNd": "nn.MaxPool2d",
    "NonDynamicallyQuantizableLinear": "nn.attention.NonDynamicallyQuantizableLinear",
}


def _resolve(root, dotted):
    target = root
    for part in dotted.split("."):
        target = getattr(target, part)
    return target


def _alias(root, path, source):
    name = f"{root.__name__}.{path}"
    source_name = getattr(source, "__name__", f"{root.__name__}.{_PATHS[path]}")
    module = types.ModuleType(name, f"torch.{path}: its names, from {source_name}.")

    def lookup(attr):
        try:
            return getattr(source, attr) if attr not in _PRIVATE or not path.startswith("nn.modules.") else \
                _resolve(root, _PRIVATE[attr])
        except AttributeError:
            raise AttributeError(f"module {name!r} has no attribute {attr!r} ({source_name} has no such "
                                 "name)") from None
    module.__getattr__ = lookup
    return module


def install(root):
    """Registers every path of _PATHS, and the namespaces of meshflow.backends, below `root`
    (the meshflow package) in sys.modules and as attributes of their parents."""
    for path, source in _PATHS.items():
        source = _resolve(root, source)
        parent_path, _, leaf = path.rpartition(".")
        parent = _resolve(root, parent_path)
        module = _alias(root, path, source)
        sys.modules[f"{root.__name__}.{path}"] = module
        if not hasattr(parent, leaf):
            setattr(parent, leaf, module)
    for leaf in root.backends.__all__:  # `import torch.backends.cudnn as cudnn`
        sys.modules[f"{root.__name__}.backends.{leaf}"] = getattr(root.backends, leaf)
