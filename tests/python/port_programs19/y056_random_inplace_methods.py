import torch
torch.manual_seed(0)
x = torch.empty(1000)
u = x.uniform_(2.0, 3.0).clone()
n = torch.empty(2000).normal_(5.0, 0.1)
bern = torch.empty(1000).bernoulli_(0.0)
b1 = torch.ones(10).bernoulli_(1.0)
ex = torch.empty(5000).exponential_(2.0)
rnd = torch.empty(10, dtype=torch.int64).random_(0, 4)
report(u=[u.min().item() >= 2, u.max().item() < 3], nmean=round(n.mean().item(), 1), bern=bern.sum(), b1=b1.sum(), expos=bool((ex > 0).all()),
       rnd=[rnd.min().item() >= 0, rnd.max().item() <= 3], ncheck=torch.normal(torch.zeros(3), torch.zeros(3)), nshape=torch.normal(0.0, 1.0, size=(2, 2)).shape,
       drop=torch.nn.functional.dropout(torch.ones(4), 0.0))
