import torch
import torch.nn as nn
class FM(nn.Module):
    def __init__(self, field_dims, k=4):
        super().__init__()
        self.offsets = torch.tensor((0, *torch.cumsum(torch.tensor(field_dims), 0)[:-1].tolist()), dtype=torch.long)
        n = sum(field_dims)
        self.linear = nn.Embedding(n, 1)
        self.v = nn.Embedding(n, k)
        self.bias = nn.Parameter(torch.zeros(1))
        self.deep = nn.Sequential(nn.Linear(len(field_dims) * k, 8), nn.ReLU(), nn.Linear(8, 1))
    def forward(self, x):
        x = x + self.offsets.unsqueeze(0)
        e = self.v(x)
        square_of_sum = e.sum(1) ** 2
        sum_of_square = (e ** 2).sum(1)
        inter = 0.5 * (square_of_sum - sum_of_square).sum(1, keepdim=True)
        pair = torch.einsum("bik,bjk->bij", e, e).triu(1).sum((1, 2)).unsqueeze(1)
        out = self.linear(x).sum(1) + self.bias + inter + self.deep(e.flatten(1))
        return out.squeeze(1), inter, pair
fd = [3, 5, 4]
model = det(FM(fd), 0, 0.3)
x = torch.stack([ints(d, 10, seed=s) for s, d in enumerate(fd)], 1)
y = ints(2, 10, seed=7).float()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for _ in range(3):
    out, inter, pair = model(x)
    loss = nn.functional.binary_cross_entropy_with_logits(out, y)
    opt.zero_grad(); loss.backward(); opt.step()
report(offsets=model.offsets, loss=loss, same=torch.allclose(inter, pair, atol=1e-5), out=out[:4])
