import torch
import torch.nn as nn
class Decoder(nn.Module):
    def __init__(self, V=8, E=4, H=6):
        super().__init__()
        self.emb = nn.Embedding(V, E)
        self.cell = nn.LSTMCell(E, H)
        self.cell2 = nn.GRUCell(H, H)
        self.out = nn.Linear(H, V)
    def forward(self, tgt, h, c):
        logits = []
        h2 = torch.zeros_like(h)
        for t in range(tgt.size(1)):
            h, c = self.cell(self.emb(tgt[:, t]), (h, c))
            h2 = self.cell2(h, h2)
            logits.append(self.out(h2))
        return torch.stack(logits, 1)
dec = det(Decoder())
tgt = ints(8, 3, 5)
h0 = data(3, 6, seed=4); c0 = torch.zeros(3, 6)
logits = dec(tgt[:, :-1], h0, c0)
loss = nn.functional.cross_entropy(logits.reshape(-1, 8), tgt[:, 1:].reshape(-1))
loss.backward()
report(loss=loss, lg=logits[1, 2], g=dec.cell.weight_hh.grad.abs().sum(), g2=dec.cell2.bias_ih.grad[:3])
