import torch
import torch.nn as nn

text = "hello world, hello torch. the quick brown fox jumps over the lazy dog"
chars = sorted(set(text))
stoi = {c: i for i, c in enumerate(chars)}
itos = {i: c for c, i in stoi.items()}
encoded = torch.tensor([stoi[c] for c in text], dtype=torch.long)


class CharRNN(nn.Module):
    def __init__(self, n, hidden=16, layers=2):
        super().__init__()
        self.embed = nn.Embedding(n, 8)
        self.rnn = nn.RNN(8, hidden, layers, nonlinearity="tanh")
        self.fc = nn.Linear(hidden, n)

    def forward(self, x, h=None):
        out, h = self.rnn(self.embed(x), h)
        return self.fc(out), h


model = det(CharRNN(len(chars)), scale=0.3)
optim = torch.optim.RMSprop(model.parameters(), lr=0.01, alpha=0.9)
seq_len, bsz = 8, 2
nb = (encoded.numel() - 1) // (seq_len * bsz)
src = encoded[: nb * seq_len * bsz].view(bsz, -1).t().contiguous()
tgt = encoded[1: nb * seq_len * bsz + 1].view(bsz, -1).t().contiguous()
h = None
losses = []
for i in range(0, src.size(0), seq_len):
    if h is not None:
        h = h.detach()
    out, h = model(src[i:i + seq_len], h)
    loss = nn.functional.cross_entropy(out.flatten(0, 1), tgt[i:i + seq_len].flatten())
    optim.zero_grad()
    loss.backward()
    nn.utils.clip_grad_value_(model.parameters(), 0.1)
    optim.step()
    losses.append(round(loss.item(), 4))
x = torch.tensor([[stoi["h"]]])
hh = None
gen = "h"
with torch.no_grad():
    for _ in range(10):
        o, hh = model(x, hh)
        nxt = o[-1, 0].argmax().item()
        gen += itos[nxt]
        x = torch.tensor([[nxt]])
report(losses=losses, gen=gen, nchars=len(chars), src_shape=list(src.shape))
