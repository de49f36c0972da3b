import torch
import torch.nn as nn
import torch.nn.functional as F
teacher = det(nn.Sequential(nn.Linear(6, 32), nn.ReLU(), nn.Linear(32, 5)), 0, 0.5)
student = det(nn.Sequential(nn.Linear(6, 8), nn.ReLU(), nn.Linear(8, 5)), 1, 0.5)
teacher.eval()
opt = torch.optim.SGD(student.parameters(), lr=0.1, momentum=0.9)
T, alpha = 4.0, 0.7
x = data(10, 6); y = ints(5, 10)
ce = nn.CrossEntropyLoss(label_smoothing=0.1)
kl = nn.KLDivLoss(reduction="batchmean")
w = torch.tensor([1.0, 2.0, 0.5, 1.0, 1.5])
wce = nn.CrossEntropyLoss(weight=w, ignore_index=2)
hist = []
for _ in range(4):
    with torch.no_grad():
        t_logits = teacher(x)
    s_logits = student(x)
    soft = kl(F.log_softmax(s_logits / T, dim=1), F.softmax(t_logits / T, dim=1)) * (T * T)
    hard = ce(s_logits, y)
    loss = alpha * soft + (1 - alpha) * hard
    opt.zero_grad(); loss.backward(); opt.step()
    hist.append([soft.item(), hard.item(), loss.item()])
lt = F.kl_div(F.log_softmax(s_logits, 1), F.log_softmax(t_logits, 1), reduction="sum", log_target=True)
report(hist=hist, wce=wce(s_logits, y), lt=lt, ls_sum=F.cross_entropy(s_logits, y, label_smoothing=0.2, reduction="sum"),
       none=F.cross_entropy(s_logits, y, reduction="none"), soft_t=F.cross_entropy(s_logits, F.softmax(t_logits, 1)),
       nll=F.nll_loss(F.log_softmax(s_logits, 1), y, weight=w))
