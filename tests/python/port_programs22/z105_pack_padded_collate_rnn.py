import torch
import torch.nn as nn
from torch.nn.utils.rnn import pad_sequence, pack_padded_sequence, pad_packed_sequence
from torch.utils.data import DataLoader

seqs = [data(n, 3, seed=150 + n) for n in (4, 2, 5, 3)]
labels = torch.tensor([0, 1, 1, 0])

def collate(batch):
    xs, ys = zip(*batch)
    lens = torch.tensor([len(x) for x in xs])
    return pad_sequence(xs, batch_first=True), lens, torch.stack(ys)

lstm = det(nn.LSTM(3, 4, batch_first=True, bidirectional=True), seed=151)
head = det(nn.Linear(8, 2), seed=152)
opt = torch.optim.Adam(list(lstm.parameters()) + list(head.parameters()), lr=0.01)
ls = []
for epoch in range(2):
    for xb, lens, yb in DataLoader(list(zip(seqs, labels)), batch_size=2, collate_fn=collate):
        packed = pack_padded_sequence(xb, lens, batch_first=True, enforce_sorted=False)
        out, (h, c) = lstm(packed)
        unpacked, ul = pad_packed_sequence(out, batch_first=True)
        feat = torch.cat([h[-2], h[-1]], dim=1)
        loss = nn.functional.cross_entropy(head(feat), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        ls.append(loss.item())
report(ls=ls, ul=ul, unpacked_shape=unpacked.shape, pad_zero=float(unpacked[1, ul[1]:].abs().sum()) if ul[1] < unpacked.shape[1] else 0.0)
