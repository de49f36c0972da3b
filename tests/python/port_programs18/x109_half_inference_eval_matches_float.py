import torch
import torch.nn as nn

m = det(nn.Sequential(nn.Linear(4, 8), nn.GELU(), nn.LayerNorm(8), nn.Linear(8, 3))).eval()
x = data(2, 4, seed=2)
ref = m(x)
mh = m.half()
out = mh(x.half())
report(close=torch.allclose(out.float(), ref, atol=2e-2), dt=out.dtype, pdt=next(mh.parameters()).dtype,
       ln=mh[2].weight.dtype, out=out)
# TOL 2e-3
