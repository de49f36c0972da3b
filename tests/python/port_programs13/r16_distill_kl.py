import torch
import torch.nn as nn
import torch.nn.functional as F
teacher = det(nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 4)), 0)
student = det(nn.Sequential(nn.Linear(10, 8), nn.ReLU(), nn.Linear(8, 4)), 1)
teacher.eval()
for p in teacher.parameters():
    p.requires_grad_(False)
T, alpha = 4.0, 0.7
kl = nn.KLDivLoss(reduction="batchmean")
kl_log = nn.KLDivLoss(reduction="batchmean", log_target=True)
opt = torch.optim.SGD(student.parameters(), lr=0.1)
x, y = data(16, 10), ints(4, 16)
hist = []
for _ in range(4):
    with torch.no_grad():
        t_logits = teacher(x)
    s_logits = student(x)
    soft = kl(F.log_softmax(s_logits / T, dim=1), F.softmax(t_logits / T, dim=1)) * (T * T)
    soft2 = kl_log(F.log_softmax(s_logits / T, dim=-1), F.log_softmax(t_logits / T, dim=-1)) * T ** 2
    hard = F.cross_entropy(s_logits, y)
    loss = alpha * soft + (1 - alpha) * hard
    opt.zero_grad(); loss.backward(); opt.step()
    hist.append([soft.item(), soft2.item(), hard.item()])
none = F.kl_div(F.log_softmax(s_logits, 1), F.softmax(t_logits, 1), reduction="none")
mean = F.kl_div(F.log_softmax(s_logits, 1), F.softmax(t_logits, 1), reduction="mean")
agree = (s_logits.argmax(1) == t_logits.argmax(1)).float().mean()
report(hist=hist, none=none[:2], mean=mean, agree=agree, req=[p.requires_grad for p in teacher.parameters()])
