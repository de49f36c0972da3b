import torch
x = torch.tensor([[1.0, 5.0, 3.0, 5.0, 2.0], [0.0, -1.0, 4.0, 4.0, 4.0]])
t = x.topk(2)
tl = torch.topk(x, 3, dim=1, largest=False, sorted=True)
t0 = x.topk(1, dim=0)
report(tv=t.values, tlv=tl.values, t0v=t0.values, t0i=t0.indices, kv=torch.kthvalue(x, 2, dim=1).values,
       ti=torch.topk(torch.tensor([3, 1, 2]), 2).indices, tvals=torch.topk(torch.tensor([7, 9, 8]), 3).values)
