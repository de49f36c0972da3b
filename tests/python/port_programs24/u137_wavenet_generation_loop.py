import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyCausal(nn.Module):
    def __init__(self, q=8, ch=6):
        super().__init__()
        self.emb = nn.Embedding(q, ch)
        self.c1 = nn.Conv1d(ch, ch, 2, dilation=1)
        self.c2 = nn.Conv1d(ch, ch, 2, dilation=2)
        self.out = nn.Conv1d(ch, q, 1)

    def forward(self, codes):
        h = self.emb(codes).transpose(1, 2)
        h = torch.tanh(self.c1(F.pad(h, (1, 0))))
        h = torch.tanh(self.c2(F.pad(h, (2, 0)))) + h
        return self.out(h)


net = det(TinyCausal())
seq = torch.tensor([[1, 3, 2]])
with torch.no_grad():
    for _ in range(6):
        logits = net(seq)[:, :, -1]
        nxt = logits.argmax(-1, keepdim=True)
        seq = torch.cat([seq, nxt], 1)
    probs = F.softmax(net(seq)[:, :, -1] / 0.7, -1)
report(seq=seq, probs=probs, ent=-(probs * probs.log()).sum().item())
