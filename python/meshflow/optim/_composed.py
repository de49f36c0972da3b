"""Optimizers whose update is composed of meshflow ops in Python (Adagrad): the
Optimizer base's interface (optim/__init__.py: param_groups as plain dicts, state keyed by
parameter, add_param_group, zero_grad, state_dict / load_state_dict), each writing its
`_update`. Their updates run under no_grad and write the parameters in place, so modules see
them; on global tensors each op keeps the parameter's layout. SGD, Adam, AdamW and RMSprop are
C++ optimizers (optim/__init__.py), fused per parameter."""
from .._ops_creation import full_like
from .._tensor import tensor
from . import Optimizer, _no_differentiable  # defined before this module is imported


def _step(state):
    state["step"] = state["step"] + 1 if "step" in state else tensor(1.0)
    return float(state["step"].item())


class Adagrad(Optimizer):
    """torch.optim.Adagrad: lr, lr_decay, weight_decay, initial_accumulator_value, eps."""

    def __init__(self, params, lr=0.01, lr_decay=0, weight_decay=0, initial_accumulator_value=0, eps=1e-10,
                 foreach=None, *, maximize=False, differentiable=False, fused=None):
        if lr < 0 or lr_decay < 0 or weight_decay < 0 or initial_accumulator_value < 0 or eps < 0:
            raise ValueError("Adagrad: invalid hyperparameters; expected lr, lr_decay, weight_decay, "
                             "initial_accumulator_value and eps >= 0")
        _no_differentiable("Adagrad", differentiable)
        super().__init__(params, dict(lr=lr, lr_decay=lr_decay, eps=eps, weight_decay=weight_decay,
                                      initial_accumulator_value=initial_accumulator_value, foreach=foreach,
                                      maximize=maximize, differentiable=differentiable, fused=fused))
        for group in self.param_groups:  # torch's Adagrad has its state from the start (a state_dict shows it)
            for p in group["params"]:
                self.state[p].update(step=tensor(0.0), sum=full_like(p, float(initial_accumulator_value)))

    def _update(self, p, grad, state, group):
        step = _step(state)
        grad = -grad if group.get("maximize") else grad
        if "sum" not in state:
            state["sum"] = full_like(p, float(group["initial_accumulator_value"]))
        if group["weight_decay"]:
            grad = grad + p * group["weight_decay"]
        lr = group["lr"] / (1 + (step - 1) * group["lr_decay"])
        state["sum"] = state["sum"] + grad * grad
        p.sub_(grad / (state["sum"].sqrt() + group["eps"]) * lr)

