import torch
import torch.nn.functional as F

x = data(2, 5, seed=1)
h = x.half()
report(a=F.softmax(x, dim=-1, dtype=torch.float64), ad=F.softmax(x, dim=-1, dtype=torch.float64).dtype, b=F.log_softmax(h, -1), bd=F.log_softmax(h, -1).dtype,
       c=F.softmax(h, -1, dtype=torch.float32).dtype, d=F.cross_entropy(h.float(), torch.tensor([1, 2])), e=torch.softmax(x.double(), 0)[0],
       f=F.softmin(x, 1), g=F.normalize(torch.zeros(2, 3), dim=1), h=F.normalize(x, p=1, dim=0)[:, 0], i=torch.log_softmax(x, 1, dtype=torch.float64).dtype)
# TOL 2e-3
