import torch
import torch.nn as nn


class FM(nn.Module):
    def __init__(self, field_dims, k):
        super().__init__()
        self.offsets = torch.tensor([0] + list(torch.tensor(field_dims).cumsum(0)[:-1].tolist()))
        n = sum(field_dims)
        self.linear = nn.Embedding(n, 1)
        self.bias = nn.Parameter(torch.zeros(1))
        self.v = nn.Embedding(n, k)

    def forward(self, x):
        x = x + self.offsets.unsqueeze(0)
        lin = self.linear(x).sum(dim=1) + self.bias
        e = self.v(x)
        square_of_sum = e.sum(dim=1) ** 2
        sum_of_square = (e ** 2).sum(dim=1)
        inter = 0.5 * (square_of_sum - sum_of_square).sum(1, keepdim=True)
        return (lin + inter).squeeze(1)


model = det(FM([3, 5, 2], 4))
x = torch.stack([ints(3, 10, seed=1), ints(5, 10, seed=2), ints(2, 10, seed=3)], 1)
y = ints(2, 10, seed=4).float()
# explicit pairwise check
e = model.v(x + model.offsets)
pairs = sum((e[:, i] * e[:, j]).sum(-1) for i in range(3) for j in range(i + 1, 3))
out = model(x)
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9, weight_decay=1e-3)
for _ in range(5):
    loss = nn.BCEWithLogitsLoss()(model(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
report(offsets=model.offsets, out=out, pairs=pairs, final_loss=loss.item(), auc_proxy=(model(x)[y == 1].mean() - model(x)[y == 0].mean()).item())
