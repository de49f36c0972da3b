import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence, pad_sequence

words = ["hello", "to", "the", "world", "a", "meshes"]
chars = sorted(set("".join(words)))
stoi = {c: i + 1 for i, c in enumerate(chars)}
seqs = [torch.tensor([stoi[c] for c in w]) for w in words]
lengths = torch.tensor([len(s) for s in seqs])
padded = pad_sequence(seqs, batch_first=True)


class CharEncoder(nn.Module):
    def __init__(self, vocab, emb, hid):
        super().__init__()
        self.emb = nn.Embedding(vocab, emb, padding_idx=0)
        self.lstm = nn.LSTM(emb, hid, batch_first=True, bidirectional=True)
        self.out = nn.Linear(2 * hid, 2)

    def forward(self, x, lengths):
        packed = pack_padded_sequence(self.emb(x), lengths, batch_first=True, enforce_sorted=False)
        out, (h, c) = self.lstm(packed)
        out, out_lens = pad_packed_sequence(out, batch_first=True, total_length=x.size(1))
        final = torch.cat([h[-2], h[-1]], dim=1)
        return self.out(final), out, out_lens


model = det(CharEncoder(len(chars) + 1, 5, 4))
labels = torch.tensor([0, 1, 1, 0, 1, 0])
opt = torch.optim.Adam(model.parameters(), lr=0.01)
for _ in range(4):
    logits, out, out_lens = model(padded, lengths)
    loss = nn.functional.cross_entropy(logits, labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
report(loss=loss.item(), lens=out_lens, padded_tail=out[1, 2:].detach(), logits=logits.detach(), pad=padded[1])
