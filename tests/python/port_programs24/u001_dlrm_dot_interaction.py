import torch
import torch.nn as nn


class DLRM(nn.Module):
    def __init__(self, num_dense, cardinalities, dim):
        super().__init__()
        self.bottom = nn.Sequential(nn.Linear(num_dense, 16), nn.ReLU(), nn.Linear(16, dim), nn.ReLU())
        self.tables = nn.ModuleList([nn.Embedding(c, dim) for c in cardinalities])
        n = len(cardinalities) + 1
        self.li, self.lj = torch.tril_indices(n, n, offset=-1)
        self.top = nn.Sequential(nn.Linear(dim + n * (n - 1) // 2, 8), nn.ReLU(), nn.Linear(8, 1))

    def forward(self, dense, sparse):
        x = self.bottom(dense)
        ly = [emb(sparse[:, i]) for i, emb in enumerate(self.tables)]
        T = torch.cat([x] + ly, dim=1).view(x.shape[0], -1, x.shape[1])
        Z = torch.bmm(T, torch.transpose(T, 1, 2))
        Zflat = Z[:, self.li, self.lj]
        R = torch.cat([x, Zflat], dim=1)
        return self.top(R)


model = det(DLRM(5, [10, 7, 4], 4))
dense = data(6, 5)
sparse = torch.stack([ints(10, 6, seed=3), ints(7, 6, seed=4), ints(4, 6, seed=5)], dim=1)
labels = torch.tensor([1., 0., 1., 1., 0., 0.])
opt = torch.optim.SGD(model.parameters(), lr=0.1)
losses = []
for step in range(5):
    opt.zero_grad()
    logit = model(dense, sparse).squeeze(1)
    loss = nn.functional.binary_cross_entropy_with_logits(logit, labels)
    loss.backward()
    opt.step()
    losses.append(loss.item())
report(li=model.li, lj=model.lj, losses=losses, out=model(dense, sparse), emb0_grad_rows=(model.tables[0].weight.grad.abs().sum(1) > 0))
