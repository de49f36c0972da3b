import torch

w = torch.nn.Parameter(torch.zeros(3))
opt = torch.optim.SGD([w], lr=0.1, momentum=0.9, nesterov=False)
s = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=0.5, epochs=2, steps_per_epoch=3, base_momentum=0.8, max_momentum=0.95)
moms, lrs = [], []
for _ in range(6):
    opt.step()
    s.step()
    moms.append(round(opt.param_groups[0]["momentum"], 6))
    lrs.append(round(opt.param_groups[0]["lr"], 6))
adam = torch.optim.Adam([w], lr=0.1, betas=(0.9, 0.99))
s2 = torch.optim.lr_scheduler.CyclicLR(adam, 0.01, 0.1, step_size_up=2, base_momentum=0.7, max_momentum=0.9)
b1 = []
for _ in range(5):
    adam.step()
    s2.step()
    b1.append([round(x, 6) for x in adam.param_groups[0]["betas"]])
report(moms=moms, lrs=lrs, b1=b1, initial=opt.param_groups[0]["initial_lr"], keys=sorted(s.state_dict().keys())[:5])
