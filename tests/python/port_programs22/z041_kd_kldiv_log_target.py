import torch
import torch.nn as nn
import torch.nn.functional as F

student = det(nn.Linear(5, 4), seed=45)
teacher = det(nn.Linear(5, 4), seed=46)
x = data(6, 5, seed=47)
y = torch.tensor([0, 1, 2, 3, 0, 1])
T = 3.0
s = student(x)
with torch.no_grad():
    t = teacher(x)
kl = nn.KLDivLoss(reduction="batchmean")(F.log_softmax(s / T, dim=-1), F.softmax(t / T, dim=-1)) * T * T
kl_log = nn.KLDivLoss(reduction="batchmean", log_target=True)(F.log_softmax(s / T, dim=-1), F.log_softmax(t / T, dim=-1)) * T * T
r = {red: F.kl_div(F.log_softmax(s, -1), F.softmax(t, -1), reduction=red) for red in ("mean", "sum", "batchmean")}
none = F.kl_div(F.log_softmax(s, -1), F.log_softmax(t, -1), reduction="none", log_target=True)
loss = 0.7 * kl_log + 0.3 * F.cross_entropy(s, y)
loss.backward()
report(kl=kl, kl_log=kl_log, none=none[0], g=student.weight.grad, **r)
