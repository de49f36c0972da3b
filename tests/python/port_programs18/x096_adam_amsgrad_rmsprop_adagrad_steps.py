import torch


def run(make, steps=3):
    w = torch.tensor([0.5, -1.5, 2.0], requires_grad=True)
    opt = make([w])
    for _ in range(steps):
        opt.zero_grad()
        (w ** 2 + w.sin()).sum().backward()
        opt.step()
    return w.detach()


report(ams=run(lambda p: torch.optim.Adam(p, lr=0.1, amsgrad=True, weight_decay=0.1)),
       rms=run(lambda p: torch.optim.RMSprop(p, lr=0.01, alpha=0.9, momentum=0.5, centered=True)),
       adag=run(lambda p: torch.optim.Adagrad(p, lr=0.1, lr_decay=0.01, initial_accumulator_value=0.1)),
       adamax=run(lambda p: torch.optim.Adamax(p, lr=0.1)), nadam=run(lambda p: torch.optim.NAdam(p, lr=0.1)),
       radam=run(lambda p: torch.optim.RAdam(p, lr=0.1), steps=7), adamw=run(lambda p: torch.optim.AdamW(p, lr=0.1, weight_decay=0.5)))
