import torch
import torch.nn as nn
import torch.nn.functional as F

w = data(8, 3).requires_grad_()
inp = torch.tensor([0, 2, 2, 5, 7, 1, 3])
off = torch.tensor([0, 3, 5])
out_max = F.embedding_bag(inp, w, off, mode="max")
out_max.sum().backward()
g_max = w.grad.clone()
w.grad = None
psw = torch.linspace(0.5, 2.0, 7).requires_grad_()
out_sum = F.embedding_bag(inp, w, off, mode="sum", per_sample_weights=psw)
(out_sum * torch.tensor([1.0, -1.0, 2.0])).sum().backward()
man = torch.stack([(w[inp[s:e]] * psw[s:e, None]).sum(0) for s, e in [(0, 3), (3, 5), (5, 7)]])
e = nn.Embedding(8, 3, padding_idx=2)
det(e)
eo = e(torch.tensor([2, 3, 2]))
eo.sum().backward()
report(out_max=out_max, g_max=g_max, out_sum=out_sum, man=man, psw_grad=psw.grad, w_grad=w.grad, pad_row=e.weight.grad[2], row3=e.weight.grad[3],
       pad_weight=e.weight[2])
