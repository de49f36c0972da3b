import torch
import torch.nn as nn


class LM(nn.Module):
    def __init__(self, v=11, d=6, h=8):
        super().__init__()
        self.emb = nn.Embedding(v, d)
        self.lstm = nn.LSTM(d, h, num_layers=2, batch_first=True, dropout=0.0)
        self.ln = nn.LayerNorm(h)
        self.out = nn.Linear(h, v)

    def forward(self, x, state=None):
        o, state = self.lstm(self.emb(x), state)
        return self.out(self.ln(o)), state


m = det(LM(), scale=0.3)
stream = ints(11, 2, 25)
opt = torch.optim.Adam(m.parameters(), lr=5e-3)
sched = torch.optim.lr_scheduler.ExponentialLR(opt, 0.9)
state = None
ls = []
for i in range(0, 24, 6):
    x, y = stream[:, i:i + 6], stream[:, i + 1:i + 7]
    if state is not None:
        state = tuple(s.detach() for s in state)
    logits, state = m(x, state)
    loss = nn.functional.cross_entropy(logits.reshape(-1, 11), y.reshape(-1))
    opt.zero_grad()
    loss.backward()
    nn.utils.clip_grad_norm_(m.parameters(), 1.0)
    opt.step()
    sched.step()
    ls.append(loss.item())
m.eval()
with torch.no_grad():
    lp = torch.log_softmax(m(stream[:, :10])[0], -1)
    nll = -lp[:, :-1].gather(-1, stream[:, 1:10, None]).mean()
report(ls=ls, nll=nll, ppl=nll.exp(), lr=sched.get_last_lr())
