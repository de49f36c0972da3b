"""Optimizers (torch.optim semantics), gradient clipping and the learning-rate schedule
(torch's schedulers are in meshflow.optim.lr_scheduler).

The classes wrap the C++ ones (meshflow/nn/optim.h): each parameter's update is one fused op
on tensors that share the parameter's placement and SBP, so a step moves no data. Parameter
groups are torch's: `param_groups` is a list of dicts, each with its own hyperparameters,
and what is written there (a scheduler's "lr", or the "momentum" or "betas" that CyclicLR and
OneCycleLR cycle) is what the next step uses.

ZeRO (`zero_stage=1|2|3` on every optimizer but LBFGS, SparseAdam and Adafactor) is a choice of SBP, made in the C++
optimizer base (meshflow/nn/optim.h): along every mesh axis where a parameter is broadcast
(the data-parallel axes) its optimizer state is split (along dimension 0 unless a
tensor-parallel axis splits that one) (stage 1), so is its gradient, which
boxing then reduce-scatters instead of all-reducing (stage 2), and so is the parameter itself,
which every op takes gathered, in backward again (stage 3). See docs/memory.md.
"""
import collections

import numpy as _np

from .. import _C, _dtype
from .._ops_elementwise import cast
from .._tensor import Tensor, _impl_of, _in_layout_of, _type_name, _zero_grads, no_grad, tensor


def _tensors(params, what="params"):
    # A lone tensor would iterate as its rows (copies, not the parameter): torch refuses it too.
    if isinstance(params, Tensor):
        raise TypeError(f"{what} must be an iterable of meshflow Tensors (model.parameters()) or of dicts, got a "
                        "single Tensor")
    params = list(params)
    for i, p in enumerate(params):
        if not isinstance(p, Tensor):
            raise TypeError(f"parameter {i} is a {_type_name(p)}; expected a meshflow Tensor")
    return params


def _group_with_names(group):
    """`group` (a dict) with its "params" as given: tensors, or (name, tensor) pairs as
    model.named_parameters() yields them, which torch's optimizers take too: the names then go
    to the group's "param_names" (all named or none)."""
    params = group["params"]
    if isinstance(params, Tensor):
        return dict(group, params=[params])
    if isinstance(params, set):
        raise TypeError("optimizer parameters need to be organized in ordered collections, but the ordering of "
                        "tensors in sets will change between runs. Please use a list instead.")
    params = list(params)
    names = [p[0] for p in params if isinstance(p, tuple)]
    if not names:
        return dict(group, params=params)
    if len(names) != len(params):
        raise ValueError("all optimizer params should be with/without names. Some param names are missing")
    return dict(group, params=[p[1] for p in params], param_names=names)


def _like_param(value, param):
    value = _in_layout_of(value, param)
    return value if value.dtype == param.dtype else cast(value, param.dtype)


class _ParamGroup(dict):
    """One parameter group: a dict as torch's ({"params": [...], "lr": ..., ...}) whose
    hyperparameters write through to the C++ optimizer, so a changed "lr" (a scheduler's) is
    read by the next step and by every run of a graph that traced the step. Other keys are
    kept as they are (schedulers keep "initial_lr", "max_lr", ... here)."""

    __slots__ = ("_impl", "_index", "_options")

    def __init__(self, impl, index, options, values):
        # The C++ optimizer, not the Python one: a cycle between that and its groups would keep
        # the optimizer's state (AdamW's moments) alive until the garbage collector runs.
        self._impl, self._index, self._options = impl, index, options
        super().__init__(values)

    def __setitem__(self, key, value):
        if key == "params":
            raise ValueError("a parameter group's params cannot be replaced; add parameters with add_param_group")
        if key in self._options:
            for name, number in self._options[key](value).items():
                self._impl.set_group_option(self._index, name, number)  # checks the value first
        super().__setitem__(key, value)

    def update(self, *args, **kwargs):
        for key, value in dict(*args, **kwargs).items():
            self[key] = value

    def setdefault(self, key, default=None):
        if key not in self:
            self[key] = default
        return self[key]

    def __reduce__(self):  # copies and pickles are plain dicts, as torch's
        return dict, (dict(self),)


def _float_option(name):
    return lambda value: {name: float(value)}


def _bool_option(name):
    return lambda value: {name: 1.0 if value else 0.0}


def _betas_option(value):
    beta1, beta2 = value
    return {"beta1": float(beta1), "beta2": float(beta2)}


class _RequiredParameter:
    """torch.optim.optimizer.required: the default of an option a subclass's caller must give."""

    def __repr__(self):
        return "<required parameter>"


required = _RequiredParameter()

# torch.optim.optimizer's global step hooks (register_optimizer_step_pre_hook / _post_hook):
# every optimizer's step runs them, the pre-hooks before its own, the post-hooks after.
_global_step_pre_hooks = collections.OrderedDict()
_global_step_post_hooks = collections.OrderedDict()


