import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(11, 6)
        self.rnn = nn.LSTM(6, 6, batch_first=True)
        self.out = nn.Linear(6, 11, bias=False)
        self.out.weight = self.emb.weight

    def forward(self, x, h=None):
        y, h = self.rnn(self.emb(x), h)
        return self.out(y), h


m = det(TinyLM(), seed=1)
opt = torch.optim.SGD(m.parameters(), lr=0.5)
seq = ints(11, 2, 9, seed=2)
h = None
hist = []
for i in range(0, 8, 4):
    x, y = seq[:, i:i + 4], seq[:, i + 1:i + 5]
    if h is not None:
        h = tuple(t.detach() for t in h)
    logits, h = m(x, h)
    loss = F.cross_entropy(logits.reshape(-1, 11), y.reshape(-1))
    opt.zero_grad()
    loss.backward()
    opt.step()
    hist.append(loss.item())
report(hist=hist, tied=m.out.weight is m.emb.weight, n=sum(p.numel() for p in m.parameters()),
       ppl=torch.exp(torch.tensor(hist)).tolist())
