import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence, pad_sequence


class Classifier(nn.Module):
    def __init__(self, vocab=20, emb=6, hid=5, ncls=3):
        super().__init__()
        self.emb = nn.Embedding(vocab, emb, padding_idx=0)
        self.lstm = nn.LSTM(emb, hid, num_layers=2, batch_first=True, bidirectional=True, dropout=0.0)
        self.fc = nn.Linear(2 * hid, ncls)

    def forward(self, tokens, lengths):
        packed = pack_padded_sequence(self.emb(tokens), lengths, batch_first=True, enforce_sorted=False)
        out, (h, c) = self.lstm(packed)
        out, lens = pad_packed_sequence(out, batch_first=True, padding_value=0.0)
        feat = torch.cat([h[-2], h[-1]], dim=1)
        return self.fc(feat), out, lens


seqs = [torch.tensor([3, 5, 7, 2]), torch.tensor([4, 9]), torch.tensor([1, 8, 6, 11, 12, 3]), torch.tensor([2])]
lengths = torch.tensor([len(s) for s in seqs])
tokens = pad_sequence(seqs, batch_first=True)
model = det(Classifier())
logits, out, lens = model(tokens, lengths)
loss = nn.functional.cross_entropy(logits, torch.tensor([0, 2, 1, 0]))
loss.backward()
report(logits=logits, out=out.shape, lens=lens, tail=out[1, 2:].abs().sum(), loss=loss,
       g=model.emb.weight.grad[0].abs().sum(), gsum=model.lstm.weight_hh_l1_reverse.grad.sum())
