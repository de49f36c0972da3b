import torch

res = {}
for name, kw in [("SGD", dict(lr=0.1, momentum=0.9, dampening=0.1)), ("Adam", dict(lr=0.1, amsgrad=True)), ("AdamW", dict(lr=0.1)),
                 ("RMSprop", dict(lr=0.01, centered=True, momentum=0.5)), ("Adagrad", dict(lr=0.1, lr_decay=0.01)), ("Adadelta", dict(lr=1.0)),
                 ("Adamax", dict(lr=0.1)), ("NAdam", dict(lr=0.1)), ("RAdam", dict(lr=0.1)), ("ASGD", dict(lr=0.1)), ("Rprop", dict(lr=0.1))]:
    p = torch.nn.Parameter(torch.tensor([1.0, -2.0, 3.0]))
    opt = getattr(torch.optim, name)([p], **kw)
    for i in range(3):
        opt.zero_grad()
        loss = (p ** 2 * torch.tensor([1.0, 2.0, 0.5])).sum() + p.prod()
        loss.backward()
        opt.step()
    res[name] = p.detach().clone()
report(**res)
