"""torch.distributed.fsdp: FSDP2's fully_shard, and the classic FullyShardedDataParallel, as
ZeRO stage 3 (meshflow/nn/zero.h), parameter by parameter.

fully_shard(module, mesh=...) makes each parameter of `module` that no nested fully_shard
took a global tensor on the data-parallel mesh, stored Shard(0) there (its `placements` and
`to_local()` are torch's shard) while every op takes it gathered, in backward again; its
gradient is reduce-scattered back to the shard by boxing, and any optimizer steps the shard.
The outermost sharded module takes each rank's local batch as its part of a batch split along
dimension 0 and gives back each rank's local part of the output, so the program's per-rank
loss and its backward are torch's; each gradient is then the mean over the data-parallel
ranks, as FSDP2's reduce-scatter makes it. Collective, like the module's forward.

FullyShardedDataParallel's state_dict is FSDP1's: unless FSDP.state_dict_type says otherwise,
its values are the whole tensors on every rank (FULL_STATE_DICT; rank0_only leaves the other
ranks an empty dict, as torch's), where fully_shard's are the DTensors (SHARDED_STATE_DICT).
"""
import contextlib
import dataclasses
import enum

from ... import _C
from .. import tensor as _dt
from ... import distributed as _dist
from ...nn import Module

# Forward calls of sharded modules running now: the outermost converts inputs and outputs.
_depth = [0]


class FSDPModule:
    """What fully_shard mixes into a module's class, as torch's (isinstance(m, FSDPModule))."""

    def reshard(self):
        """Parameters are stored sharded and gathered per use: nothing is held gathered."""

    def unshard(self, async_op=False):
        """Gathering is boxing's, at each use: nothing to do ahead."""

    def state_dict(self, destination=None, prefix="", keep_vars=False):
        out = super().state_dict(destination, prefix, keep_vars)
        kind, config = self.__dict__.get("_fsdp_state_dict", (StateDictType.SHARDED_STATE_DICT, None))
        if destination is not None or kind is not StateDictType.FULL_STATE_DICT:
            return out  # a nested module's entries, or the shards
        for key, value in out.items():
            if getattr(value, "is_global", False):  # every rank gathers: a collective
                out[key] = value.full_tensor()
        if config.rank0_only and _dist.get_rank() != 0:
            out.clear()
        return out

    def set_requires_gradient_sync(self, requires_gradient_sync, *, recurse=True):
        """Accepted either way: gradients are reduced by boxing in every backward, and the
        average over ranks is linear, so the gradient a synced backward leaves after unsynced
        ones (accumulation) is torch's; only what a program reads between them differs (the
        ranks' average so far, where torch's holds this rank's own sum)."""
        object.__setattr__(self, "_requires_gradient_sync", bool(requires_gradient_sync))


def fully_shard(module, *, mesh=None, reshard_after_forward=True, shard_placement_fn=None, mp_policy=None,
                offload_policy=None, ignored_params=None):
    """torch's FSDP2: `module`'s parameters sharded over `mesh` (default: every rank)."""
    if not isinstance(module, Module):
        raise TypeError(f"fully_shard: expected an nn.Module, got {type(module).__name__}")
    mesh = mesh or _dt._default_mesh()
    ranks = mesh.size()
    ignored = {id(p) for p in ignored_params or ()}
    for sub in module.modules():
        if getattr(sub, "_fsdp_sharded", False):  # a nested fully_shard's
            continue
        object.__setattr__(sub, "_fsdp_sharded", True)
        for name, param in list(sub._parameters.items()):
            if param is None or id(param) in ignored:
                continue
            # On a mesh of one rank ZeRO has no axis to shard over; the parameter is still
            # stored Shard(0), torch's placement (one part: the whole tensor).
            whole = [_dt.Shard(0)] if ranks == 1 and param.dim() > 0 else None
            value = param.detach() if param.is_global else _dt.distribute_tensor(param.detach(), mesh, whole)
            # A tensor-parallel parameter (on "tp" beside FSDP's "dp") lives on both, as torch's.
            own = getattr(param, "_mesh", mesh)
            sharded = _dt._parameter(value, param.requires_grad, own._root if own is not mesh and own._root is mesh._root else own)
            # Sharded over FSDP's mesh alone: on a slice of a 2-d mesh ("dp" beside "tp") the
            # tensor-parallel axis keeps the layout parallelize_module gave it.
            _C.shard_parameter(sharded._impl, 3, list(mesh._dims))
            if param.requires_grad:
                sharded.register_hook(lambda grad: grad / ranks)
            setattr(sub, name, sharded)
    module.register_forward_pre_hook(lambda mod, args, kwargs: _enter(mesh, args, kwargs), with_kwargs=True)
    module.register_forward_hook(lambda mod, inputs, output: _leave(output), always_call=True)
    if not isinstance(module, FSDPModule):
        module.__class__ = type(f"FSDP{type(module).__name__}", (FSDPModule, type(module)), {})
    return module


def _enter(mesh, args, kwargs):
    _depth[0] += 1
    if _depth[0] > 1:
        return None
    _dt._batch_meshes.append(mesh)
    take = lambda v: _dt._batch(v, mesh) \
        if hasattr(v, "is_global") and not v.is_global and v.dim() > 0 else v  # noqa: E731
    return tuple(take(a) for a in args), {k: take(v) for k, v in kwargs.items()}


