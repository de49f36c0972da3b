import torch
import torch.nn as nn
lin = det(nn.Linear(4, 3)).half()
x = data(2, 4).half()
y = lin(x)
s = torch.tensor([60000.0, 60000.0], dtype=torch.float16).sum()
m = torch.tensor([60000.0, 60000.0], dtype=torch.float16).mean()
big = (torch.ones(3000, dtype=torch.float16)).sum()
h = torch.tensor([0.1, 0.2, 0.3], dtype=torch.float16)
cs = h.cumsum(0)
sm = torch.softmax(torch.tensor([1.0, 2.0, 3.0], dtype=torch.float16), 0)
bf = torch.tensor([1.0, 1.01, 100.5]).bfloat16()
report(y=y, ydt=y.dtype, s=s, m=m, big=big, cs=cs, sm=sm, smdt=sm.dtype, bf=bf, mixed=(h + torch.tensor([1.0])).dtype, mixed2=(h * 2.5).dtype, matmul=(x @ x.T).dtype)
# TOL 2e-3
