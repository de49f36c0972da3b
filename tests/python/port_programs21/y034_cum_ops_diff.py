import torch

x = data(2, 5, seed=1)
cs = torch.cumsum(x, dim=1)
cp = torch.cumprod(x, dim=1)
cm = torch.cummax(x, dim=1)
cn = torch.cummin(x, dim=0)
lce = torch.logcumsumexp(x, dim=1)
d1 = torch.diff(x, dim=1)
d2 = torch.diff(x, n=2, dim=1)
dp = torch.diff(torch.tensor([1, 4, 9, 16]), prepend=torch.tensor([0]), append=torch.tensor([25]))
xi = torch.tensor([1, 2, 3, 4])
xr = x.clone().requires_grad_()
torch.cumprod(xr, 1).sum().backward()
report(cs=cs, cp=cp, cmv=cm.values, cmi=cm.indices, cnv=cn[0], cni=cn[1], lce=lce, d1=d1, d2=d2, dp=dp,
       icum=xi.cumsum(0), icd=xi.cumsum(0).dtype, bcum=torch.tensor([True, False, True]).cumsum(0), g=xr.grad,
       csf=torch.cumsum(xi, 0, dtype=torch.float32))