def _register_in(table, hook):
    from ..nn._hooks import RemovableHandle
    handle = RemovableHandle(table)
    table[handle.id] = hook
    return handle


def register_optimizer_step_pre_hook(hook):
    """hook(optimizer, args, kwargs), before every optimizer's step (returning None or new
    (args, kwargs)); the handle's remove() unregisters it."""
    return _register_in(_global_step_pre_hooks, hook)


def register_optimizer_step_post_hook(hook):
    """hook(optimizer, args, kwargs), after every optimizer's step."""
    return _register_in(_global_step_post_hooks, hook)


def _hooked_step(step):
    """step wrapped to run the global and the optimizer's own step hooks around it, in torch's
    order (pre: global, then own; post: own, then global)."""
    import functools

    @functools.wraps(step)
    def hooked(self, *args, **kwargs):
        own = self.__dict__
        if not (_global_step_pre_hooks or _global_step_post_hooks or own.get("_optimizer_step_pre_hooks")
                or own.get("_optimizer_step_post_hooks")):
            return step(self, *args, **kwargs)
        for hook in (*_global_step_pre_hooks.values(), *own.get("_optimizer_step_pre_hooks", {}).values()):
            result = hook(self, args, kwargs)
            if result is not None:
                if not (isinstance(result, tuple) and len(result) == 2):
                    raise RuntimeError(f"{hook} must return None or a tuple of (new_args, new_kwargs), but got "
                                       f"{result}.")
                args, kwargs = result
        out = step(self, *args, **kwargs)
        for hook in (*own.get("_optimizer_step_post_hooks", {}).values(), *_global_step_post_hooks.values()):
            hook(self, args, kwargs)
        return out
    hooked.hooked = True
    return hooked


class Optimizer:
    """torch.optim.Optimizer, the base a program's own optimizer subclasses as torch's (its
    __init__(params, defaults), param_groups as plain dicts with the defaults filled in, state
    as a defaultdict keyed by parameter, add_param_group, zero_grad, state_dict /
    load_state_dict in torch's structure, step hooks; the subclass writes step()). meshflow's
    optimizers composed of ops in Python (LBFGS, SparseAdam and Adafactor, in _composed_more.py) are such
    subclasses (SparseAdam and Adafactor write `_update(p, grad, state, group)` instead); SGD, Adam, AdamW,
    RMSprop, Adagrad, Adamax, NAdam, RAdam, Adadelta, ASGD and Rprop run C++ steps
    (_FusedOptimizer below)."""

    def __init__(self, params, defaults):
        self.defaults = dict(defaults)
        self.param_groups = []
        self.state = collections.defaultdict(dict)
        groups = list(params) if not isinstance(params, Tensor) else _tensors(params)
        if not groups:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(groups[0], dict):
            groups = [{"params": groups}]
        for group in groups:
            self.add_param_group(group)
        self._patch_step_function()

    def _patch_step_function(self):
        """torch's: the class's step (its own or inherited) wrapped once to run the step hooks."""
        cls = type(self)
        if not getattr(cls.step, "hooked", False):
            cls.step = _hooked_step(cls.step)

    def register_step_pre_hook(self, hook):
        """hook(optimizer, args, kwargs) before this optimizer's step, returning None or new
        (args, kwargs); the handle's remove() unregisters it."""
        return _register_in(self.__dict__.setdefault("_optimizer_step_pre_hooks", collections.OrderedDict()), hook)

    def register_step_post_hook(self, hook):
        """hook(optimizer, args, kwargs) after this optimizer's step."""
        return _register_in(self.__dict__.setdefault("_optimizer_step_post_hooks", collections.OrderedDict()), hook)

    def add_param_group(self, param_group):
        """Adds a group (a dict with "params"); the options it leaves out are the defaults."""
        if not isinstance(param_group, dict):
            raise TypeError(f"param group must be a dict, but got {_type_name(param_group)}")
        group = _group_with_names(param_group)
        group["params"] = _tensors(group["params"])
        for key, value in self.defaults.items():
            group.setdefault(key, value)
        seen = {id(p) for g in self.param_groups for p in g["params"]}
        if any(id(p) in seen for p in group["params"]):
            raise ValueError("some parameters appear in more than one parameter group")
        self.param_groups.append(group)

    def zero_grad(self, set_to_none=True):
        """Drops every gradient (set_to_none=False: zeroes each in place instead)."""
        _zero_grads((p for group in self.param_groups for p in group["params"]), set_to_none)

    def step(self, closure=None):
        """Calls the closure (with grad enabled) and `_update` for each parameter that has a
        gradient, under no_grad; returns the closure's loss. A subclass writes this or
        `_update`, as torch's base raises NotImplementedError."""
        if type(self)._update is Optimizer._update:
            raise NotImplementedError(f"{type(self).__name__} does not define step(); an Optimizer subclass "
                                      "writes its own step(closure=None)")
        loss = None
        if closure is not None:
            from ..autograd import enable_grad
            with enable_grad():
                loss = closure()
        with no_grad():
            for group in self.param_groups:
                for p in group["params"]:
                    if p.grad is not None:
                        self._update(p, p.grad, self.state[p], group)
        return loss

    def _update(self, p, grad, state, group):
        raise NotImplementedError

    def state_dict(self):
        """torch's structure: {"state": {index: {name: value}}, "param_groups": [{options...,
        "params": [indices]}]}, indices counting the parameters of every group in order."""
        index = {}
        groups = []
        for group in self.param_groups:
            ids = []
            for p in group["params"]:
                index.setdefault(id(p), len(index))
                ids.append(index[id(p)])
            groups.append({**{k: v for k, v in group.items() if k != "params"}, "params": ids})
        # each parameter's own state dict, not a copy, as torch's: a later step shows in it
        state = {index[id(p)]: s for p, s in self.state.items() if s and id(p) in index}
        return {"state": state, "param_groups": groups}

    def load_state_dict(self, state_dict):
        """Loads a state_dict(): the groups' options, then each parameter's state."""
        params = [p for g in self.param_groups for p in g["params"]]
        saved_groups = state_dict["param_groups"]
        _check_groups_match(saved_groups, self.param_groups)
        for saved, group in zip(saved_groups, self.param_groups):
            group.update({k: v for k, v in saved.items() if k != "params"})
        self.state = collections.defaultdict(dict)
        for i, entries in state_dict["state"].items():
            self.state[params[int(i)]] = dict(entries)

    def __repr__(self):
        return _optimizer_repr(self)


