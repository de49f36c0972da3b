import torch
import torch.nn as nn


class AE(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Linear(6, 3)
        self.dec_bias = nn.Parameter(torch.zeros(6))

    def forward(self, x):
        h = torch.sigmoid(self.enc(x))
        return torch.nn.functional.linear(h, self.enc.weight.t(), self.dec_bias)


m = det(AE())
x = torch.sigmoid(data(5, 6, seed=1))
opt = torch.optim.RMSprop(m.parameters(), lr=0.01, alpha=0.9)
losses = []
for _ in range(5):
    loss = nn.functional.binary_cross_entropy_with_logits(m(x), x)
    opt.zero_grad()
    loss.backward()
    opt.step()
    losses.append(loss.item())
report(losses=losses, w=m.enc.weight[0], db=m.dec_bias, sq=opt.state[m.enc.weight]["square_avg"][0])
