import torch

m = torch.nn.Linear(2, 1)
opt = torch.optim.SGD(m.parameters(), lr=0.01, momentum=0.9)
sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=0.1, epochs=2, steps_per_epoch=5, pct_start=0.3,
                                            anneal_strategy="cos", div_factor=10, final_div_factor=100)
lrs, moms = [], []
for epoch in range(2):
    for b in range(5):
        opt.step()
        sched.step()
        lrs.append(round(opt.param_groups[0]["lr"], 8))
        moms.append(round(opt.param_groups[0]["momentum"], 6))
lin = torch.optim.lr_scheduler.OneCycleLR(torch.optim.Adam(m.parameters()), max_lr=1.0, total_steps=6,
                                          anneal_strategy="linear", three_phase=True)
l2 = []
for _ in range(5):
    lin.optimizer.step()
    lin.step()
    l2.append(round(lin.get_last_lr()[0], 6))
report(lrs=lrs, moms=moms, l2=l2, betas=lin.optimizer.param_groups[0]["betas"])
