"""torch.distributed.checkpoint.state_dict: a model's and its optimizers' state dicts keyed by
the model's own parameter names (FQNs), whatever wraps it, and loaded back from them.

The names leave out DDP's `module.` (fully_shard adds none), so a checkpoint of a DDP model
loads into a fully_shard or plain one and back. Values are the model's and optimizers' tensors
in their layouts (a fully_shard parameter and its optimizer state stay sharded: dcp.save writes
each shard once); full_state_dict=True gives each as a whole local tensor on every rank, and
with cpu_offload=True on rank 0 only (the other ranks get empty dicts), as torch's. Loading
converts each value to its parameter's layout (Module.load_state_dict, Optimizer.load_state_dict).
Collective when the model holds global tensors, as their conversions are.
"""
import dataclasses

from ... import env as _env
from ..._ops_creation import zeros_like as _zeros_like
from ..._tensor import Tensor
from ...nn.parallel import DistributedDataParallel as _DDP


@dataclasses.dataclass
class StateDictOptions:
    """torch's options; full_state_dict, cpu_offload and strict change what is given or loaded."""
    full_state_dict: bool = False
    cpu_offload: bool = False
    ignore_frozen_params: bool = False
    keep_submodule_prefixes: bool = True
    strict: bool = True
    broadcast_from_rank0: bool = False
    flatten_optimizer_state_dict: bool = False
    dsd_fqn_modifiers: str = "_fqn_modifiers"


def _options(options):
    return options if options is not None else StateDictOptions()


def _fqn(model):
    """A function from a key of model.state_dict() to its name without DDP's `module.`."""
    wrappers = sorted((name for name, m in model.named_modules() if isinstance(m, _DDP)), key=len, reverse=True)

    def strip(key):
        for w in wrappers:
            head = f"{w}.module." if w else "module."
            if key.startswith(head):
                key = (f"{w}." if w else "") + key[len(head):]
        return key
    return strip


def _value(value, options):
    if not isinstance(value, Tensor) or not options.full_state_dict:
        return value
    whole = value.full_tensor() if value.is_global else value
    return whole.cpu() if options.cpu_offload else whole


def _given(state, options):
    """The state as this rank gets it: torch gives a full, offloaded state on rank 0 only."""
    if options.full_state_dict and options.cpu_offload and _env.get_rank() != 0:
        return {}
    return state


def _optimizers(optimizers):
    return list(optimizers) if isinstance(optimizers, (list, tuple)) else [optimizers]


def get_model_state_dict(model, *, submodules=None, options=None):
    """model.state_dict() keyed by FQN."""
    options = _options(options)
    fqn = _fqn(model)
    frozen = {fqn(n) for n, p in model.named_parameters() if not p.requires_grad} \
        if options.ignore_frozen_params else set()
    state = {fqn(k): v for k, v in model.state_dict().items()}
    state = {k: _value(v, options) for k, v in state.items() if k not in frozen}
    return _given(state, options)


def _init_optim_state(opt):
    """An optimizer's state made as its first step makes it, without moving a parameter (torch's
    _init_optim_state: a step of zero gradients at learning rate 0), so that dcp.load has tensors
    to load into."""
    params = [p for g in opt.param_groups for p in g["params"]]
    if opt.state_dict()["state"] or any(p.grad is not None for p in params):
        return
    for p in params:
        if p.requires_grad:
            p.grad = _zeros_like(p)
    lrs = [g.get("lr") for g in opt.param_groups]
    for g in opt.param_groups:
        if "lr" in g:
            g["lr"] = 0.0
    opt.step()
    for g, lr in zip(opt.param_groups, lrs):
        if lr is not None:
            g["lr"] = lr
    opt.zero_grad(set_to_none=True)


def _param_fqns(model):
    fqn = _fqn(model)
    return {id(p): fqn(n) for n, p in model.named_parameters(remove_duplicate=False)}


def get_optimizer_state_dict(model, optimizers, *, submodules=None, options=None):
    """The optimizers' state dicts in one, parameters named by FQN instead of index."""
    options = _options(options)
    names = _param_fqns(model)
    state, groups = {}, []
    for opt in _optimizers(optimizers):
        _init_optim_state(opt)
        params = [names[id(p)] for g in opt.param_groups for p in g["params"]]
        saved = opt.state_dict()
        for index, entries in saved["state"].items():
            state[params[int(index)]] = {k: _value(v, options) for k, v in entries.items()}
        groups += [{**g, "params": [params[int(i)] for i in g["params"]]} for g in saved["param_groups"]]
    return _given({"state": state, "param_groups": groups}, options)


def get_state_dict(model, optimizers, *, submodules=None, options=None):
    """(get_model_state_dict, get_optimizer_state_dict)."""
    return (get_model_state_dict(model, options=options),
            get_optimizer_state_dict(model, optimizers, options=options))


def set_model_state_dict(model, model_state_dict, *, options=None):
    """model.load_state_dict of an FQN-keyed state; returns its missing and unexpected keys."""
    fqn = _fqn(model)
    keys = {fqn(k): k for k in model.state_dict()}
    state = {keys.get(k, k): v for k, v in model_state_dict.items()}
    return model.load_state_dict(state, strict=_options(options).strict)


def _indexed_optimizer_state(model, opt, optim_state_dict):
    """opt's own parameters' part of an FQN-keyed optimizer state, keyed by index (as
    opt.load_state_dict takes it)."""
    names = _param_fqns(model)
    params = [names[id(p)] for g in opt.param_groups for p in g["params"]]
    index = {name: i for i, name in enumerate(params)}
    groups = [{**g, "params": [index[n] for n in g["params"]]} for g in optim_state_dict["param_groups"]
              if g["params"] and g["params"][0] in index]
    state = {index[n]: entries for n, entries in optim_state_dict["state"].items() if n in index}
    return {"state": state, "param_groups": groups}


def set_optimizer_state_dict(model, optimizers, optim_state_dict, *, options=None):
    """Each optimizer's load_state_dict of its own parameters' part of an FQN-keyed state."""
    for opt in _optimizers(optimizers):
        opt.load_state_dict(_indexed_optimizer_state(model, opt, optim_state_dict))


def set_state_dict(model, optimizers, *, model_state_dict, optim_state_dict, options=None):
    """set_model_state_dict and set_optimizer_state_dict; returns the model's missing and unexpected keys."""
    keys = set_model_state_dict(model, model_state_dict, options=options)
    set_optimizer_state_dict(model, optimizers, optim_state_dict, options=options)
    return keys


__all__ = ["StateDictOptions", "get_model_state_dict", "get_optimizer_state_dict", "get_state_dict",
           "set_model_state_dict", "set_optimizer_state_dict", "set_state_dict"]