class _FusedOptimizer(Optimizer):
    """An Optimizer over a C++ optimizer (meshflow/nn/optim.h): parameter groups as dicts in
    param_groups (editable, each with its own hyperparameters, written through to C++),
    add_param_group, state_dict / load_state_dict in torch's structure,
    zero_grad(set_to_none=True)."""

    # Group key -> function from its value to the C++ options it sets ({} for a checked key
    # the C++ optimizer does not read).
    _options = {}

    def __init__(self, params, defaults, zero_stage=0):
        self.defaults = dict(defaults)
        groups = list(params) if not isinstance(params, Tensor) else _tensors(params)
        if not groups:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(groups[0], dict):
            groups = [{"params": groups}]
        groups = [self._complete(g) for g in groups]
        self._impl = self._make([(g["params"], self._cxx(g)) for g in groups])
        if zero_stage:
            self._impl.zero_stage = int(zero_stage)
        self.param_groups = [_ParamGroup(self._impl, i, self._options, g) for i, g in enumerate(groups)]
        self._patch_step_function()

    def _make(self, groups):
        raise NotImplementedError

    def _complete(self, group):
        """`group` with its params as a list of tensors and the defaults filled in."""
        if not isinstance(group, dict):
            raise TypeError(f"param group must be a dict, but got {_type_name(group)}")
        if "params" not in group:
            raise ValueError("a parameter group needs a 'params' entry")
        group = _group_with_names(group)
        params = _tensors(group["params"])
        if not params:
            raise ValueError("optimizer got an empty parameter list")
        # Keys that are no option of this optimizer ("name", a scheduler's, a typo) are kept as
        # they are and change nothing, as torch's: programs tag their groups ({"params": ...,
        # "name": "no_decay"}) and read the tags back.
        complete = dict(group, params=params)
        for key, value in self.defaults.items():
            complete.setdefault(key, value)
        return complete

    def _cxx(self, group):
        options = {}
        for key, value in group.items():
            if key in self._options:
                options.update(self._options[key](value))
        return options

    def add_param_group(self, param_group):
        """Adds a group (a dict with "params"); the options it leaves out are the defaults."""
        group = self._complete(param_group)
        self._impl.add_param_group([p._impl for p in group["params"]], self._cxx(group))
        self.param_groups.append(_ParamGroup(self._impl, len(self.param_groups), self._options, group))

    def step(self, closure=None):
        """One update of every parameter that has a gradient; with a closure, calls it first
        (with grad enabled) and returns its loss, as torch."""
        loss = None
        if closure is not None:
            from ..autograd import enable_grad
            with enable_grad():
                loss = closure()
        self._impl.step()
        return loss

    def zero_grad(self, set_to_none=True):
        """Drops every gradient (set_to_none=False: zeroes each in place instead)."""
        if set_to_none:
            self._impl.zero_grad()
            return
        _zero_grads((p for group in self.param_groups for p in group["params"]), False)

    @property
    def zero_stage(self):
        """The ZeRO stage (0: off), as given to the constructor."""
        return self._impl.zero_stage

    @property
    def lr(self):
        """The first group's learning rate; setting it sets every group's."""
        return self.param_groups[0]["lr"]

    @lr.setter
    def lr(self, value):
        for group in self.param_groups:
            group["lr"] = value

    def _params(self):
        return [p for group in self.param_groups for p in group["params"]]

    def _indexed_state(self):
        """{index: {name: tensor}}: the C++ optimizer's state, and what a program stored in
        `state` beside it (which the C++ optimizer does not keep)."""
        view = self.__dict__.get("_state_view", {})
        params = self._params()
        indexed = {i: {k: Tensor(v) for k, v in s.items()} for i, s in enumerate(self._impl.state()) if s}
        for i, p in enumerate(params):
            extra = {k: v for k, v in view.get(p, {}).items() if k not in indexed.get(i, {})}
            if extra:
                indexed.setdefault(i, {}).update(extra)
        return indexed

    @property
    def state(self):
        """Parameter -> its state ({name: tensor}), as torch's defaultdict(dict): the same dict
        each read, its tensors the ones the steps update in place, and keys a program adds kept
        (and saved by state_dict). A parameter read there before its first step stays listed,
        with an empty state."""
        view = self.__dict__.setdefault("_state_view", collections.defaultdict(dict))
        params = self._params()
        for i, entries in self._indexed_state().items():
            view[params[i]].update(entries)
        return view

    def state_dict(self):
        """torch's structure: {"state": {index: {name: tensor}}, "param_groups": [{options...,
        "params": [indices]}]}, indices counting the parameters of every group in order (Adam's
        states hold their "step", as torch's). The tensors keep their layouts."""
        groups, start = [], 0
        for group in self.param_groups:
            n = len(group["params"])
            groups.append({**{k: v for k, v in group.items() if k != "params"},
                           "params": list(range(start, start + n))})
            start += n
        return {"state": self._indexed_state(), "param_groups": groups}

    def load_state_dict(self, state_dict):
        """Loads a state_dict() (also one without "param_groups", as meshflow wrote before):
        the groups' options, then the per-parameter state, each tensor in its parameter's
        layout."""
        saved_groups = state_dict.get("param_groups")
        if saved_groups is not None:
            _check_groups_match(saved_groups, self.param_groups)
        params = [Tensor(p) for p in self._impl.params]
        n = len(params)
        state = [{} for _ in range(n)]
        view = self.__dict__["_state_view"] = collections.defaultdict(dict)
        for i, entries in state_dict["state"].items():
            i = int(i)
            if not 0 <= i < n:
                raise ValueError(f"optimizer state for parameter {i}; the optimizer has {n} parameters")
            param = params[i]
            entries = dict(entries)
            for k, v in entries.items():
                if isinstance(v, _np.ndarray):  # a tensor in the wrong type, not a value a program keeps
                    raise TypeError(f"[load_state_dict] state {k!r} of parameter {i} is a {_type_name(v)}; "
                                    "expected a meshflow Tensor")
            if "step" in entries and not isinstance(entries["step"], Tensor):  # torch's older files: a number
                entries["step"] = tensor(float(entries["step"]))
            # Moments take the parameter's layout and dtype (as torch casts them); scalars (the
            # step) stay as they are. What is no tensor the program stored itself: `state` keeps it.
            state[i] = {k: (_like_param(v, param) if tuple(v.shape) == tuple(param.shape) else v)._impl
                        for k, v in entries.items() if isinstance(v, Tensor)}
            view[self._params()[i]].update({k: v for k, v in entries.items() if not isinstance(v, Tensor)})
        if saved_groups is not None:
            for saved, group in zip(saved_groups, self.param_groups):
                group.update({k: v for k, v in saved.items() if k != "params"})
        self._impl.load_state(state, _steps_taken(state_dict))

    def __repr__(self):
        return _optimizer_repr(self)

    def __reduce_ex__(self, protocol):
        """Pickled (torch.save of the optimizer, copy.deepcopy) as its class rebuilt over the
        same parameters, then its state_dict loaded: the C++ optimizer is not picklable."""
        groups = [{k: v for k, v in g.items() if k == "params" or k in self.defaults} for g in self.param_groups]
        return _rebuild_optimizer, (type(self), groups, self.defaults, self.zero_stage, self.state_dict())


