import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils.rnn import pad_sequence
class AttnPool(nn.Module):
    def __init__(self, d):
        super().__init__(); self.score = nn.Linear(d, 1)
    def forward(self, h, mask):
        s = self.score(h).squeeze(-1)
        s = s.masked_fill(~mask, torch.finfo(s.dtype).min)
        a = torch.softmax(s, dim=-1)
        return torch.bmm(a.unsqueeze(1), h).squeeze(1), a
class Classifier(nn.Module):
    def __init__(self, V=30, d=8):
        super().__init__(); self.emb = nn.Embedding(V, d, padding_idx=0); self.conv = nn.Conv1d(d, d, 3, padding=1); self.pool = AttnPool(d); self.out = nn.Linear(d, 3)
    def forward(self, ids):
        mask = ids != 0
        h = self.emb(ids)
        h = F.relu(self.conv(h.transpose(1, 2))).transpose(1, 2)
        h = h * mask.unsqueeze(-1)
        v, a = self.pool(h, mask)
        mean = h.sum(1) / mask.sum(1, keepdim=True).clamp(min=1)
        mx = h.masked_fill(~mask.unsqueeze(-1), float("-inf")).max(dim=1).values
        return self.out(v + mean + mx), a
seqs = [torch.tensor([3, 4, 5]), torch.tensor([6, 7, 8, 9, 10]), torch.tensor([11])]
ids = pad_sequence(seqs, batch_first=True)
left = pad_sequence([s.flip(0) for s in seqs], batch_first=True).flip(1)
y = torch.tensor([0, 2, 1])
model = det(Classifier(), scale=0.4)
opt = torch.optim.Adagrad(model.parameters(), lr=0.1)
hist = []
for _ in range(5):
    opt.zero_grad(); logits, a = model(ids); loss = F.cross_entropy(logits, y); loss.backward(); opt.step(); hist.append(loss.item())
report(hist=hist, a=a, left=left, lens=(ids != 0).sum(1), probs=F.softmax(model(left)[0], -1))
