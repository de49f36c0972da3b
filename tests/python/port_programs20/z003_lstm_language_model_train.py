import math
import torch
import torch.nn as nn


class RNNModel(nn.Module):
    def __init__(self, ntoken, ninp, nhid, nlayers, dropout=0.0, tie_weights=True):
        super().__init__()
        self.drop = nn.Dropout(dropout)
        self.encoder = nn.Embedding(ntoken, ninp)
        self.rnn = nn.LSTM(ninp, nhid, nlayers, dropout=dropout)
        self.decoder = nn.Linear(nhid, ntoken)
        if tie_weights:
            self.decoder.weight = self.encoder.weight
        self.nlayers = nlayers
        self.nhid = nhid

    def forward(self, input, hidden):
        emb = self.drop(self.encoder(input))
        output, hidden = self.rnn(emb, hidden)
        output = self.drop(output)
        decoded = self.decoder(output).view(-1, self.decoder.out_features)
        return nn.functional.log_softmax(decoded, dim=1), hidden

    def init_hidden(self, bsz):
        weight = next(self.parameters())
        return (weight.new_zeros(self.nlayers, bsz, self.nhid), weight.new_zeros(self.nlayers, bsz, self.nhid))


def repackage_hidden(h):
    if isinstance(h, torch.Tensor):
        return h.detach()
    return tuple(repackage_hidden(v) for v in h)


def batchify(data, bsz):
    nbatch = data.size(0) // bsz
    data = data.narrow(0, 0, nbatch * bsz)
    return data.view(bsz, -1).t().contiguous()


def get_batch(source, i, bptt=5):
    seq_len = min(bptt, len(source) - 1 - i)
    return source[i:i + seq_len], source[i + 1:i + 1 + seq_len].reshape(-1)


ntokens = 13
corpus = ints(ntokens, 83)
train = batchify(corpus, 4)
model = det(RNNModel(ntokens, 8, 8, 2), scale=0.3)
criterion = nn.NLLLoss()
lr = 2.0
losses = []
for epoch in range(2):
    model.train()
    total = 0.0
    hidden = model.init_hidden(4)
    for batch, i in enumerate(range(0, train.size(0) - 1, 5)):
        d, t = get_batch(train, i)
        model.zero_grad()
        hidden = repackage_hidden(hidden)
        output, hidden = model(d, hidden)
        loss = criterion(output, t)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 0.25)
        for p in model.parameters():
            p.data.add_(p.grad, alpha=-lr)
        total += loss.item()
    losses.append(total / (batch + 1))
model.eval()
with torch.no_grad():
    out, h = model(train[:6], model.init_hidden(4))
report(losses=losses, ppl=math.exp(losses[-1]), out_sum=out.sum(), h0=h[0], nbatches=batch + 1, train_shape=train.shape)
