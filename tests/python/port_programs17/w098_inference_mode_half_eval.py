import torch
import torch.nn as nn

m = det(nn.Sequential(nn.Linear(4, 8), nn.LayerNorm(8), nn.GELU(), nn.Dropout(0.5), nn.Linear(8, 2)))
x = data(3, 4, seed=1)
m.eval()
with torch.inference_mode():
    a = m(x)
    rg = a.requires_grad
with torch.no_grad():
    b = m(x)
mh = m.half() if False else None
m16 = det(nn.Sequential(nn.Linear(4, 8), nn.LayerNorm(8), nn.GELU(), nn.Dropout(0.5), nn.Linear(8, 2))).eval().to(torch.bfloat16)
c = m16(x.to(torch.bfloat16))
m.train()
torch.manual_seed(0)
d = m(x)
report(a=a, eq=torch.equal(a, b), rg=rg, c=c, cdt=c.dtype, pdt=next(m16.parameters()).dtype, dshape=list(d.shape),
       en=torch.is_inference_mode_enabled(), ge=torch.is_grad_enabled())
# TOL 2e-2
