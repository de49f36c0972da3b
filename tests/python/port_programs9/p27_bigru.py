import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence, pad_sequence
class Classifier(nn.Module):
    def __init__(self, vocab, emb, hid, n_cls):
        super().__init__()
        self.embedding = nn.Embedding(vocab, emb, padding_idx=0)
        self.rnn = nn.GRU(emb, hid, num_layers=2, bidirectional=True, batch_first=True)
        self.fc = nn.Linear(hid * 2, n_cls)
    def forward(self, text, lengths):
        embedded = self.embedding(text)
        packed = pack_padded_sequence(embedded, lengths.cpu(), batch_first=True, enforce_sorted=False)
        packed_out, hidden = self.rnn(packed)
        out, out_lens = pad_packed_sequence(packed_out, batch_first=True)
        hidden = torch.cat((hidden[-2, :, :], hidden[-1, :, :]), dim=1)
        return self.fc(hidden), out, out_lens
seqs = [torch.tensor([3, 4, 5, 6]), torch.tensor([7, 2]), torch.tensor([1, 9, 8])]
lengths = torch.tensor([len(s) for s in seqs])
text = pad_sequence(seqs, batch_first=True, padding_value=0)
model = det(Classifier(10, 5, 4, 3))
opt = torch.optim.Adam(model.parameters(), lr=0.01)
labels = torch.tensor([0, 2, 1])
losses = []
for _ in range(3):
    logits, out, out_lens = model(text, lengths)
    loss = nn.functional.cross_entropy(logits, labels)
    opt.zero_grad(); loss.backward(); opt.step(); losses.append(loss.item())
report(losses=losses, out=out[1], out_lens=out_lens, text=text, logits=logits, pad_grad=model.embedding.weight.grad[0])
