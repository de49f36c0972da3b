import torch
import torch.nn as nn
from torch.nn.utils.rnn import pad_sequence, pack_padded_sequence, pad_packed_sequence

PAD = 0
sents = [torch.tensor([5, 3, 7, 2, 9]), torch.tensor([4, 4, 8]), torch.tensor([6, 2, 3, 1])]
lengths = torch.tensor([len(s) for s in sents])
order = torch.argsort(lengths, descending=True)
batch = pad_sequence([sents[i] for i in order], batch_first=True, padding_value=PAD)
lens_sorted = lengths[order]


class LM(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(10, 6, padding_idx=PAD)
        self.rnn = nn.LSTM(6, 8, batch_first=True)
        self.out = nn.Linear(8, 10)

    def forward(self, x, lens):
        packed = pack_padded_sequence(self.emb(x), lens, batch_first=True, enforce_sorted=True)
        o, _ = self.rnn(packed)
        o, _ = pad_packed_sequence(o, batch_first=True, total_length=x.size(1))
        return self.out(o)


m = det(LM(), scale=0.3)
crit = nn.CrossEntropyLoss(ignore_index=PAD)
opt = torch.optim.Adam(m.parameters(), lr=0.01)
inp, tgt = batch[:, :-1], batch[:, 1:]
ls = []
for _ in range(4):
    opt.zero_grad()
    logits = m(inp, (lens_sorted - 1).clamp(min=1))
    loss = crit(logits.reshape(-1, 10), tgt.reshape(-1))
    loss.backward()
    opt.step()
    ls.append(loss.item())
unsorted = torch.empty_like(order)
unsorted[order] = torch.arange(len(order))
report(ls=ls, order=order, unsorted=unsorted, batch=batch, pad_row=m.emb.weight[PAD])
