"""torch.distributed.fsdp.wrap's auto-wrap policies. meshflow's FullyShardedDataParallel shards
every parameter on its own (fully_shard of the whole module, fsdp/__init__.py), so which
submodules a policy would wrap changes no value: FSDP accepts a policy and the functions answer
as torch's do (a program may call them itself)."""
from ... import nn as _nn


def size_based_auto_wrap_policy(module, recurse, nonwrapped_numel, min_num_params=int(1e8),
                                force_leaf_modules=None, exclude_wrap_modules=None):
    """torch's: recurse into a module unless it is a leaf to force; wrap one whose parameters
    not yet wrapped number at least min_num_params."""
    force_leaf_modules = (_nn.MultiheadAttention,) if force_leaf_modules is None else tuple(force_leaf_modules)
    exclude_wrap_modules = (_nn.ModuleList, _nn.ModuleDict) if exclude_wrap_modules is None \
        else tuple(exclude_wrap_modules)
    if recurse:
        return not isinstance(module, force_leaf_modules)
    return nonwrapped_numel >= min_num_params and not isinstance(module, exclude_wrap_modules)


def lambda_auto_wrap_policy(module, recurse, nonwrapped_numel, lambda_fn):
    """torch's: recurse always; wrap where lambda_fn(module) holds."""
    return True if recurse else bool(lambda_fn(module))


def transformer_auto_wrap_policy(module, recurse, nonwrapped_numel, transformer_layer_cls):
    """torch's: recurse always; wrap instances of the given layer classes."""
    return True if recurse else isinstance(module, tuple(transformer_layer_cls))


class ModuleWrapPolicy:
    """torch's policy object: wraps instances of the given module classes."""

    def __init__(self, module_classes):
        self._module_classes = tuple(module_classes)

    def __call__(self, module, recurse, *args, **kwargs):
        return True if recurse else isinstance(module, self._module_classes)


def always_wrap_policy(*args, **kwargs):
    return True


__all__ = ["ModuleWrapPolicy", "always_wrap_policy", "lambda_auto_wrap_policy", "size_based_auto_wrap_policy",
           "transformer_auto_wrap_policy"]
