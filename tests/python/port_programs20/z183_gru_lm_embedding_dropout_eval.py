import math
import torch
import torch.nn as nn


class GRULM(nn.Module):
    def __init__(self, ntoken=12, ninp=6, nhid=8, nlayers=2, dropout=0.3):
        super().__init__()
        self.drop = nn.Dropout(dropout)
        self.encoder = nn.Embedding(ntoken, ninp)
        self.rnn = nn.GRU(ninp, nhid, nlayers, dropout=dropout)
        self.decoder = nn.Linear(nhid, ntoken)
        self.nhid, self.nlayers = nhid, nlayers

    def forward(self, inp, hidden):
        output, hidden = self.rnn(self.drop(self.encoder(inp)), hidden)
        return self.decoder(self.drop(output)), hidden

    def init_hidden(self, bsz):
        return torch.zeros(self.nlayers, bsz, self.nhid)


model = det(GRULM(), scale=0.3)
corpus = ints(12, 41)
data_ = corpus[:40].view(4, -1).t().contiguous()
model.eval()
total, hidden = 0.0, model.init_hidden(4)
with torch.no_grad():
    for i in range(0, data_.size(0) - 1, 3):
        seq_len = min(3, len(data_) - 1 - i)
        inp, tgt = data_[i:i + seq_len], data_[i + 1:i + 1 + seq_len].view(-1)
        out, hidden = model(inp, hidden)
        total += len(inp) * nn.functional.cross_entropy(out.view(-1, 12), tgt).item()
val_loss = total / (len(data_) - 1)
report(val_loss=val_loss, ppl=math.exp(val_loss), hidden=hidden.sum(), shape=data_.shape)
