import torch


def run(**kw):
    p = torch.nn.Parameter(torch.tensor([1.0, -2.0, 3.0]))
    o = torch.optim.SGD([p], **kw)
    for _ in range(4):
        o.zero_grad()
        (p ** 2).sum().backward()
        o.step()
    return p.detach().clone()


def runa(cls, **kw):
    p = torch.nn.Parameter(torch.tensor([1.0, -2.0, 3.0]))
    o = cls([p], **kw)
    for _ in range(4):
        o.zero_grad()
        (p ** 2 + p).sum().backward()
        o.step()
    return p.detach().clone()


report(plain=run(lr=0.1), mom=run(lr=0.1, momentum=0.9), damp=run(lr=0.1, momentum=0.9, dampening=0.5),
       nest=run(lr=0.1, momentum=0.9, nesterov=True, weight_decay=0.01), maxi=run(lr=0.1, maximize=True),
       foreach=run(lr=0.1, momentum=0.5, foreach=True), adam_max=runa(torch.optim.Adam, lr=0.1, maximize=True),
       adamw_ams=runa(torch.optim.AdamW, lr=0.1, amsgrad=True, weight_decay=0.5),
       adam_wd=runa(torch.optim.Adam, lr=0.1, weight_decay=0.5), rms=runa(torch.optim.RMSprop, lr=0.01, weight_decay=0.1),
       adagrad=runa(torch.optim.Adagrad, lr=0.5, initial_accumulator_value=0.1, weight_decay=0.1))
