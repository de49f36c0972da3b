import torch

p = torch.nn.Parameter(torch.zeros(1))
opt = torch.optim.SGD([p], lr=0.1)
s = torch.optim.lr_scheduler.CosineAnnealingWarmRestarts(opt, T_0=3, T_mult=2, eta_min=0.001)
lrs = []
iters = 4
for epoch in range(4):
    for i in range(iters):
        opt.step()
        s.step(epoch + i / iters)
        lrs.append(round(opt.param_groups[0]["lr"], 7))
cyc = torch.optim.lr_scheduler.CyclicLR(torch.optim.SGD([p], lr=0.1, momentum=0.9), base_lr=0.01, max_lr=0.1,
                                        step_size_up=2, mode="triangular2")
l2 = []
for _ in range(9):
    cyc.optimizer.step()
    cyc.step()
    l2.append(round(cyc.get_last_lr()[0], 7))
report(lrs=lrs, l2=l2, T_i=s.T_i, T_cur=round(s.T_cur, 5))
