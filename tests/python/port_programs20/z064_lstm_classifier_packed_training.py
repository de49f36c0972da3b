import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence


class Clf(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(20, 6, padding_idx=0)
        self.lstm = nn.LSTM(6, 5, batch_first=True, bidirectional=True)
        self.fc = nn.Linear(10, 3)

    def forward(self, x, lengths):
        packed = pack_padded_sequence(self.emb(x), lengths.cpu(), batch_first=True, enforce_sorted=False)
        _, (h, _) = self.lstm(packed)
        return self.fc(torch.cat([h[-2], h[-1]], dim=1))


m = det(Clf(), scale=0.3)
x = ints(19, 4, 6) + 1
lengths = torch.tensor([6, 3, 5, 2])
for i, L in enumerate(lengths):
    x[i, L:] = 0
y = ints(3, 4, seed=9)
opt = torch.optim.RMSprop(m.parameters(), lr=0.01, alpha=0.9, centered=True, momentum=0.5)
ls = []
for _ in range(4):
    opt.zero_grad()
    l = nn.functional.cross_entropy(m(x, lengths), y)
    l.backward()
    opt.step()
    ls.append(l.item())
report(ls=ls, pred=m(x, lengths).argmax(1), emb0=m.emb.weight[0])
