import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(15, 6)
        self.lstm = nn.LSTM(6, 5, num_layers=2, batch_first=True, dropout=0.0, bidirectional=True)
        self.att = nn.Linear(10, 1)
        self.out = nn.Linear(10, 4)

    def forward(self, x):
        h, _ = self.lstm(self.emb(x))
        a = torch.softmax(self.att(h).squeeze(-1), dim=1)
        return self.out((a.unsqueeze(-1) * h).sum(1)), a


m = det(Model(), scale=0.3)
feats = {}
m.lstm.register_forward_hook(lambda mod, i, o: feats.__setitem__("lstm", o[0].detach()))
x = ints(15, 3, 7)
y = ints(4, 3, seed=5)
opt = torch.optim.Adam(m.parameters(), lr=0.01)
for _ in range(3):
    opt.zero_grad()
    logits, att = m(x)
    loss = nn.functional.cross_entropy(logits, y)
    loss.backward()
    opt.step()
m.eval()
with torch.no_grad():
    logits, att = m(x)
report(loss=loss.item(), att=att, feat=feats["lstm"].shape, pred=logits.argmax(1))
