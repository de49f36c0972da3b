import torch
x = torch.tensor([[1.0, -2.0, 3.0, 0.5], [2.0, 2.0, -1.0, 4.0]])
cm = torch.cummax(x, dim=1)
cn = x.cummin(0)
report(cs=x.cumsum(1), cp=x.cumprod(1), cmv=cm.values, cmi=cm.indices, cnv=cn.values, cni=cn.indices, lcse=torch.logcumsumexp(x, 1),
       csi=torch.tensor([1, 2, 3]).cumsum(0).dtype, csf=torch.tensor([1, 2, 3]).cumsum(0, dtype=torch.float32),
       ties=torch.cummax(torch.tensor([1, 3, 3, 2, 3]), 0).indices, ctz=torch.cumulative_trapezoid(x, dim=1))
