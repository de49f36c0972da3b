import torch
import torch.nn as nn

def lr_lambda(step, warmup=3, total=10):
    if step < warmup:
        return float(step) / float(max(1, warmup))
    return max(0.0, float(total - step) / float(max(1, total - warmup)))

model = det(nn.Linear(2, 2), seed=76)
opt = torch.optim.AdamW(model.parameters(), lr=1e-2)
sched = torch.optim.lr_scheduler.LambdaLR(opt, lr_lambda)
lrs = [sched.get_last_lr()[0]]
for _ in range(5):
    opt.step()
    sched.step()
    lrs.append(sched.get_last_lr()[0])
sd = sched.state_dict()
opt2 = torch.optim.AdamW(model.parameters(), lr=1e-2)
s2 = torch.optim.lr_scheduler.LambdaLR(opt2, lr_lambda)
s2.load_state_dict(sd)
more = []
for _ in range(3):
    opt2.step()
    s2.step()
    more.append(opt2.param_groups[0]["lr"])
mult = torch.optim.lr_scheduler.MultiplicativeLR(torch.optim.SGD(model.parameters(), lr=1.0), lambda e: 0.9)
ml = []
for _ in range(3):
    mult.optimizer.step()
    mult.step()
    ml.append(mult.get_last_lr()[0])
report(lrs=lrs, more=more, last_epoch=sd["last_epoch"], base_lrs=sd["base_lrs"], keys=sorted(sd), ml=ml,
       initial=opt.param_groups[0]["initial_lr"])
