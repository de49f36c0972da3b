import torch
import torch.nn as nn
import torch.nn.functional as F

teacher = det(nn.Linear(4, 3), seed=1).eval()
student = det(nn.Linear(4, 3), seed=2)
opt = torch.optim.SGD(student.parameters(), lr=0.5)
x, y = data(6, 4, seed=3), torch.tensor([0, 1, 2, 0, 1, 2])
T, a = 3.0, 0.7
hist = []
for _ in range(3):
    with torch.no_grad():
        tl = teacher(x)
    sl = student(x)
    kd = F.kl_div(F.log_softmax(sl / T, dim=1), F.softmax(tl / T, dim=1), reduction="batchmean") * T * T
    loss = a * kd + (1 - a) * F.cross_entropy(sl, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    hist.append([round(kd.item(), 6), round(loss.item(), 6)])
lt = F.kl_div(F.log_softmax(sl, 1), F.log_softmax(tl, 1), reduction="sum", log_target=True)
report(hist=hist, lt=lt, w=student.weight[0])
