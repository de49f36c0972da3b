import torch
import torch.nn as nn


class Bag(nn.Module):
    def __init__(self):
        super().__init__()
        self.bag = nn.EmbeddingBag(12, 4, mode="mean")
        self.fc = nn.Linear(4, 2)

    def forward(self, text, offsets):
        return self.fc(self.bag(text, offsets))


m = det(Bag())
text = torch.tensor([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
offsets = torch.tensor([0, 3, 7])
label = torch.tensor([0, 1, 1])
opt = torch.optim.SGD(m.parameters(), lr=4.0)
sched = torch.optim.lr_scheduler.StepLR(opt, 1.0, gamma=0.1)
ls = []
for _ in range(3):
    opt.zero_grad()
    out = m(text, offsets)
    loss = nn.functional.cross_entropy(out, label)
    loss.backward()
    torch.nn.utils.clip_grad_norm_(m.parameters(), 0.1)
    opt.step()
    sched.step()
    ls.append(loss.item())
report(ls=ls, acc=(out.argmax(1) == label).sum().item(), w=m.bag.weight[0], lr=sched.get_last_lr())
