import torch
import torch.nn as nn


class NeuMF(nn.Module):
    def __init__(self, n_users, n_items, k):
        super().__init__()
        self.u_gmf = nn.Embedding(n_users, k)
        self.i_gmf = nn.Embedding(n_items, k)
        self.u_mlp = nn.Embedding(n_users, k)
        self.i_mlp = nn.Embedding(n_items, k)
        self.mlp = nn.Sequential(nn.Linear(2 * k, k), nn.ReLU())
        self.out = nn.Linear(2 * k, 1)
        self.user_bias = nn.Embedding(n_users, 1)

    def forward(self, u, i):
        gmf = self.u_gmf(u) * self.i_gmf(i)
        mlp = self.mlp(torch.cat([self.u_mlp(u), self.i_mlp(i)], dim=-1))
        return (self.out(torch.cat([gmf, mlp], -1)) + self.user_bias(u)).squeeze(-1)


torch.manual_seed(0)
model = det(NeuMF(5, 6, 4))
users = ints(5, 20, seed=1)
items = ints(6, 20, seed=2)
ratings = (ints(5, 20, seed=3) + 1).float()
opt = torch.optim.Adagrad(model.parameters(), lr=0.05)
losses = []
for epoch in range(6):
    for s in range(0, 20, 5):
        pred = model(users[s:s + 5], items[s:s + 5])
        loss = ((pred - ratings[s:s + 5]) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    losses.append(loss.item())
with torch.no_grad():
    all_scores = model(torch.arange(5).repeat_interleave(6), torch.arange(6).repeat(5)).view(5, 6)
    top2 = all_scores.topk(2, dim=1)
report(losses=losses, top2_idx=top2.indices, top2_val=top2.values, rmse=((model(users, items) - ratings) ** 2).mean().sqrt().item())
