import torch
import torch.nn as nn

V = 6
rnn = det(nn.LSTM(V, 8, batch_first=True), scale=0.3)
fc = det(nn.Linear(8, V), seed=2)
g = torch.Generator().manual_seed(1)
x = torch.zeros(1, 1, V)
x[0, 0, 2] = 1
h = None
logps = []
for t in range(5):
    o, h = rnn(x, h)
    logits = fc(o[:, -1]) / 0.8
    p = torch.softmax(logits, -1)
    nxt = torch.multinomial(p, 1, generator=g).item()
    logps.append(torch.log(p[0, nxt]).item() <= 0)
    x = nn.functional.one_hot(torch.tensor([[nxt]]), V).float()
report(ok=all(logps), hshape=[list(t.shape) for t in h], first=torch.softmax(fc(rnn(torch.eye(V)[None, 2:3])[0][:, -1]) / 0.8, -1))
