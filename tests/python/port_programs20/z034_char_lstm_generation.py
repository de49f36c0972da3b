import torch
import torch.nn as nn

text = "hello world, hello there"
chars = sorted(set(text))
stoi = {c: i for i, c in enumerate(chars)}
itos = {i: c for c, i in stoi.items()}
enc = torch.tensor([stoi[c] for c in text])


class CharLSTM(nn.Module):
    def __init__(self, n, h=16):
        super().__init__()
        self.emb = nn.Embedding(n, 8)
        self.lstm = nn.LSTM(8, h, num_layers=1, batch_first=True)
        self.fc = nn.Linear(h, n)

    def forward(self, x, state=None):
        o, state = self.lstm(self.emb(x), state)
        return self.fc(o), state


m = det(CharLSTM(len(chars)), scale=0.3)
opt = torch.optim.Adam(m.parameters(), lr=0.02)
X, Y = enc[:-1].unsqueeze(0), enc[1:].unsqueeze(0)
for _ in range(30):
    opt.zero_grad()
    logits, _ = m(X)
    loss = nn.functional.cross_entropy(logits.view(-1, len(chars)), Y.view(-1))
    loss.backward()
    opt.step()
m.eval()
s = "h"
state = None
x = torch.tensor([[stoi["h"]]])
with torch.no_grad():
    for _ in range(10):
        logits, state = m(x, state)
        i = logits[0, -1].argmax().item()
        s += itos[i]
        x = torch.tensor([[i]])
report(loss=loss.item(), s=s, nchars=len(chars))
