import torch
import torch.nn as nn

rnn = det(nn.LSTM(3, 6, 1), scale=0.3)
head = det(nn.Linear(6, 3), 1)
opt = torch.optim.SGD(list(rnn.parameters()) + list(head.parameters()), lr=0.1, momentum=0.9, dampening=0.1)
seq = data(12, 2, 3)
hidden = None
losses = []
for chunk in seq.split(4):
    if hidden is not None:
        hidden = tuple(h.detach() for h in hidden)
    out, hidden = rnn(chunk, hidden)
    pred = head(out[:-1])
    loss = nn.functional.mse_loss(pred, chunk[1:])
    opt.zero_grad()
    loss.backward()
    opt.step()
    losses.append(loss.item())
report(losses=losses, h=hidden[0].requires_grad, hs=hidden[0].shape, is_leaf=hidden[0].detach().is_leaf)
