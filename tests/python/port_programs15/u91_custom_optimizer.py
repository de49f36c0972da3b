import torch
from torch.optim import Optimizer


class SGDW(Optimizer):
    def __init__(self, params, lr=1e-2, momentum=0.9, weight_decay=1e-2):
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        defaults = dict(lr=lr, momentum=momentum, weight_decay=weight_decay)
        super().__init__(params, defaults)

    @torch.no_grad()
    def step(self, closure=None):
        loss = None
        if closure is not None:
            with torch.enable_grad():
                loss = closure()
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is None:
                    continue
                state = self.state[p]
                if len(state) == 0:
                    state["step"] = 0
                    state["momentum_buffer"] = torch.zeros_like(p, memory_format=torch.preserve_format)
                buf = state["momentum_buffer"]
                buf.mul_(group["momentum"]).add_(p.grad)
                p.mul_(1 - group["lr"] * group["weight_decay"])
                p.add_(buf, alpha=-group["lr"])
                state["step"] += 1
        return loss


model = det(torch.nn.Linear(4, 2))
opt = SGDW([{"params": [model.weight]}, {"params": [model.bias], "weight_decay": 0.0, "lr": 0.1}], lr=0.05)
x, y = data(8, 4), data(8, 2, seed=3)
hist = []
for i in range(4):
    def closure():
        opt.zero_grad()
        l = torch.nn.functional.mse_loss(model(x), y)
        l.backward()
        return l
    hist.append(opt.step(closure).item())
sd = opt.state_dict()
opt2 = SGDW([{"params": [model.weight]}, {"params": [model.bias]}])
opt2.load_state_dict(sd)
post = []
h = opt.register_step_post_hook(lambda o, a, k: post.append(len(o.param_groups)))
opt.step(closure)
h.remove()
report(hist=hist, steps=[s["step"] for s in sd["state"].values()], groups=[g["lr"] for g in opt2.param_groups],
       wd=[g["weight_decay"] for g in sd["param_groups"]], buf=opt.state[model.bias]["momentum_buffer"], post=post,
       repr_head=repr(opt).splitlines()[0])