def _rebuild_optimizer(cls, groups, defaults, zero_stage, state_dict):
    import inspect
    accepted = inspect.signature(cls.__init__).parameters
    kwargs = {k: v for k, v in defaults.items() if k in accepted}
    if zero_stage:
        kwargs["zero_stage"] = zero_stage
    optimizer = cls(groups, **kwargs)
    optimizer.load_state_dict(state_dict)  # the state, and the groups' other keys (a scheduler's "initial_lr")
    return optimizer


def _check_groups_match(saved_groups, groups):
    """Raises torch's errors where a state_dict's groups do not fit the optimizer's."""
    if len(saved_groups) != len(groups):
        raise ValueError("loaded state dict has a different number of parameter groups")
    for saved, group in zip(saved_groups, groups):
        if len(saved["params"]) != len(group["params"]):
            raise ValueError("loaded state dict contains a parameter group that doesn't match the size of "
                             "optimizer's group")


def _optimizer_repr(optimizer):
    """torch's: the class, then each group's options."""
    groups = ["\n".join([f"Parameter Group {i}"] + [f"    {k}: {group[k]}" for k in sorted(group) if k != "params"])
              for i, group in enumerate(optimizer.param_groups)]
    return f"{type(optimizer).__name__} (\n" + "\n\n".join(groups) + "\n)"  # a blank line between groups


