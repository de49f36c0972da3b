import copy
import torch
import torch.nn as nn
import torch.nn.functional as F

student = det(nn.Sequential(nn.Linear(4, 8), nn.BatchNorm1d(8), nn.ReLU(), nn.Linear(8, 3)))
teacher = copy.deepcopy(student)
for p in teacher.parameters():
    p.requires_grad_(False)
opt = torch.optim.SGD(student.parameters(), lr=0.1)
x = data(10, 4)
x_aug = x + 0.1 * data(10, 4, seed=12)


@torch.no_grad()
def ema_update(t, s, m=0.9):
    for pt, ps in zip(t.parameters(), s.parameters()):
        pt.mul_(m).add_(ps.detach(), alpha=1 - m)
    for bt, bs in zip(t.buffers(), s.buffers()):
        bt.copy_(bs)


for step in range(4):
    with torch.no_grad():
        t_out = F.softmax(teacher(x_aug) / 0.5, dim=1)
    s_out = F.log_softmax(student(x), dim=1)
    loss = -(t_out * s_out).sum(1).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    ema_update(teacher, student)
report(loss=loss.item(), tw=teacher[0].weight[0].detach(), sw=student[0].weight[0].detach(), nbt=teacher[1].num_batches_tracked,
       rg=[p.requires_grad for p in teacher.parameters()][:2], same_buf=torch.equal(teacher[1].running_mean, student[1].running_mean))
