import torch

x = torch.tensor([[3.0, 1.0, 3.0, 2.0, 1.0], [0.5, 0.5, 0.1, 0.9, 0.5]])
v, i = x.topk(3, dim=1)
vs, is_ = x.topk(2, dim=1, largest=False, sorted=True)
s, si = torch.sort(x, dim=1, stable=True)
sd, sdi = torch.sort(x, dim=1, descending=True, stable=True)
a = torch.argsort(x, dim=1, stable=True)
ad = torch.argsort(x[0], descending=True, stable=True)
ints_ = torch.tensor([5, 3, 5, 1, 3])
k = torch.kthvalue(data(7, seed=1), 3)
m = data(2, 5, seed=2)
msort = m.msort()
report(v=v, i=i, vs=vs, is_=is_, s=s, si=si, sd=sd, sdi=sdi, a=a, ad=ad, isort=ints_.sort(), k=[k.values, k.indices],
       msort=msort, topk_all=data(6, seed=3).topk(6).indices)
