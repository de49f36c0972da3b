import math
import torch
import torch.nn as nn
class RNNModel(nn.Module):
    def __init__(self, ntoken=20, ninp=8, nhid=8, nlayers=2, tie_weights=True):
        super().__init__()
        self.drop = nn.Dropout(0.0)
        self.encoder = nn.Embedding(ntoken, ninp)
        self.rnn = nn.LSTM(ninp, nhid, nlayers, dropout=0.0)
        self.decoder = nn.Linear(nhid, ntoken)
        if tie_weights:
            self.decoder.weight = self.encoder.weight
        self.nhid, self.nlayers = nhid, nlayers
    def forward(self, input, hidden):
        emb = self.drop(self.encoder(input))
        output, hidden = self.rnn(emb, hidden)
        decoded = self.decoder(self.drop(output)).view(-1, 20)
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
    return source[i:i + seq_len], source[i + 1:i + 1 + seq_len].view(-1)
corpus = ints(20, 64)
train_data = batchify(corpus, 4)
model = det(RNNModel(), scale=0.3)
criterion = nn.NLLLoss()
lr = 2.0
hidden = model.init_hidden(4)
losses = []
for batch, i in enumerate(range(0, train_data.size(0) - 1, 5)):
    data_, targets = get_batch(train_data, i)
    model.zero_grad()
    hidden = repackage_hidden(hidden)
    output, hidden = model(data_, hidden)
    loss = criterion(output, targets)
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 0.25)
    for p in model.parameters():
        p.data.add_(p.grad, alpha=-lr)
    losses.append(loss.item())
report(losses=losses, ppl=math.exp(sum(losses) / len(losses)), shape=train_data.shape, h=hidden[0][-1], tied=model.decoder.weight is model.encoder.weight)
