import torch

qs = torch.tensor([0.1, 0.5, 0.9])
pred = data(5, 3, seed=1).requires_grad_()
y = data(5, 1, seed=2)
err = y - pred
loss = torch.max(qs * err, (qs - 1) * err).mean()
loss.backward()
crossing = (pred[:, 1:] < pred[:, :-1]).sum()
srt, _ = pred.detach().sort(dim=1)
cover = ((y >= srt[:, :1]) & (y <= srt[:, 2:])).float().mean()
report(loss=loss, g=pred.grad, crossing=crossing, cover=cover)
