import torch
import torch.nn as nn
import torch.nn.functional as F

teacher = det(nn.Sequential(nn.Linear(5, 32), nn.ReLU(), nn.Linear(32, 4)), scale=0.5).eval()
student = det(nn.Sequential(nn.Linear(5, 8), nn.ReLU(), nn.Linear(8, 4)), seed=3)
T = 3.0
alpha = 0.7
x = data(12, 5)
y = ints(4, 12)
opt = torch.optim.SGD(student.parameters(), lr=0.2)
hist = []
for _ in range(4):
    with torch.no_grad():
        t_logits = teacher(x)
    s_logits = student(x)
    soft = F.kl_div(F.log_softmax(s_logits / T, dim=1), F.softmax(t_logits / T, dim=1), reduction="batchmean") * T * T
    hard = F.cross_entropy(s_logits, y)
    loss = alpha * soft + (1 - alpha) * hard
    opt.zero_grad()
    loss.backward()
    opt.step()
    hist.append([soft.item(), hard.item()])
kl_log = F.kl_div(F.log_softmax(s_logits, 1), F.log_softmax(t_logits, 1), reduction="sum", log_target=True)
kl_mod = nn.KLDivLoss(reduction="mean")(F.log_softmax(s_logits, 1), F.softmax(t_logits, 1))
agree = (s_logits.argmax(1) == t_logits.argmax(1)).sum()
report(hist=hist, kl_log=kl_log, kl_mod=kl_mod, agree=agree)
