import torch

x = torch.tensor([3, 1, 2, 3, 1, 0, 2, 3])
sv, si = torch.sort(x, stable=True)
dv, di = torch.sort(x, descending=True, stable=True)
asd = torch.argsort(x, stable=True, descending=True)
f = torch.tensor([[0.5, -1.0, 2.0, 0.25], [1.0, float("nan"), -3.0, 4.0]])
fs, fi = f.sort(dim=1)
tv, ti = f[0].topk(2, largest=False)
tk3 = torch.topk(torch.tensor([1.0, 5.0, 3.0, 4.0, 2.0]), 3)
kv, ki = torch.kthvalue(torch.tensor([[4.0, 1.0, 3.0], [2.0, 2.0, 9.0]]), 2, dim=1)
ms = torch.msort(torch.tensor([[3, 1], [1, 2], [2, 0]]))
mx, amx = torch.tensor([1, 3, 3, 2]).max(0)
mn = torch.tensor([[2.0, 1.0, 1.0]]).min(dim=1)
am = torch.tensor([0.0, 7.0, 7.0, 1.0]).argmax()
report(sv=sv, si=si, dv=dv, di=di, asd=asd, fs=fs, fi=fi, tv=tv, ti=ti, tk=tk3.values, tki=tk3.indices, kv=kv, ki=ki, ms=ms,
       mx=mx, amx=amx, mn_v=mn.values, mn_i=mn.indices, am=am)
