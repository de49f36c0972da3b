"""Learning-rate schedules with torch.optim.lr_scheduler's names and values: each scheduler
sets the learning rate of every parameter group (group["lr"]) from that group's base rate
(group["initial_lr"]) and the count of step() calls, in closed form. Constructing one sets
the rates for step 0; call step() after each optimizer.step()."""
import bisect
import math

__all__ = ["LRScheduler", "LambdaLR", "StepLR", "MultiStepLR", "ExponentialLR", "LinearLR", "CosineAnnealingLR",
           "OneCycleLR"]


class LRScheduler:
    def __init__(self, optimizer, last_epoch=-1):
        self.optimizer = optimizer
        for i, group in enumerate(optimizer.param_groups):
            if last_epoch == -1:
                group.setdefault("initial_lr", group["lr"])
            elif "initial_lr" not in group:
                raise KeyError(f"param 'initial_lr' is not specified in param_groups[{i}] when resuming an optimizer")
        self.base_lrs = [group["initial_lr"] for group in optimizer.param_groups]
        self.last_epoch = last_epoch
        self.step()

    def lr_at(self, epoch, base_lr):
        raise NotImplementedError

    def _lr(self, epoch, group_index):
        """Group group_index's rate at `epoch`; per-group schedules override this."""
        return self.lr_at(epoch, self.base_lrs[group_index])

    def get_last_lr(self):
        return [group["lr"] for group in self.optimizer.param_groups]

    def step(self):
        self.last_epoch += 1
        for i, group in enumerate(self.optimizer.param_groups):
            group["lr"] = self._lr(self.last_epoch, i)

    def state_dict(self):
        return {k: v for k, v in self.__dict__.items() if k != "optimizer" and not callable(v)}

    def load_state_dict(self, state_dict):
        self.__dict__.update(state_dict)


class LambdaLR(LRScheduler):
    """base_lr * lr_lambda(epoch); lr_lambda may be a list, one function per group."""

    def __init__(self, optimizer, lr_lambda, last_epoch=-1):
        if isinstance(lr_lambda, (list, tuple)):
            if len(lr_lambda) != len(optimizer.param_groups):
                raise ValueError(f"Expected {len(optimizer.param_groups)} lr_lambdas, but got {len(lr_lambda)}")
            self.lr_lambdas = list(lr_lambda)
        else:
            self.lr_lambdas = [lr_lambda] * len(optimizer.param_groups)
        super().__init__(optimizer, last_epoch)

    def _lr(self, epoch, group_index):
        return self.base_lrs[group_index] * self.lr_lambdas[group_index](epoch)

    def state_dict(self):
        return {k: v for k, v in self.__dict__.items() if k not in ("optimizer", "lr_lambdas")}


