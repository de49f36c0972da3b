"""torch.optim.swa_utils: stochastic weight averaging. AveragedModel keeps a running average
(or, with get_ema_multi_avg_fn, an exponential one) of a model's parameters, SWALR anneals
each group's rate to its swa_lr, and update_bn recomputes the batch norms' statistics of
the averaged weights over a data loader, each as torch's."""
import copy
import itertools
import math

from .._ops_creation import zeros
from .._tensor import Tensor, no_grad
from ..nn.modules import Module
from .lr_scheduler import LRScheduler

__all__ = ["AveragedModel", "SWALR", "update_bn", "get_ema_multi_avg_fn", "get_ema_avg_fn"]


def get_ema_avg_fn(decay=0.999):
    """avg_fn of an exponential moving average: decay * averaged + (1 - decay) * current."""
    def ema_update(ema_param, current_param, num_averaged):
        return decay * ema_param + (1 - decay) * current_param
    return ema_update


def get_ema_multi_avg_fn(decay=0.999):
    """multi_avg_fn of an exponential moving average, in place on every averaged parameter."""
    def ema_update(ema_param_list, current_param_list, _):
        for p_ema, p_model in zip(ema_param_list, current_param_list):
            p_ema.copy_(decay * p_ema + (1 - decay) * p_model)
    return ema_update


class AveragedModel(Module):
    """A copy of `model` whose parameters (and, with use_buffers, buffers) update_parameters
    averages: by avg_fn(averaged, current, count), multi_avg_fn(averaged list, current list,
    count) or, by default, the running mean. Calling it calls the copy."""

    def __init__(self, model, device=None, avg_fn=None, multi_avg_fn=None, use_buffers=False):
        super().__init__()
        if avg_fn is not None and multi_avg_fn is not None:
            raise ValueError("Only one of avg_fn and multi_avg_fn should be provided")
        self.module = copy.deepcopy(model)
        if device is not None:
            self.module = self.module.to(device)
        self.register_buffer("n_averaged", zeros((), dtype="int64", device=device))
        self.avg_fn, self.multi_avg_fn, self.use_buffers = avg_fn, multi_avg_fn, use_buffers

    def forward(self, *args, **kwargs):
        return self.module(*args, **kwargs)

    def _averaged(self, model):
        if self.use_buffers:
            return (list(itertools.chain(self.module.parameters(), self.module.buffers())),
                    list(itertools.chain(model.parameters(), model.buffers())))
        return list(self.module.parameters()), list(model.parameters())

    def update_parameters(self, model):
        """Averages model's current parameters into this one's."""
        mine, theirs = self._averaged(model)
        count = int(self.n_averaged.item())
        with no_grad():
            current = [p.detach().to(a.device) if not a.is_global else p.detach() for a, p in zip(mine, theirs)]
            if count == 0:
                for a, p in zip(mine, current):
                    a.copy_(p)
            elif self.multi_avg_fn is not None:
                self.multi_avg_fn(mine, current, self.n_averaged)
            else:
                for a, p in zip(mine, current):
                    if self.avg_fn is None:
                        a.copy_(a + (p - a) / (count + 1))
                    else:
                        a.copy_(self.avg_fn(a.detach(), p, self.n_averaged))
            if not self.use_buffers:  # the buffers (batch norms' statistics) follow the model
                for b_swa, b_model in zip(self.module.buffers(), model.buffers()):
                    b_swa.copy_(b_model.detach())
            self.n_averaged.add_(1)


def update_bn(loader, model, device=None):
    """Recomputes every batch norm's running statistics of `model` as the plain average over
    one pass of `loader` (its items, or their first element, are the inputs)."""
    from ..nn._modules_conv import _BatchNorm
    momenta = {}
    for module in model.modules():
        if isinstance(module, _BatchNorm):
            module.reset_running_stats()
            momenta[module] = module.momentum
    if not momenta:
        return
    was_training = model.training
    model.train()
    for module in momenta:
        module.momentum = None
    with no_grad():
        for input in loader:
            if isinstance(input, (list, tuple)):
                input = input[0]
            if device is not None and isinstance(input, Tensor):
                input = input.to(device)
            model(input)
    for module, momentum in momenta.items():
        module.momentum = momentum
    model.train(was_training)


class SWALR(LRScheduler):
    """Anneals each group's rate from its value to swa_lr over anneal_epochs steps ('cos' or
    'linear'), then holds it, as torch's."""

    def __init__(self, optimizer, swa_lr, anneal_epochs=10, anneal_strategy="cos", last_epoch=-1):
        swa_lrs = list(swa_lr) if isinstance(swa_lr, (list, tuple)) else [swa_lr] * len(optimizer.param_groups)
        if len(swa_lrs) != len(optimizer.param_groups):
            raise ValueError(f"swa_lr must have the same length as optimizer.param_groups: swa_lr has {len(swa_lrs)}, "
                             f"optimizer.param_groups has {len(optimizer.param_groups)}")
        for lr, group in zip(swa_lrs, optimizer.param_groups):
            group["swa_lr"] = lr
        if anneal_strategy not in ("cos", "linear"):
            raise ValueError(f"anneal_strategy must by one of 'cos' or 'linear', instead got {anneal_strategy}")
        if not isinstance(anneal_epochs, int) or anneal_epochs < 0:
            raise ValueError(f"anneal_epochs must be equal or greater than 0, got {anneal_epochs}")
        self.anneal_func = self._cosine_anneal if anneal_strategy == "cos" else self._linear_anneal
        self.anneal_epochs = anneal_epochs
        super().__init__(optimizer, last_epoch)

    @staticmethod
    def _linear_anneal(t):
        return t

    @staticmethod
    def _cosine_anneal(t):
        return (1 - math.cos(math.pi * t)) / 2

    @staticmethod
    def _get_initial_lr(lr, swa_lr, alpha):
        return swa_lr if alpha == 1 else (lr - alpha * swa_lr) / (1 - alpha)

    def get_lr(self):
        self._warn_get_lr_outside_step()
        step = self._step_count - 1
        if self.anneal_epochs == 0:
            step = max(1, step)
        prev_alpha = self.anneal_func(max(0, min(1, (step - 1) / max(1, self.anneal_epochs))))
        prev_lrs = [self._get_initial_lr(group["lr"], group["swa_lr"], prev_alpha)
                    for group in self.optimizer.param_groups]
        alpha = self.anneal_func(max(0, min(1, step / max(1, self.anneal_epochs))))
        return [group["swa_lr"] * alpha + lr * (1 - alpha) for group, lr in zip(self.optimizer.param_groups, prev_lrs)]
