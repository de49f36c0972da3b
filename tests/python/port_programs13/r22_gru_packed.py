import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence, pad_sequence
seqs = [data(n, 3, seed=n) for n in (4, 7, 2, 5)]
lengths = torch.tensor([len(s) for s in seqs])
padded = pad_sequence(seqs, batch_first=True)
class Forecaster(nn.Module):
    def __init__(self):
        super().__init__()
        self.gru = nn.GRU(3, 8, num_layers=2, batch_first=True, dropout=0.0)
        self.fc = nn.Linear(8, 1)
    def forward(self, x, lengths):
        packed = pack_padded_sequence(x, lengths.cpu(), batch_first=True, enforce_sorted=False)
        out, h = self.gru(packed)
        out, lens = pad_packed_sequence(out, batch_first=True, total_length=x.size(1))
        last = out[torch.arange(out.size(0)), lens - 1]
        return self.fc(last).squeeze(-1), h, out, lens
model = det(Forecaster())
y = data(4, seed=9)
opt = torch.optim.Adam(model.parameters(), lr=5e-3)
L = []
for _ in range(3):
    pred, h, out, lens = model(padded, lengths)
    loss = nn.functional.mse_loss(pred, y)
    opt.zero_grad(); loss.backward()
    gn = nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)
    opt.step(); L.append([loss.item(), gn.item()])
same = torch.allclose(h[-1], out[torch.arange(4), lens - 1], atol=1e-6)
report(L=L, pad_shape=list(padded.shape), lens=lens, hshape=list(h.shape), same=same, zero_tail=out[2, 2:].abs().sum().item(), pred=pred)
