"""Optimizers (torch.optim semantics), gradient clipping and the learning-rate schedule
(torch's schedulers are in meshflow.optim.lr_scheduler).

The classes are the C++ ones (meshflow/nn/optim.h): each parameter's update is one fused op
on tensors that share the parameter's placement and SBP, so a step moves no data. An
optimizer has one parameter group: `param_groups` is a one-element list whose "lr" reads and
writes the optimizer's learning rate, as torch's code (and its schedulers) use it.
"""
from .. import _C
from .._ops_creation import zeros_like
from .._tensor import Tensor, _impl_of, _in_layout_of, _type_name


def _vars(params):
    # A lone tensor would iterate as its rows (copies, not the parameter): torch refuses it too.
    if isinstance(params, Tensor):
        raise TypeError("params must be an iterable of meshflow Tensors (model.parameters()), got a single Tensor")
    params = list(params)
    if not params:
        raise ValueError("optimizer got an empty parameter list")
    for i, p in enumerate(params):
        if not isinstance(p, Tensor):
            raise TypeError(f"parameter {i} is a {_type_name(p)}; expected a meshflow Tensor")
    return [p._impl for p in params]


class _ParamGroup(dict):
    """The optimizer's one parameter group, as torch's dict: "lr" is the optimizer's learning
    rate (setting it sets the optimizer's); other keys are kept as they are (schedulers keep
    "initial_lr" there)."""

    def __init__(self, impl):
        super().__init__(params=[Tensor(p) for p in impl.params])
        # The C++ optimizer, not the Python one: a cycle between that and its groups would keep
        # the optimizer's state (AdamW's moments) alive until the garbage collector runs.
        self._impl = impl

    def __getitem__(self, key):
        return self._impl.lr if key == "lr" else super().__getitem__(key)

    def __setitem__(self, key, value):
        if key == "lr":
            self._impl.lr = float(value)
        else:
            super().__setitem__(key, value)

    def __contains__(self, key):
        return key == "lr" or super().__contains__(key)

    def get(self, key, default=None):
        return self[key] if key in self else default


class Optimizer:
    def __init__(self, impl):
        self._impl = impl
        self.param_groups = [_ParamGroup(impl)]

    def step(self):
        self._impl.step()

    def zero_grad(self, set_to_none=True):
        """Drops every gradient (set_to_none=False: makes each a tensor of zeros instead)."""
        if set_to_none:
            self._impl.zero_grad()
            return
        for p in self.param_groups[0]["params"]:
            if p.grad is not None:
                p.grad = zeros_like(p.grad)

    @property
    def lr(self):
        return self._impl.lr

    @lr.setter
    def lr(self, value):
        self._impl.lr = float(value)

    def state_dict(self):
        """{"step": n, "state": {index: {name: tensor}}}: the tensors keep their layouts."""
        state = {i: {k: Tensor(v) for k, v in s.items()} for i, s in enumerate(self._impl.state()) if s}
        return {"step": self._impl.step_count, "state": state}

    def load_state_dict(self, state_dict):
        n = len(self._impl.params)
        state = [{} for _ in range(n)]
        for i, entries in state_dict["state"].items():
            i = int(i)
            if not 0 <= i < n:
                raise ValueError(f"optimizer state for parameter {i}; the optimizer has {n} parameters")
            param = Tensor(self._impl.params[i])
            for k, v in entries.items():
                if not isinstance(v, Tensor):
                    raise TypeError(f"[load_state_dict] state {k!r} of parameter {i} is a {_type_name(v)}; "
                                    "expected a meshflow Tensor")
            # Moments take the parameter's layout; scalars (the step) stay as they are.
            state[i] = {k: (_in_layout_of(v, param) if tuple(v.shape) == tuple(param.shape) else v)._impl
                        for k, v in entries.items()}
        self._impl.load_state(state, int(state_dict["step"]))


class SGD(Optimizer):
    def __init__(self, params, lr=1e-3, momentum=0.0, dampening=0.0, weight_decay=0.0, nesterov=False):
        super().__init__(_C.SGD(_vars(params), float(lr), float(momentum), float(dampening), float(weight_decay),
                                bool(nesterov)))


class AdamW(Optimizer):
    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2):
        super().__init__(_C.AdamW(_vars(params), float(lr), float(betas[0]), float(betas[1]), float(eps),
                                  float(weight_decay)))


def clip_grad_norm_(parameters, max_norm):
    """Scales all gradients so that their joint 2-norm (over every shard) is at most max_norm;
    returns the norm before clipping (a float; inside a Graph's build, a scalar tensor, since
    values are not known while tracing)."""
    parameters = [parameters] if isinstance(parameters, Tensor) else parameters  # as torch's
    params = [_impl_of("clip_grad_norm_", p) for p in parameters]
    if _C.tracing():
        return Tensor(_C.clip_grad_norm_traced(params, float(max_norm)))
    return _C.clip_grad_norm(params, float(max_norm))


def warmup_cosine_lr(step, warmup, total, max_lr, min_lr=0.0):
    """Linear warmup to max_lr over `warmup` steps, then cosine decay to min_lr at `total`."""
    return _C.warmup_cosine_lr(int(step), int(warmup), int(total), float(max_lr), float(min_lr))


from . import lr_scheduler  # noqa: E402: meshflow.optim.lr_scheduler, as torch.optim.lr_scheduler
