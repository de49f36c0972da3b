import torch

w = torch.tensor([1.0, -2.0], requires_grad=True)
opt = torch.optim.SGD([w], lr=0.1, momentum=0.9, dampening=0.1, weight_decay=0.01)
w2 = torch.tensor([1.0, -2.0], requires_grad=True)
opt2 = torch.optim.SGD([w2], lr=0.1, momentum=0.9, nesterov=True, maximize=True)
hist = []
for _ in range(3):
    for ww, o in ((w, opt), (w2, opt2)):
        o.zero_grad()
        loss = (ww ** 2 * torch.tensor([1.0, 3.0])).sum()
        loss.backward()
        o.step()
    hist.append(w.detach().clone())
buf = opt.state[w]["momentum_buffer"]
report(hist=hist, w2=w2, buf=buf)