def _steps_taken(state_dict):
    """The number of steps a state_dict was saved after: its parameters' "step" (Adam's, as
    torch's), or the top-level "step" meshflow wrote before; 0 when it keeps none (SGD's
    update does not depend on it)."""
    if "step" in state_dict:
        return int(state_dict["step"])
    for entries in state_dict["state"].values():
        if "step" in entries:
            return int(float(entries["step"]))
    return 0


def _no_differentiable(name, differentiable):
    """torch's foreach / fused / capturable choose among its kernels, which meshflow's steps do
    not need (fused C++ kernels, or ops); differentiable (autograd through the step) is refused."""
    if differentiable:
        raise NotImplementedError(f"{name}: differentiable steps are not supported; expected differentiable=False")


class SGD(_FusedOptimizer):
    """torch.optim.SGD: momentum, dampening, nesterov, weight_decay (L2), maximize, per group;
    zero_stage shards state, gradients and parameters along the data axes (module docstring)."""

    _options = {"lr": _float_option("lr"), "momentum": _float_option("momentum"),
                "dampening": _float_option("dampening"), "weight_decay": _float_option("weight_decay"),
                "nesterov": _bool_option("nesterov"), "maximize": _bool_option("maximize")}

    def __init__(self, params, lr=1e-3, momentum=0, dampening=0, weight_decay=0, nesterov=False, *,
                 maximize=False, foreach=None, differentiable=False, fused=None, zero_stage=0):
        _no_differentiable("SGD", differentiable)
        # foreach and fused choose among torch's kernels (meshflow's step is one fused op per
        # parameter): kept in the groups as torch keeps them, changing nothing.
        super().__init__(params, dict(lr=lr, momentum=momentum, dampening=dampening, weight_decay=weight_decay,
                                      nesterov=nesterov, maximize=maximize, foreach=foreach,
                                      differentiable=differentiable, fused=fused), zero_stage)

    def _make(self, groups):
        d = self.defaults
        return _C.SGD([([p._impl for p in params], options) for params, options in groups], float(d["lr"]),
                      float(d["momentum"]), float(d["dampening"]), float(d["weight_decay"]), bool(d["nesterov"]))


class _AdamBase(_FusedOptimizer):
    _options = {"lr": _float_option("lr"), "betas": _betas_option, "eps": _float_option("eps"),
                "weight_decay": _float_option("weight_decay"), "amsgrad": _bool_option("amsgrad"),
                "maximize": _bool_option("maximize")}
    _cxx_class = None

    def __init__(self, params, lr, betas, eps, weight_decay, amsgrad, maximize, zero_stage, foreach, capturable,
                 differentiable, fused, decoupled_weight_decay):
        # foreach, capturable and fused choose among torch's kernels: kept in the groups as
        # torch keeps them, changing nothing (meshflow's step is one fused op per parameter).
        super().__init__(params, dict(lr=lr, betas=tuple(betas), eps=eps, weight_decay=weight_decay,
                                      amsgrad=amsgrad, maximize=maximize, foreach=foreach, capturable=capturable,
                                      differentiable=differentiable, fused=fused,
                                      decoupled_weight_decay=decoupled_weight_decay), zero_stage)

    def _complete(self, group):
        complete = super()._complete(group)
        if complete["decoupled_weight_decay"] != self.defaults["decoupled_weight_decay"]:
            raise NotImplementedError(f"{type(self).__name__}: decoupled_weight_decay differs between parameter "
                                      "groups; expected the optimizer's own for every group")
        return complete

    def _make(self, groups):
        d = self.defaults
        beta1, beta2 = d["betas"]
        return self._cxx_class([([p._impl for p in params], options) for params, options in groups],
                               float(d["lr"]), float(beta1), float(beta2), float(d["eps"]), float(d["weight_decay"]))


class AdamW(_AdamBase):
    """torch.optim.AdamW: decoupled weight decay, amsgrad, maximize; zero_stage as SGD's."""

    _cxx_class = _C.AdamW

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2, amsgrad=False, *,
                 maximize=False, foreach=None, capturable=False, differentiable=False, fused=None, zero_stage=0):
        _no_differentiable("AdamW", differentiable)
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, maximize, zero_stage, foreach, capturable,
                         differentiable, fused, True)


