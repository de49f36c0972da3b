import torch
import torch.nn as nn

series = torch.sin(torch.arange(0, 60).float() / 4).view(1, -1, 1)
lstm = det(nn.LSTM(1, 6, batch_first=True))
head = det(nn.Linear(6, 1), seed=3)
opt = torch.optim.RMSprop(list(lstm.parameters()) + list(head.parameters()), lr=0.01, alpha=0.9)
state = None
losses = []
for start in range(0, 56, 8):
    x = series[:, start:start + 8]
    y = series[:, start + 1:start + 9]
    if state is not None:
        state = tuple(s.detach() for s in state)
    out, state = lstm(x, state)
    loss = nn.functional.mse_loss(head(out), y)
    opt.zero_grad(); loss.backward(); opt.step(); losses.append(loss.item())
report(losses=losses, h=state[0].squeeze(), c_requires=state[1].requires_grad)
