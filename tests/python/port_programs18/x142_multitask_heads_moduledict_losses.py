import torch
import torch.nn as nn


class MT(nn.Module):
    def __init__(self):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(4, 6), nn.ReLU())
        self.heads = nn.ModuleDict({"cls": nn.Linear(6, 3), "reg": nn.Linear(6, 1), "bin": nn.Linear(6, 1)})

    def forward(self, x):
        h = self.trunk(x)
        return {k: head(h) for k, head in self.heads.items()}


m = det(MT())
x = data(5, 4, seed=1)
out = m(x)
losses = {"cls": nn.functional.cross_entropy(out["cls"], torch.tensor([0, 1, 2, 1, 0])),
          "reg": nn.functional.mse_loss(out["reg"].squeeze(-1), data(5, seed=2)),
          "bin": nn.functional.binary_cross_entropy_with_logits(out["bin"].squeeze(-1), torch.tensor([1.0, 0, 1, 1, 0]))}
w = {"cls": 1.0, "reg": 0.5, "bin": 2.0}
total = sum(w[k] * v for k, v in losses.items())
total.backward()
report(losses={k: v.item() for k, v in losses.items()}, total=total, keys=list(m.heads.keys()), g=m.trunk[0].bias.grad)
