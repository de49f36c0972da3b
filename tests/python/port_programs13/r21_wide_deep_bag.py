import torch
import torch.nn as nn
class WideDeep(nn.Module):
    def __init__(self, n_tokens=20, dim=6):
        super().__init__()
        self.wide = nn.EmbeddingBag(n_tokens, 1, mode="sum")
        self.deep_emb = nn.EmbeddingBag(n_tokens, dim, mode="mean")
        self.deep = nn.Sequential(nn.Linear(dim, 8), nn.ReLU(), nn.Linear(8, 1))
        self.bias = nn.Parameter(torch.zeros(1))
    def forward(self, tokens, offsets, weights=None):
        return (self.wide(tokens, offsets) + self.deep(self.deep_emb(tokens, offsets)) + self.bias).squeeze(-1)
model = det(WideDeep())
tokens = torch.tensor([1, 4, 7, 2, 2, 9, 0, 15, 19, 3, 11])
offsets = torch.tensor([0, 3, 6, 6, 9])
y = torch.tensor([1.0, 0.0, 1.0, 0.0, 1.0])
opt = torch.optim.Adagrad(model.parameters(), lr=0.1)
L = []
for _ in range(4):
    out = model(tokens, offsets)
    loss = nn.functional.binary_cross_entropy_with_logits(out, y)
    opt.zero_grad(); loss.backward(); opt.step(); L.append(loss.item())
bag_max = nn.EmbeddingBag(20, 3, mode="max")
det(bag_max, 3)
m = bag_max(torch.tensor([[1, 2, 3], [4, 5, 6]]))
ps = nn.EmbeddingBag(20, 2, mode="sum"); det(ps, 4)
w = ps(tokens, offsets, per_sample_weights=torch.linspace(0.1, 1.1, 11))
report(L=L, out=out, empty=out[2], m=m, w=w, g=model.deep_emb.weight.grad[[1, 2, 5]])
