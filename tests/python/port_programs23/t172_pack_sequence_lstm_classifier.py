import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_sequence, pad_packed_sequence, pack_padded_sequence, pad_sequence


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(12, 6, padding_idx=0)
        self.lstm = nn.LSTM(6, 8, batch_first=True, bidirectional=True)
        self.fc = nn.Linear(16, 3)

    def forward(self, seqs, lengths):
        x = self.emb(seqs)
        packed = pack_padded_sequence(x, lengths, batch_first=True, enforce_sorted=False)
        out, (h, c) = self.lstm(packed)
        feats = torch.cat([h[-2], h[-1]], dim=1)
        return self.fc(feats), out


seqs = [torch.tensor([3, 4, 5, 6]), torch.tensor([7, 8]), torch.tensor([9, 10, 11])]
lengths = torch.tensor([len(s) for s in seqs])
padded = pad_sequence(seqs, batch_first=True)
model = det(Classifier(), scale=0.3)
logits, packed_out = model(padded, lengths)
unpacked, lens = pad_packed_sequence(packed_out, batch_first=True)
ps = pack_sequence([s.float() for s in seqs], enforce_sorted=False)
opt = torch.optim.Adam(model.parameters(), lr=0.01)
y = torch.tensor([0, 2, 1])
losses = []
for _ in range(3):
    opt.zero_grad()
    loss = nn.functional.cross_entropy(model(padded, lengths)[0], y)
    loss.backward()
    opt.step()
    losses.append(loss.item())
report(logits=logits, unpacked=unpacked.shape, lens=lens, tail=unpacked[1, 2:], data=ps.data, bs=ps.batch_sizes,
       sorted_idx=ps.sorted_indices, losses=losses, pad_grad=model.emb.weight.grad[0])
