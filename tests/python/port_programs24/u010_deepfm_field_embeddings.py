import torch
import torch.nn as nn
import torch.nn.functional as F


class DeepFM(nn.Module):
    def __init__(self, n_features, n_fields, k):
        super().__init__()
        self.w = nn.Embedding(n_features, 1)
        self.v = nn.Embedding(n_features, k)
        self.dnn = nn.Sequential(nn.Linear(n_fields * k, 8), nn.ReLU(), nn.Linear(8, 1))

    def forward(self, idx, val):
        first = (self.w(idx).squeeze(-1) * val).sum(1)
        v = self.v(idx) * val.unsqueeze(-1)
        fm = 0.5 * (v.sum(1).pow(2) - v.pow(2).sum(1)).sum(1)
        deep = self.dnn(v.flatten(1)).squeeze(1)
        return first + fm + deep


idx = torch.tensor([[0, 3, 5], [1, 4, 5], [2, 3, 6], [0, 4, 6]])
val = torch.tensor([[1.0, 0.5, 1.0], [1.0, 0.2, 1.0], [1.0, 0.9, 1.0], [1.0, 0.1, 1.0]])
y = torch.tensor([1.0, 0.0, 1.0, 0.0])
model = det(DeepFM(7, 3, 2))
opt = torch.optim.RMSprop(model.parameters(), lr=0.01)
hist = []
for _ in range(5):
    loss = F.binary_cross_entropy_with_logits(model(idx, val), y, pos_weight=torch.tensor(2.0))
    opt.zero_grad(); loss.backward(); opt.step(); hist.append(loss.item())
report(hist=hist, out=model(idx, val), w=model.w.weight.squeeze())