class Adam(_AdamBase):
    """torch.optim.Adam: weight_decay is an L2 term added to the gradient; amsgrad, maximize;
    zero_stage as SGD's."""

    _cxx_class = _C.Adam

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, amsgrad=False, *,
                 foreach=None, maximize=False, capturable=False, differentiable=False, fused=None,
                 decoupled_weight_decay=False, zero_stage=0):
        _no_differentiable("Adam", differentiable)
        if decoupled_weight_decay:  # torch's Adam(decoupled_weight_decay=True) is AdamW
            self._cxx_class = _C.AdamW
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, maximize, zero_stage, foreach, capturable,
                         differentiable, fused, bool(decoupled_weight_decay))


class RMSprop(_FusedOptimizer):
    """torch.optim.RMSprop: alpha, eps, weight_decay (L2), momentum, centered, maximize, per
    group; one fused C++ step per parameter group, so nn.Graph steps it too; zero_stage as
    SGD's."""

    _options = {"lr": _float_option("lr"), "alpha": _float_option("alpha"), "eps": _float_option("eps"),
                "weight_decay": _float_option("weight_decay"), "momentum": _float_option("momentum"),
                "centered": _bool_option("centered"), "maximize": _bool_option("maximize")}

    def __init__(self, params, lr=1e-2, alpha=0.99, eps=1e-8, weight_decay=0, momentum=0, centered=False,
                 capturable=False, foreach=None, maximize=False, differentiable=False, *, zero_stage=0):
        _no_differentiable("RMSprop", differentiable)
        # capturable and foreach choose among torch's kernels: kept in the groups, changing nothing.
        super().__init__(params, dict(lr=lr, momentum=momentum, alpha=alpha, eps=eps, centered=centered,
                                      weight_decay=weight_decay, capturable=capturable, foreach=foreach,
                                      maximize=maximize, differentiable=differentiable), zero_stage)

    def _make(self, groups):
        d = self.defaults
        return _C.RMSprop([([p._impl for p in params], options) for params, options in groups], float(d["lr"]),
                          float(d["alpha"]), float(d["eps"]), float(d["weight_decay"]), float(d["momentum"]),
                          bool(d["centered"]))


class Adagrad(_FusedOptimizer):
    """torch.optim.Adagrad: lr_decay, weight_decay (L2), initial_accumulator_value, eps,
    maximize, per group; one fused C++ step per parameter group, so nn.Graph steps it too;
    zero_stage as SGD's."""

    _options = {"lr": _float_option("lr"), "lr_decay": _float_option("lr_decay"),
                "weight_decay": _float_option("weight_decay"),
                "initial_accumulator_value": _float_option("initial_accumulator_value"), "eps": _float_option("eps"),
                "maximize": _bool_option("maximize")}

    def __init__(self, params, lr=1e-2, lr_decay=0, weight_decay=0, initial_accumulator_value=0, eps=1e-10,
                 foreach=None, *, maximize=False, differentiable=False, fused=None, zero_stage=0):
        _no_differentiable("Adagrad", differentiable)
        # foreach and fused choose among torch's kernels: kept in the groups, changing nothing.
        super().__init__(params, dict(lr=lr, lr_decay=lr_decay, eps=eps, weight_decay=weight_decay,
                                      initial_accumulator_value=initial_accumulator_value, foreach=foreach,
                                      maximize=maximize, differentiable=differentiable, fused=fused), zero_stage)

    def _make(self, groups):
        d = self.defaults
        return _C.Adagrad([([p._impl for p in params], options) for params, options in groups], float(d["lr"]),
                          float(d["lr_decay"]), float(d["weight_decay"]), float(d["initial_accumulator_value"]),
                          float(d["eps"]))


class _RuleOptimizer(_FusedOptimizer):
    """An optimizer whose C++ step is one elementwise rule (RuleOptimizer, meshflow/nn/optim.h):
    one fused update per group of parameters, so nn.Graph steps it; zero_stage as SGD's. Its
    C++ class takes the groups and the defaults by option name."""

    _cxx_class = None

    def __init__(self, params, defaults, zero_stage):
        _no_differentiable(type(self).__name__, defaults.get("differentiable"))
        # foreach and capturable choose among torch's kernels: kept in the groups as torch
        # keeps them, changing nothing.
        super().__init__(params, defaults, zero_stage)

    def _make(self, groups):
        return self._cxx_class([([p._impl for p in params], options) for params, options in groups],
                               self._cxx(self.defaults))


def _pair_option(first, second):
    return lambda value: {first: float(value[0]), second: float(value[1])}


_ADAM_LIKE = {"lr": _float_option("lr"), "betas": _betas_option, "eps": _float_option("eps"),
              "weight_decay": _float_option("weight_decay"), "maximize": _bool_option("maximize")}


