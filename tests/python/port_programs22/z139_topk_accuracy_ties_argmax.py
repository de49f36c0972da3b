import torch

out = torch.tensor([[0.2, 0.5, 0.5, 0.1], [1.0, 1.0, 1.0, 1.0], [0.3, 0.1, 0.3, 0.3], [-1.0, 2.0, 2.0, 0.0]])
tgt = torch.tensor([2, 3, 0, 1])
pred = out.argmax(1)
mx = out.max(1)
top2 = out.topk(2, 1)
sorted_v, sorted_i = out.sort(dim=1, descending=True, stable=True)
report(pred=pred, mx_idx=mx.indices, top2_vals=top2.values, sorted_i=sorted_i, acc=(pred == tgt).float().mean(), amin=out.argmin(1),
       kth=out.kthvalue(2, 1).values, mode=torch.tensor([1, 2, 2, 3, 3]).mode())