def _leave(output):
    _depth[0] -= 1
    if _depth[0] > 0:
        return None
    _dt._batch_meshes.pop()
    # DTensor's to_local (an op's result is a plain global tensor, whose own to_local would
    # sum the gradients of ranks that hold the same rows: tensor parallelism's, beside "dp").
    give = lambda v: _dt.DTensor.to_local(v) if isinstance(v, _dt.DTensor) else v  # noqa: E731
    return tuple(give(o) for o in output) if isinstance(output, tuple) else give(output)


class StateDictType(enum.Enum):
    FULL_STATE_DICT = enum.auto()
    LOCAL_STATE_DICT = enum.auto()
    SHARDED_STATE_DICT = enum.auto()


@dataclasses.dataclass
class StateDictConfig:
    offload_to_cpu: bool = False  # meshflow's tensors are on the CPU already


@dataclasses.dataclass
class FullStateDictConfig(StateDictConfig):
    rank0_only: bool = False


@dataclasses.dataclass
class ShardedStateDictConfig(StateDictConfig):
    _use_dtensor: bool = False


@dataclasses.dataclass
class LocalStateDictConfig(StateDictConfig):
    pass


@dataclasses.dataclass
class OptimStateDictConfig:
    offload_to_cpu: bool = True


@dataclasses.dataclass
class FullOptimStateDictConfig(OptimStateDictConfig):
    rank0_only: bool = False


@dataclasses.dataclass
class ShardedOptimStateDictConfig(OptimStateDictConfig):
    _use_dtensor: bool = False


_DEFAULT_CONFIG = {StateDictType.FULL_STATE_DICT: FullStateDictConfig, StateDictType.SHARDED_STATE_DICT:
                   ShardedStateDictConfig, StateDictType.LOCAL_STATE_DICT: LocalStateDictConfig}


class FullyShardedDataParallel:
    """torch's classic FSDP wrapper, here fully_shard of the whole module over the group's
    ranks (the module itself comes back, so its state_dict keys are the module's own)."""

    def __new__(cls, module, process_group=None, **kwargs):
        sharded = fully_shard(module)
        FullyShardedDataParallel.set_state_dict_type(sharded, StateDictType.FULL_STATE_DICT)
        return sharded

    @staticmethod
    def set_state_dict_type(module, state_dict_type, state_dict_config=None, optim_state_dict_config=None):
        """What module.state_dict() gives from now on; returns the setting it replaces."""
        if state_dict_type is StateDictType.LOCAL_STATE_DICT:
            raise NotImplementedError("FSDP: LOCAL_STATE_DICT (flat parameters) is not supported: meshflow keeps each "
                                      "parameter sharded on its own; use SHARDED_STATE_DICT or FULL_STATE_DICT")
        before = module.__dict__.get("_fsdp_state_dict", (StateDictType.SHARDED_STATE_DICT, None))
        object.__setattr__(module, "_fsdp_state_dict",
                           (state_dict_type, state_dict_config or _DEFAULT_CONFIG[state_dict_type]()))
        object.__setattr__(module, "_fsdp_optim_config", optim_state_dict_config)
        return before

    @staticmethod
    @contextlib.contextmanager
    def state_dict_type(module, state_dict_type, state_dict_config=None, optim_state_dict_config=None):
        optim_before = module.__dict__.get("_fsdp_optim_config")
        before = FullyShardedDataParallel.set_state_dict_type(module, state_dict_type, state_dict_config,
                                                              optim_state_dict_config)
        try:
            yield
        finally:
            object.__setattr__(module, "_fsdp_state_dict", before)
            object.__setattr__(module, "_fsdp_optim_config", optim_before)

    @staticmethod
    def _optim_options(model):
        from ..checkpoint.state_dict import StateDictOptions
        kind, _ = model.__dict__.get("_fsdp_state_dict", (StateDictType.SHARDED_STATE_DICT, None))
        config = model.__dict__.get("_fsdp_optim_config")
        full = kind is StateDictType.FULL_STATE_DICT
        # torch's full optimizer state is on rank 0 alone with rank0_only (the default config's)
        rank0_only = full and getattr(config if config is not None else FullOptimStateDictConfig(rank0_only=True),
                                      "rank0_only", False)
        return StateDictOptions(full_state_dict=full, cpu_offload=rank0_only)

    @staticmethod
    def optim_state_dict(model, optim, optim_state_dict=None, group=None):
        """The optimizer's state keyed by parameter FQN, whole tensors under FULL_STATE_DICT
        (on rank 0 alone with rank0_only), as torch's."""
        from ..checkpoint.state_dict import get_optimizer_state_dict
        return get_optimizer_state_dict(model, optim, options=FullyShardedDataParallel._optim_options(model))

    @staticmethod
    def optim_state_dict_to_load(model, optim, optim_state_dict, is_named_optimizer=False, load_directly=False,
                                 group=None):
        """An FQN-keyed optimizer state (optim_state_dict's) as optim.load_state_dict takes it."""
        from ..checkpoint.state_dict import _indexed_optimizer_state
        loadable = _indexed_optimizer_state(model, optim, optim_state_dict)
        if load_directly:
            optim.load_state_dict(loadable)
        return loadable


__all__ = ["FSDPModule", "FullOptimStateDictConfig", "FullStateDictConfig", "FullyShardedDataParallel",
           "LocalStateDictConfig", "OptimStateDictConfig", "ShardedOptimStateDictConfig", "ShardedStateDictConfig",
           "StateDictConfig", "StateDictType", "fully_shard"]
