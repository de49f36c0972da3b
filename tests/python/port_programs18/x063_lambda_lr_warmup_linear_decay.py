import torch


def get_linear_schedule_with_warmup(optimizer, warmup, total):
    def lr_lambda(step):
        if step < warmup:
            return float(step) / float(max(1, warmup))
        return max(0.0, float(total - step) / float(max(1, total - warmup)))
    return torch.optim.lr_scheduler.LambdaLR(optimizer, lr_lambda)


m = det(torch.nn.Linear(2, 1))
opt = torch.optim.AdamW(m.parameters(), lr=5e-3, weight_decay=0.01)
sched = get_linear_schedule_with_warmup(opt, 2, 6)
lrs = [opt.param_groups[0]["lr"]]
x, y = data(4, 2, seed=1), data(4, 1, seed=2)
for _ in range(6):
    loss = ((m(x) - y) ** 2).mean()
    loss.backward()
    opt.step()
    sched.step()
    opt.zero_grad()
    lrs.append(round(sched.get_last_lr()[0], 8))
report(lrs=lrs, w=m.weight, sd=sorted(sched.state_dict().keys()))
