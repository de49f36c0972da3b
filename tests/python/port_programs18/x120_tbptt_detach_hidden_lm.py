import torch
import torch.nn as nn

V = 7
emb, lstm, fc = det(nn.Embedding(V, 4), seed=1), det(nn.LSTM(4, 5), seed=2), det(nn.Linear(5, V), seed=3)
params = list(emb.parameters()) + list(lstm.parameters()) + list(fc.parameters())
opt = torch.optim.SGD(params, lr=0.5)
stream = ints(V, 13, seed=4)
bptt = 4
hidden = None
losses = []
for i in range(0, stream.size(0) - 1, bptt):
    seq_len = min(bptt, len(stream) - 1 - i)
    x = stream[i:i + seq_len].unsqueeze(1)
    y = stream[i + 1:i + 1 + seq_len]
    if hidden is not None:
        hidden = tuple(h.detach() for h in hidden)
    out, hidden = lstm(emb(x), hidden)
    loss = nn.functional.cross_entropy(fc(out).view(-1, V), y)
    opt.zero_grad()
    loss.backward()
    torch.nn.utils.clip_grad_norm_(params, 0.25)
    opt.step()
    losses.append(round(loss.item(), 5))
report(losses=losses, h=hidden[0].view(-1), ppl=torch.exp(torch.tensor(losses).mean()))
