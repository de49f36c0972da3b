import torch
import torch.nn as nn
PAD = 0
class Tagger(nn.Module):
    def __init__(self, vocab=15, tags=4):
        super().__init__()
        self.emb = nn.Embedding(vocab, 6, padding_idx=PAD)
        self.lstm = nn.LSTM(6, 5, bidirectional=True, batch_first=True)
        self.out = nn.Linear(10, tags)
    def forward(self, x):
        h, (hn, cn) = self.lstm(self.emb(x))
        return self.out(h), hn
model = det(Tagger())
with torch.no_grad():
    model.emb.weight[PAD].fill_(0)
x = torch.tensor([[3, 5, 7, 2, 0, 0], [1, 4, 4, 9, 12, 3], [8, 2, 0, 0, 0, 0]])
tags = torch.tensor([[1, 2, 3, 0, -100, -100], [0, 1, 1, 2, 3, 0], [2, 2, -100, -100, -100, -100]])
crit = nn.CrossEntropyLoss(ignore_index=-100)
opt = torch.optim.SGD(model.parameters(), lr=0.5)
L = []
for _ in range(4):
    logits, hn = model(x)
    loss = crit(logits.view(-1, 4), tags.view(-1))
    opt.zero_grad(); loss.backward(); opt.step(); L.append(loss.item())
mask = tags != -100
pred = logits.argmax(-1)
acc = (pred[mask] == tags[mask]).float().mean()
report(L=L, acc=acc, hn=list(hn.shape), padgrad=model.emb.weight.grad[PAD], pred=pred, perpos=crit.__class__.__name__)
