import torch
import torch.nn as nn


class WideDeep(nn.Module):
    def __init__(self):
        super().__init__()
        self.wide = nn.EmbeddingBag(20, 1, mode="sum")
        self.deep_emb = nn.Embedding(10, 4)
        self.deep = nn.Sequential(nn.Linear(8, 6), nn.ReLU(), nn.Linear(6, 1))
        self.bias = nn.Parameter(torch.zeros(1))

    def forward(self, wide_idx, wide_off, deep_idx):
        w = self.wide(wide_idx, wide_off)
        d = self.deep(self.deep_emb(deep_idx).flatten(1))
        return (w + d + self.bias).squeeze(1)


m = det(WideDeep())
wi = torch.tensor([1, 5, 7, 2, 9, 19, 4])
wo = torch.tensor([0, 3, 5])
di = torch.tensor([[1, 2], [3, 4], [9, 0]])
yt = torch.tensor([1.0, 0.0, 1.0])
opt = torch.optim.Adagrad(m.parameters(), lr=0.1, initial_accumulator_value=0.1)
losses = []
for _ in range(4):
    loss = nn.functional.binary_cross_entropy_with_logits(m(wi, wo, di), yt)
    opt.zero_grad()
    loss.backward()
    opt.step()
    losses.append(loss.item())
report(losses=losses, w=m.wide.weight[:6, 0], st=opt.state[m.bias]["sum"])
