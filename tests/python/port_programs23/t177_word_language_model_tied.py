import math
import torch
import torch.nn as nn


class RNNModel(nn.Module):
    def __init__(self, rnn_type, ntoken, ninp, nhid, nlayers, dropout=0.5, tie_weights=False):
        super(RNNModel, self).__init__()
        self.ntoken = ntoken
        self.drop = nn.Dropout(dropout)
        self.encoder = nn.Embedding(ntoken, ninp)
        self.rnn = getattr(nn, rnn_type)(ninp, nhid, nlayers, dropout=dropout)
        self.decoder = nn.Linear(nhid, ntoken)
        if tie_weights:
            self.decoder.weight = self.encoder.weight
        self.rnn_type = rnn_type
        self.nhid = nhid
        self.nlayers = nlayers

    def forward(self, input, hidden):
        emb = self.drop(self.encoder(input))
        output, hidden = self.rnn(emb, hidden)
        output = self.drop(output)
        decoded = self.decoder(output)
        decoded = decoded.view(-1, self.ntoken)
        return nn.functional.log_softmax(decoded, dim=1), hidden

    def init_hidden(self, bsz):
        weight = next(self.parameters())
        if self.rnn_type == 'LSTM':
            return (weight.new_zeros(self.nlayers, bsz, self.nhid), weight.new_zeros(self.nlayers, bsz, self.nhid))
        else:
            return weight.new_zeros(self.nlayers, bsz, self.nhid)


def repackage_hidden(h):
    if isinstance(h, torch.Tensor):
        return h.detach()
    else:
        return tuple(repackage_hidden(v) for v in h)


results = {}
for kind in ['LSTM', 'GRU']:
    model = RNNModel(kind, 15, 8, 8, 2, dropout=0.0, tie_weights=True)
    det(model, seed=1, scale=0.3)
    n_params = sum(p.numel() for p in model.parameters())
    criterion = nn.NLLLoss()
    source = ints(15, 13, 2, seed=2)
    hidden = model.init_hidden(2)
    lr = 5.0
    log = []
    for i in range(0, source.size(0) - 1, 4):
        seq_len = min(4, len(source) - 1 - i)
        data_ = source[i:i + seq_len]
        targets = source[i + 1:i + 1 + seq_len].view(-1)
        model.zero_grad()
        hidden = repackage_hidden(hidden)
        output, hidden = model(data_, hidden)
        loss = criterion(output, targets)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 0.25)
        for p in model.parameters():
            p.data.add_(p.grad, alpha=-lr)
        log.append(round(math.exp(loss.item()), 4))
    results[kind] = [log, n_params, model.decoder.weight is model.encoder.weight]
report(results=results)
