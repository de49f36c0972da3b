import torch
import torch.nn as nn
import torch.nn.functional as F

teacher = det(nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 3)), seed=0).eval()
student = det(nn.Sequential(nn.Linear(4, 4), nn.ReLU(), nn.Linear(4, 3)), seed=1)
opt = torch.optim.SGD(student.parameters(), lr=0.1)
x, y = data(8, 4), ints(3, 8)
T, alpha = 2.0, 0.7
ls = []
for _ in range(3):
    with torch.no_grad():
        t_logits = teacher(x)
    s_logits = student(x)
    soft = F.kl_div(F.log_softmax(s_logits / T, dim=1), F.softmax(t_logits / T, dim=1), reduction="batchmean") * T * T
    soft2 = F.kl_div(F.log_softmax(s_logits / T, 1), F.log_softmax(t_logits / T, 1), reduction="batchmean", log_target=True)
    hard = F.cross_entropy(s_logits, y)
    loss = alpha * soft + (1 - alpha) * hard
    opt.zero_grad()
    loss.backward()
    opt.step()
    ls.append([soft.item(), soft2.item() * T * T, hard.item()])
report(ls=ls, agree=(student(x).argmax(1) == teacher(x).argmax(1)).sum())
