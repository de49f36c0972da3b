import torch
import torch.nn as nn
import torch.nn.functional as F


class AttnLSTM(nn.Module):
    def __init__(self, V, E, H, C):
        super().__init__()
        self.emb = nn.Embedding(V, E, padding_idx=0)
        self.lstm = nn.LSTM(E, H, batch_first=True, bidirectional=True)
        self.att = nn.Linear(2 * H, 1, bias=False)
        self.out = nn.Linear(2 * H, C)

    def forward(self, x):
        mask = x.ne(0)
        h, _ = self.lstm(self.emb(x))
        scores = self.att(h).squeeze(-1).masked_fill(~mask, torch.finfo(h.dtype).min)
        alpha = torch.softmax(scores, dim=1)
        ctx = torch.bmm(alpha.unsqueeze(1), h).squeeze(1)
        return self.out(ctx), alpha


model = det(AttnLSTM(12, 5, 4, 3))
x = torch.tensor([[3, 5, 7, 0, 0], [1, 2, 3, 4, 5], [9, 0, 0, 0, 0]])
y = torch.tensor([0, 2, 1])
opt = torch.optim.Adagrad(model.parameters(), lr=0.1)
for _ in range(4):
    logits, alpha = model(x)
    loss = F.cross_entropy(logits, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
report(loss=loss.item(), alpha=alpha.detach(), logits=logits.detach(), min=torch.finfo(torch.float32).min)