class Adamax(_RuleOptimizer):
    """torch.optim.Adamax: Adam with the infinity norm; betas, eps, weight_decay (L2),
    maximize."""

    _cxx_class = _C.Adamax
    _options = _ADAM_LIKE

    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, foreach=None, *,
                 maximize=False, differentiable=False, capturable=False, zero_stage=0):
        super().__init__(params, dict(lr=lr, betas=tuple(betas), eps=eps, weight_decay=weight_decay, foreach=foreach,
                                      maximize=maximize, capturable=capturable, differentiable=differentiable),
                         zero_stage)


class NAdam(_RuleOptimizer):
    """torch.optim.NAdam: Adam with Nesterov momentum (momentum_decay), L2 or decoupled weight
    decay, maximize; its state keeps torch's mu_product."""

    _cxx_class = _C.NAdam
    _options = {**_ADAM_LIKE, "momentum_decay": _float_option("momentum_decay"),
                "decoupled_weight_decay": _bool_option("decoupled_weight_decay")}

    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, momentum_decay=4e-3,
                 decoupled_weight_decay=False, *, foreach=None, maximize=False, capturable=False,
                 differentiable=False, zero_stage=0):
        super().__init__(params, dict(lr=lr, betas=tuple(betas), eps=eps, weight_decay=weight_decay,
                                      momentum_decay=momentum_decay, decoupled_weight_decay=decoupled_weight_decay,
                                      foreach=foreach, maximize=maximize, capturable=capturable,
                                      differentiable=differentiable), zero_stage)


class RAdam(_RuleOptimizer):
    """torch.optim.RAdam: Adam with the variance rectification, L2 or decoupled weight decay,
    maximize."""

    _cxx_class = _C.RAdam
    _options = {**_ADAM_LIKE, "decoupled_weight_decay": _bool_option("decoupled_weight_decay")}

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, decoupled_weight_decay=False,
                 *, foreach=None, maximize=False, capturable=False, differentiable=False, zero_stage=0):
        super().__init__(params, dict(lr=lr, betas=tuple(betas), eps=eps, weight_decay=weight_decay,
                                      decoupled_weight_decay=decoupled_weight_decay, foreach=foreach,
                                      maximize=maximize, capturable=capturable, differentiable=differentiable),
                         zero_stage)


class Adadelta(_RuleOptimizer):
    """torch.optim.Adadelta: lr=1.0, rho, eps, weight_decay (L2), maximize."""

    _cxx_class = _C.Adadelta
    _options = {"lr": _float_option("lr"), "rho": _float_option("rho"), "eps": _float_option("eps"),
                "weight_decay": _float_option("weight_decay"), "maximize": _bool_option("maximize")}

    def __init__(self, params, lr=1.0, rho=0.9, eps=1e-6, weight_decay=0, foreach=None, *, capturable=False,
                 maximize=False, differentiable=False, zero_stage=0):
        super().__init__(params, dict(lr=lr, rho=rho, eps=eps, weight_decay=weight_decay, foreach=foreach,
                                      maximize=maximize, capturable=capturable, differentiable=differentiable),
                         zero_stage)


class ASGD(_RuleOptimizer):
    """torch.optim.ASGD: averaged SGD (lambd, alpha, t0, weight_decay as L2, maximize); the
    average is state["ax"], eta and mu torch's float32 scalars."""

    _cxx_class = _C.ASGD
    _options = {"lr": _float_option("lr"), "lambd": _float_option("lambd"), "alpha": _float_option("alpha"),
                "t0": _float_option("t0"), "weight_decay": _float_option("weight_decay"),
                "maximize": _bool_option("maximize")}

    def __init__(self, params, lr=1e-2, lambd=1e-4, alpha=0.75, t0=1e6, weight_decay=0, foreach=None,
                 maximize=False, differentiable=False, capturable=False, *, zero_stage=0):
        super().__init__(params, dict(lr=lr, lambd=lambd, alpha=alpha, t0=t0, weight_decay=weight_decay,
                                      foreach=foreach, maximize=maximize, capturable=capturable,
                                      differentiable=differentiable), zero_stage)


class Rprop(_RuleOptimizer):
    """torch.optim.Rprop: per-element step sizes (from lr) grown by etas[1] while the gradient
    keeps its sign and shrunk by etas[0] when it flips (that step then skipped), within
    step_sizes; maximize."""

    _cxx_class = _C.Rprop
    _options = {"lr": _float_option("lr"), "etas": _pair_option("etaminus", "etaplus"),
                "step_sizes": _pair_option("step_size_min", "step_size_max"), "maximize": _bool_option("maximize")}

    def __init__(self, params, lr=1e-2, etas=(0.5, 1.2), step_sizes=(1e-6, 50), *, capturable=False, foreach=None,
                 maximize=False, differentiable=False, zero_stage=0):
        super().__init__(params, dict(lr=lr, etas=tuple(etas), step_sizes=tuple(step_sizes), foreach=foreach,
                                      maximize=maximize, capturable=capturable, differentiable=differentiable),
                         zero_stage)


