import torch
import torch.nn as nn
from torch.nn.utils.rnn import pad_sequence, pack_padded_sequence, pad_packed_sequence


class Tagger(nn.Module):
    def __init__(self, vocab, emb, hid, ntags):
        super().__init__()
        self.emb = nn.Embedding(vocab, emb, padding_idx=0)
        self.lstm = nn.LSTM(emb, hid, num_layers=2, batch_first=True, bidirectional=True, dropout=0.0)
        self.out = nn.Linear(2 * hid, ntags)

    def forward(self, tokens, lengths):
        e = self.emb(tokens)
        packed = pack_padded_sequence(e, lengths, batch_first=True, enforce_sorted=False)
        o, (h, c) = self.lstm(packed)
        o, lens = pad_packed_sequence(o, batch_first=True, total_length=tokens.size(1))
        return self.out(o), h, lens


seqs = [torch.tensor([3, 4, 5, 6]), torch.tensor([7, 2]), torch.tensor([1, 9, 8])]
tags = [torch.tensor([0, 1, 2, 1]), torch.tensor([2, 2]), torch.tensor([1, 0, 0])]
lengths = torch.tensor([len(s) for s in seqs])
tokens = pad_sequence(seqs, batch_first=True)
y = pad_sequence(tags, batch_first=True, padding_value=-100)
m = det(Tagger(10, 6, 5, 3))
opt = torch.optim.Adam(m.parameters(), lr=0.01)
losses = []
for _ in range(3):
    logits, h, lens = m(tokens, lengths)
    loss = nn.functional.cross_entropy(logits.reshape(-1, 3), y.reshape(-1), ignore_index=-100)
    opt.zero_grad()
    loss.backward()
    opt.step()
    losses.append(loss.item())
report(losses=losses, h_shape=h.shape, lens=lens, pad_row=logits[1, 2:], emb_pad_grad=m.emb.weight.grad[0])
