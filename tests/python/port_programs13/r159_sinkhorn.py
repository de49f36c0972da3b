import torch
a = torch.softmax(data(5), 0); b = torch.softmax(data(4, seed=3), 0)
xa, xb = data(5, 2, seed=4), data(4, 2, seed=5)
C = torch.cdist(xa, xb) ** 2
eps = 0.1
log_K = -C / eps
u = torch.zeros(5); v = torch.zeros(4)
for _ in range(50):
    u = torch.log(a) - torch.logsumexp(log_K + v.unsqueeze(0), dim=1)
    v = torch.log(b) - torch.logsumexp(log_K + u.unsqueeze(1), dim=0)
P = torch.exp(log_K + u.unsqueeze(1) + v.unsqueeze(0))
cost = (P * C).sum()
report(rows=P.sum(1), cols=P.sum(0), cost=cost, P=P[0])
# TOL 1e-3
