import math
import torch
import torch.nn as nn


class LM(nn.Module):
    def __init__(self, v=15, d=8):
        super().__init__()
        self.drop = nn.Dropout(0.0)
        self.encoder = nn.Embedding(v, d)
        self.rnn = nn.GRU(d, d, 2)
        self.decoder = nn.Linear(d, v)
        self.decoder.weight = self.encoder.weight

    def forward(self, x, h):
        out, h = self.rnn(self.drop(self.encoder(x)), h)
        return self.decoder(self.drop(out)).view(-1, 15), h

    def init_hidden(self, bsz):
        weight = next(self.parameters())
        return weight.new_zeros(2, bsz, 8)


model = det(LM())
stream = ints(15, 41)
nb = stream.size(0) // 4
batched = stream[: nb * 4].view(4, -1).t().contiguous()
crit = nn.CrossEntropyLoss()
h = model.init_hidden(4)
total = 0.0
opt = torch.optim.SGD(model.parameters(), lr=1.0)
for i in range(0, batched.size(0) - 1, 3):
    seq_len = min(3, len(batched) - 1 - i)
    x, y = batched[i: i + seq_len], batched[i + 1: i + 1 + seq_len].reshape(-1)
    h = h.detach()
    model.zero_grad()
    out, h = model(x, h)
    loss = crit(out, y)
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 0.25)
    for p in model.parameters():
        p.data.add_(p.grad, alpha=-1.0)
    total += seq_len * loss.item()
report(batched=batched.shape, ppl=math.exp(total / (batched.size(0) - 1)), nparams=len(list(model.parameters())))