def clip_grad_norm_(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False, foreach=None):
    """Scales all gradients so that their joint norm_type-norm (over every shard) is at most
    max_norm (torch's coefficient max_norm / (norm + 1e-6), capped at 1); returns the norm
    before clipping as a 0-d local tensor of the gradients' dtype, on their device (this
    rank's, for global ones), as torch's (inside a Graph's build, the traced scalar). The
    2-norm is C++'s (one fused sum of squares per layout of gradients, nn/optim.h): the norm
    and the scale stay on the device, read on the host only with error_if_nonfinite, where a
    NaN or infinite norm raises RuntimeError before any gradient changes, as torch's. foreach
    is accepted for torch's signature."""
    parameters = [parameters] if isinstance(parameters, Tensor) else list(parameters)  # as torch's
    params = [_impl_of("clip_grad_norm_", p) for p in parameters]
    norm_type = float(norm_type)
    if norm_type == 2.0:
        norm = _C.clip_grad_norm(params, float(max_norm), bool(error_if_nonfinite))
        return _norm_here(norm, [p.grad for p in parameters if p.grad is not None],
                          next((p.device for p in parameters if not p.is_global), None))
    total = get_total_norm([p.grad for p in parameters], norm_type, error_if_nonfinite)
    clip_grads_with_norm_(parameters, max_norm, total)
    return total


def _norm_here(norm, tensors, device=None):
    """A C++ norm (or None: no tensors) as clip_grad_norm_ returns it: a 0-d local tensor, of
    float64 where a tensor is, else float32 (on `device` when there is no norm); in a Graph's
    build, the traced scalar."""
    if _C.tracing() and norm is not None:
        return Tensor(norm)
    dtype = next((t.dtype for t in tensors if t.dtype.name == "float64"), _dtype.float32)
    if norm is None:
        return tensor(0.0, dtype=dtype, device=device)
    norm = Tensor(norm)
    return (norm._part() if norm.is_global else norm).to(dtype)


def get_total_norm(tensors, norm_type=2.0, error_if_nonfinite=False, foreach=None):
    """The norm_type-norm of the norms of `tensors` (torch.nn.utils.get_total_norm): a 0-d
    local tensor on their device (this rank's for global ones), computed on the device (the
    2-norm by C++'s fused sum of squares, as clip_grad_norm_'s); read on the host only to
    raise on a NaN or infinite norm with error_if_nonfinite."""
    from .._ops_shape import stack
    from .. import linalg, isfinite
    tensors = [tensors] if isinstance(tensors, Tensor) else [t for t in tensors if t is not None]
    norm_type = float(norm_type)
    if not tensors:
        return tensor(0.0)
    with no_grad():
        if norm_type == 2.0:
            total = _norm_here(_C.total_norm([_impl_of("get_total_norm", t.detach()) for t in tensors]), tensors)
        else:
            norms = [linalg.vector_norm(t.detach(), norm_type) for t in tensors]
            norms = [n.to_global(sbp=[_C.Sbp.broadcast()] * len(n.sbp))._part() if n.is_global else n
                     for n in norms]
            total = linalg.vector_norm(stack(norms), norm_type)
    if error_if_nonfinite and not bool(isfinite(total)):
        raise RuntimeError(f"The total norm of order {norm_type} for gradients from `parameters` is non-finite, so it "
                           "cannot be clipped. To disable this error and scale the gradients by the non-finite norm "
                           "anyway, set `error_if_nonfinite=False`")
    return total


def clip_grads_with_norm_(parameters, max_norm, total_norm, foreach=None):
    """Scales the gradients in place by max_norm / (total_norm + 1e-6), capped at 1 (torch's),
    on the device."""
    parameters = [parameters] if isinstance(parameters, Tensor) else list(parameters)
    from .. import no_grad
    with no_grad():
        scale = (float(max_norm) / (total_norm + 1e-6)).clamp(max=1.0) if isinstance(total_norm, Tensor) \
            else min(float(max_norm) / (float(total_norm) + 1e-6), 1.0)
        for p in parameters:
            g = p.grad
            if g is None:
                continue
            placed = scale.to_global(g.placement, [_C.Sbp.broadcast()] * len(g.sbp)) \
                if g.is_global and isinstance(scale, Tensor) else scale
            g.mul_(placed)


def warmup_cosine_lr(step, warmup, total, max_lr, min_lr=0.0):
    """Linear warmup to max_lr over `warmup` steps, then cosine decay to min_lr at `total`."""
    return _C.warmup_cosine_lr(int(step), int(warmup), int(total), float(max_lr), float(min_lr))


from ._composed_more import Adafactor, LBFGS, SparseAdam  # noqa: E402,F401
from . import lr_scheduler  # noqa: E402: meshflow.optim.lr_scheduler, as torch.optim.lr_scheduler
from . import swa_utils  # noqa: E402: meshflow.optim.swa_utils, as torch.optim.swa_utils
