import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence, pad_sequence, pack_sequence
class Tagger(nn.Module):
    def __init__(self, V=15, E=6, H=5, T=4):
        super().__init__()
        self.emb = nn.Embedding(V, E, padding_idx=0)
        self.lstm = nn.LSTM(E, H, num_layers=2, bidirectional=True, batch_first=True)
        self.fc = nn.Linear(2 * H, T)
    def forward(self, x, lengths):
        e = self.emb(x)
        packed = pack_padded_sequence(e, lengths.cpu(), batch_first=True, enforce_sorted=False)
        out, (h, c) = self.lstm(packed)
        out, out_len = pad_packed_sequence(out, batch_first=True, total_length=x.size(1))
        return self.fc(out), h, out_len
seqs = [torch.tensor([3, 4, 5, 6]), torch.tensor([7, 8]), torch.tensor([9, 10, 11]), torch.tensor([12])]
lengths = torch.tensor([len(s) for s in seqs])
x = pad_sequence(seqs, batch_first=True, padding_value=0)
tags = pad_sequence([s % 4 for s in seqs], batch_first=True, padding_value=-100)
model = det(Tagger(), scale=0.3)
opt = torch.optim.Adam(model.parameters(), lr=0.02)
losses = []
for _ in range(5):
    opt.zero_grad()
    logits, h, out_len = model(x, lengths)
    loss = nn.functional.cross_entropy(logits.reshape(-1, 4), tags.reshape(-1), ignore_index=-100)
    loss.backward(); opt.step(); losses.append(loss.item())
ps = pack_sequence([torch.ones(3, 2), torch.ones(2, 2) * 2], enforce_sorted=True)
gru = det(nn.GRU(2, 3), seed=4)
o, hn = gru(ps)
unp, ln = pad_packed_sequence(o)
report(losses=losses, h=h[:, 1], out_len=out_len, logits=logits[1], ps_bs=ps.batch_sizes, ps_data=ps.data.shape, unp=unp, hn=hn, ln=ln, x=x, tags=tags)
