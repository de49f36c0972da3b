import torch
import torch.nn as nn


class LM(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(9, 4)
        self.rnn = nn.LSTM(4, 5, num_layers=2, dropout=0.0)
        self.fc = nn.Linear(5, 9)

    def init_hidden(self, bsz):
        weight = next(self.parameters())
        return (weight.new_zeros(2, bsz, 5), weight.new_zeros(2, bsz, 5))

    def forward(self, x, h):
        out, h = self.rnn(self.emb(x), h)
        return self.fc(out), h


def repackage_hidden(h):
    if isinstance(h, torch.Tensor):
        return h.detach()
    return tuple(repackage_hidden(v) for v in h)


m = det(LM())
opt = torch.optim.SGD(m.parameters(), lr=0.5)
seq = ints(9, 13, 2)
h = m.init_hidden(2)
losses = []
for i in range(0, 12, 4):
    x, y = seq[i:i + 4], seq[i + 1:i + 5]
    h = repackage_hidden(h)
    out, h = m(x, h)
    loss = nn.functional.cross_entropy(out.view(-1, 9), y.reshape(-1))
    opt.zero_grad()
    loss.backward()
    nn.utils.clip_grad_norm_(m.parameters(), 0.25)
    opt.step()
    losses.append(loss.item())
report(losses=losses, h=h[0][1], rg=h[0].requires_grad)
