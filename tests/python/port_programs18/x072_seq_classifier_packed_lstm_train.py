import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence, pad_sequence


class Clf(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(10, 4, padding_idx=0)
        self.lstm = nn.LSTM(4, 5, batch_first=True, bidirectional=True)
        self.fc = nn.Linear(10, 2)

    def forward(self, ids, lens):
        packed = pack_padded_sequence(self.emb(ids), lens, batch_first=True, enforce_sorted=False)
        out, (h, c) = self.lstm(packed)
        out, ol = pad_packed_sequence(out, batch_first=True)
        feat = torch.cat([h[-2], h[-1]], dim=-1)
        return self.fc(feat), out, ol


seqs = [torch.tensor([3, 4, 5]), torch.tensor([1, 2]), torch.tensor([6, 7, 8, 9])]
lens = torch.tensor([len(s) for s in seqs])
ids = pad_sequence(seqs, batch_first=True)
m = det(Clf(), scale=0.3)
opt = torch.optim.Adam(m.parameters(), lr=0.01)
for _ in range(2):
    logits, out, ol = m(ids, lens)
    loss = nn.functional.cross_entropy(logits, torch.tensor([0, 1, 0]))
    opt.zero_grad()
    loss.backward()
    opt.step()
report(logits=logits, out_pad=out[1, 2:], ol=ol, loss=loss, out_shape=list(out.shape))
