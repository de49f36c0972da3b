"""Optimizers whose update is composed of meshflow ops in Python (RMSprop, Adagrad): the
Optimizer base's interface (optim/__init__.py: param_groups as plain dicts, state keyed by
parameter, add_param_group, zero_grad, state_dict / load_state_dict), each writing its
`_update`. Their updates run under no_grad and write the parameters in place, so modules see
them; on global tensors each op keeps the parameter's layout. SGD, Adam and AdamW are C++
optimizers (optim/__init__.py), fused per parameter."""
from .._ops_creation import full_like, zeros_like
from .._tensor import tensor
from . import Optimizer, _no_differentiable  # defined before this module is imported


def _step(state):
    state["step"] = state["step"] + 1 if "step" in state else tensor(1.0)
    return float(state["step"].item())


class RMSprop(Optimizer):
    """torch.optim.RMSprop: lr, alpha, eps, weight_decay, momentum, centered."""

    def __init__(self, params, lr=0.01, alpha=0.99, eps=1e-8, weight_decay=0, momentum=0, centered=False,
                 capturable=False, foreach=None, maximize=False, differentiable=False):
        if lr < 0 or eps < 0 or momentum < 0 or weight_decay < 0 or alpha < 0:
            raise ValueError(f"RMSprop: invalid hyperparameters lr={lr}, alpha={alpha}, eps={eps}, "
                             f"weight_decay={weight_decay}, momentum={momentum}; expected values >= 0")
        _no_differentiable("RMSprop", differentiable)
        super().__init__(params, dict(lr=lr, momentum=momentum, alpha=alpha, eps=eps, centered=centered,
                                      weight_decay=weight_decay, capturable=capturable, foreach=foreach,
                                      maximize=maximize, differentiable=differentiable))

    def _update(self, p, grad, state, group):
        _step(state)
        grad = -grad if group.get("maximize") else grad
        if group["weight_decay"]:
            grad = grad + p * group["weight_decay"]
        alpha = group["alpha"]
        state["square_avg"] = state.get("square_avg", zeros_like(p)) * alpha + grad * grad * (1 - alpha)
        if group["centered"]:
            state["grad_avg"] = state.get("grad_avg", zeros_like(p)) * alpha + grad * (1 - alpha)
            avg = (state["square_avg"] - state["grad_avg"] * state["grad_avg"]).sqrt() + group["eps"]
        else:
            avg = state["square_avg"].sqrt() + group["eps"]
        if group["momentum"] > 0:
            state["momentum_buffer"] = state.get("momentum_buffer", zeros_like(p)) * group["momentum"] + grad / avg
            p.sub_(state["momentum_buffer"] * group["lr"])
        else:
            p.sub_(grad / avg * group["lr"])


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

