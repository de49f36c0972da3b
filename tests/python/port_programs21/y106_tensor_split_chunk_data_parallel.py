import torch
import torch.nn as nn

m = det(nn.Linear(3, 2), seed=1)
x = data(7, 3, seed=2)
outs = [m(c) for c in x.chunk(3)]
outs2 = [m(c) for c in torch.tensor_split(x, 3)]
full = m(x)
qkv = data(2, 9, seed=3)
q, k, v = qkv.chunk(3, dim=-1)
a, b = qkv.split([4, 5], dim=1)
parts = list(x.unbind(0))
report(sizes=[o.shape[0] for o in outs], sizes2=[o.shape[0] for o in outs2], same=torch.allclose(torch.cat(outs), full),
       q=q, k=k, v=v, a=a.shape, b=b.shape, nparts=len(parts), p0=parts[0], stack=torch.equal(torch.stack(parts), x))
