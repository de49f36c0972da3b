import torch
import torch.nn as nn


class TextClf(nn.Module):
    def __init__(self, V=12, d=4, C=3):
        super().__init__()
        self.embedding = nn.EmbeddingBag(V, d, mode="mean")
        self.fc = nn.Linear(d, C)

    def forward(self, text, offsets):
        return self.fc(self.embedding(text, offsets))


batch = [[1, 2, 3], [4, 5], [6, 7, 8, 9]]
text = torch.tensor([t for s in batch for t in s])
offsets = torch.tensor([0] + [len(s) for s in batch[:-1]]).cumsum(0)
m = det(TextClf())
opt = torch.optim.SGD(m.parameters(), lr=4.0)
sched = torch.optim.lr_scheduler.StepLR(opt, 1, gamma=0.1)
y = torch.tensor([0, 1, 2])
for _ in range(2):
    loss = nn.functional.cross_entropy(m(text, offsets), y)
    opt.zero_grad()
    loss.backward()
    nn.utils.clip_grad_norm_(m.parameters(), 0.1)
    opt.step()
    sched.step()
report(offsets=offsets, out=m(text, offsets), loss=loss, lr=sched.get_last_lr())
