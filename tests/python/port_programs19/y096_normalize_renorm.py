import torch
import torch.nn.functional as F
x = torch.tensor([[3.0, 4.0], [0.0, 0.0], [1.0, 1.0]])
report(n2=F.normalize(x), n1=F.normalize(x, p=1, dim=0), rn=torch.renorm(x, 2, 0, 2.0), nrm=x.norm(dim=1), cl=torch.nn.utils.clip_grad_norm_ if False else 0,
       l2=torch.linalg.vector_norm(x, dim=1), ne=F.normalize(torch.zeros(2, 2)))
