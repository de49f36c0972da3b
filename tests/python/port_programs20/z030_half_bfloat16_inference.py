import torch
import torch.nn as nn
# TOL 1e-2

m = det(nn.Sequential(nn.Linear(8, 16), nn.GELU(), nn.LayerNorm(16), nn.Linear(16, 4)))
x = data(5, 8)
ref = m(x)
mb = m.to(torch.bfloat16)
with torch.no_grad():
    ob = mb(x.to(torch.bfloat16))
mh = m.half()
with torch.inference_mode():
    oh = mh(x.half())
mf = mh.float()
report(ref=ref, ob_dtype=ob.dtype, ob=ob, oh_dtype=oh.dtype, oh=oh, wdt=[p.dtype for p in mh.parameters()][:2],
       back=mf[0].weight.dtype, close_b=(ob.float() - ref).abs().max().item() < 0.1, close_h=(oh.float() - ref).abs().max().item() < 0.02)
