import torch
import torch.nn as nn
class NeuMF(nn.Module):
    def __init__(self, U=8, I=12, d=4):
        super().__init__()
        self.gmf_u, self.gmf_i = nn.Embedding(U, d), nn.Embedding(I, d)
        self.mlp_u, self.mlp_i = nn.Embedding(U, d), nn.Embedding(I, d)
        self.mlp = nn.Sequential(nn.Linear(2 * d, d), nn.ReLU(), nn.Linear(d, d // 2))
        self.out = nn.Linear(d + d // 2, 1)
    def forward(self, u, i):
        g = self.gmf_u(u) * self.gmf_i(i)
        m = self.mlp(torch.cat([self.mlp_u(u), self.mlp_i(i)], -1))
        return self.out(torch.cat([g, m], -1)).squeeze(-1)
model = det(NeuMF(), 0, 0.3)
u, i = ints(8, 32), ints(12, 32, seed=3)
y = (ints(2, 32, seed=4)).float()
opt = torch.optim.Adam(model.parameters(), lr=0.01)
for _ in range(4):
    loss = nn.BCEWithLogitsLoss()(model(u, i), y)
    opt.zero_grad(); loss.backward(); opt.step()
with torch.no_grad():
    users = torch.arange(8)
    scores = model(users.repeat_interleave(12), torch.arange(12).repeat(8)).view(8, 12)
top = scores.topk(3, dim=1).indices
truth = torch.tensor([0, 3, 5, 7, 11, 2, 9, 1])
hits = (top == truth.unsqueeze(1)).any(1).float().mean()
ranks = (scores > scores.gather(1, truth.unsqueeze(1))).sum(1)
ndcg = torch.where(ranks < 3, 1.0 / torch.log2(ranks.float() + 2), torch.zeros(8)).mean()
report(loss=loss, top=top[:3], hits=hits, ndcg=ndcg, isin=torch.isin(truth, top[0]))
