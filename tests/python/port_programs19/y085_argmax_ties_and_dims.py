import torch
x = torch.tensor([[1, 3, 3], [2, 2, 0]])
f = torch.tensor([1.0, float("nan"), 5.0, float("nan")])
report(a=x.argmax(), a1=x.argmax(1), a0=x.argmin(0), kd=x.argmax(1, keepdim=True), fn=f.argmax(), fmn=f.argmin(), mx=torch.max(x, 1).indices, mn=torch.min(x, dim=0).values,
       allt=x.all(1), anyt=x.any(dim=0), bm=torch.tensor([True, False]).max(), mx2=torch.max(x, torch.tensor([2, 2, 2])))