class StepLR(LRScheduler):
    """base_lr * gamma ** (epoch // step_size)."""

    def __init__(self, optimizer, step_size, gamma=0.1, last_epoch=-1):
        self.step_size, self.gamma = step_size, gamma
        super().__init__(optimizer, last_epoch)

    def lr_at(self, epoch, base_lr):
        return base_lr * self.gamma ** (epoch // self.step_size)


class MultiStepLR(LRScheduler):
    """base_lr * gamma ** (the milestones reached)."""

    def __init__(self, optimizer, milestones, gamma=0.1, last_epoch=-1):
        self.milestones, self.gamma = sorted(milestones), gamma
        super().__init__(optimizer, last_epoch)

    def lr_at(self, epoch, base_lr):
        return base_lr * self.gamma ** bisect.bisect_right(self.milestones, epoch)


class ExponentialLR(LRScheduler):
    def __init__(self, optimizer, gamma, last_epoch=-1):
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def lr_at(self, epoch, base_lr):
        return base_lr * self.gamma ** epoch


class LinearLR(LRScheduler):
    """base_lr times a factor going linearly from start_factor to end_factor over total_iters
    steps (a warmup, with the defaults), then end_factor."""

    def __init__(self, optimizer, start_factor=1.0 / 3, end_factor=1.0, total_iters=5, last_epoch=-1):
        if not 0 < start_factor <= 1 or not 0 <= end_factor <= 1:
            raise ValueError(f"LinearLR: start_factor {start_factor} and end_factor {end_factor}; expected "
                             "0 < start_factor <= 1 and 0 <= end_factor <= 1")
        self.start_factor, self.end_factor, self.total_iters = start_factor, end_factor, total_iters
        super().__init__(optimizer, last_epoch)

    def lr_at(self, epoch, base_lr):
        done = min(epoch, self.total_iters) / self.total_iters if self.total_iters else 1.0
        return base_lr * (self.start_factor + (self.end_factor - self.start_factor) * done)


class CosineAnnealingLR(LRScheduler):
    """eta_min + (base_lr - eta_min) (1 + cos(pi epoch / T_max)) / 2."""

    def __init__(self, optimizer, T_max, eta_min=0.0, last_epoch=-1):
        self.T_max, self.eta_min = T_max, eta_min
        super().__init__(optimizer, last_epoch)

    def lr_at(self, epoch, base_lr):
        return self.eta_min + (base_lr - self.eta_min) * (1 + math.cos(math.pi * epoch / self.T_max)) / 2


class OneCycleLR(LRScheduler):
    """torch's 1cycle policy: from max_lr / div_factor up to max_lr over pct_start of the
    steps, then down to that / final_div_factor (cosine or linear annealing); three_phase
    comes back to the initial rate before the final descent."""

    def __init__(self, optimizer, max_lr, total_steps=None, epochs=None, steps_per_epoch=None, pct_start=0.3,
                 anneal_strategy="cos", div_factor=25.0, final_div_factor=1e4, three_phase=False, last_epoch=-1):
        if total_steps is None:
            if epochs is None or steps_per_epoch is None:
                raise ValueError("OneCycleLR: give total_steps, or epochs and steps_per_epoch")
            total_steps = epochs * steps_per_epoch
        if total_steps <= 0 or not 0 <= pct_start <= 1:
            raise ValueError(f"OneCycleLR: total_steps {total_steps} and pct_start {pct_start}; expected a positive "
                             "count and 0 <= pct_start <= 1")
        if anneal_strategy not in ("cos", "linear"):
            raise ValueError(f"OneCycleLR: anneal_strategy {anneal_strategy!r}; expected 'cos' or 'linear'")
        self.total_steps, self.anneal_strategy = total_steps, anneal_strategy
        groups = optimizer.param_groups
        max_lrs = list(max_lr) if isinstance(max_lr, (list, tuple)) else [max_lr] * len(groups)
        if len(max_lrs) != len(groups):
            raise ValueError(f"expected {len(groups)} values for max_lr, got {len(max_lrs)}")
        up = float(pct_start * total_steps) - 1
        self.group_phases = []  # per group: (end step, start rate, end rate) of each phase
        for group, top in zip(groups, max_lrs):
            initial = top / div_factor
            low = initial / final_div_factor
            if three_phase:
                phases = [(up, initial, top), (2 * up, top, initial), (total_steps - 1, initial, low)]
            else:
                phases = [(up, initial, top), (total_steps - 1, top, low)]
            self.group_phases.append(phases)
            if last_epoch == -1:
                group["lr"] = initial
                group["initial_lr"] = initial
        super().__init__(optimizer, last_epoch)

    def _anneal(self, start, end, pct):
        if self.anneal_strategy == "cos":
            return end + (start - end) / 2.0 * (math.cos(math.pi * pct) + 1)
        return (end - start) * pct + start

    def _lr(self, epoch, group_index):
        if epoch > self.total_steps:
            raise ValueError(f"OneCycleLR: stepped {epoch} times; it was made for {self.total_steps} steps")
        begin = 0.0
        phases = self.group_phases[group_index]
        for i, (end_step, start, end) in enumerate(phases):
            if epoch <= end_step or i == len(phases) - 1:
                return self._anneal(start, end, (epoch - begin) / (end_step - begin))
            begin = end_step
        raise AssertionError("unreachable")
