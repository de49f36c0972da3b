import torch
p = [torch.nn.Parameter(torch.ones(2))]
o = torch.optim.SGD(p, lr=0.1, momentum=0.9, nesterov=False)
s = torch.optim.lr_scheduler.OneCycleLR(o, max_lr=1.0, epochs=2, steps_per_epoch=3, anneal_strategy="linear", div_factor=10, final_div_factor=100)
lrs, moms = [], []
for _ in range(6):
    p[0].grad = torch.ones(2); o.step(); s.step()
    lrs.append(s.get_last_lr()[0]); moms.append(o.param_groups[0]["momentum"])
o2 = torch.optim.SGD(p, lr=0.1, momentum=0.9)
c = torch.optim.lr_scheduler.CyclicLR(o2, base_lr=0.01, max_lr=0.1, step_size_up=2, mode="triangular2")
cl = []
for _ in range(8):
    o2.step(); c.step(); cl.append(round(o2.param_groups[0]["lr"], 8))
o3 = torch.optim.Adam(p, lr=0.1)
pl = torch.optim.lr_scheduler.PolynomialLR(o3, total_iters=4, power=2.0)
pls = [(o3.step(), pl.step(), pl.get_last_lr()[0])[2] for _ in range(5)]
report(lrs=lrs, moms=moms, cl=cl, pls=pls, w=p[0])
