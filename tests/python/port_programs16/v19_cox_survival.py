import torch
import torch.nn as nn


def cox_ph_loss(log_h, durations, events):
    idx = durations.sort(descending=True)[1]
    events = events[idx]
    log_h = log_h[idx]
    gamma = log_h.max()
    log_cumsum_h = log_h.sub(gamma).exp().cumsum(0).add(1e-7).log().add(gamma)
    return -log_h.sub(log_cumsum_h).mul(events).sum().div(events.sum())


def cox_lcse(log_h, durations, events):
    idx = torch.argsort(durations, descending=True, stable=True)
    lh = log_h[idx]
    return -((lh - torch.logcumsumexp(lh, 0)) * events[idx]).sum() / events.sum()


x = data(10, 3)
durations = torch.tensor([5.0, 3.0, 9.0, 1.0, 7.0, 2.0, 8.0, 4.0, 6.0, 10.0])
events = torch.tensor([1.0, 0.0, 1.0, 1.0, 0.0, 1.0, 1.0, 0.0, 1.0, 1.0])
model = det(nn.Linear(3, 1, bias=False))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for _ in range(5):
    log_h = model(x).squeeze(-1)
    loss = cox_ph_loss(log_h, durations, events)
    opt.zero_grad()
    loss.backward()
    opt.step()
report(loss=loss.item(), lcse=cox_lcse(model(x).squeeze(-1), durations, events).item(), w=model.weight.detach())
