import numpy as np
import torch
import torch.nn as nn

x = data(3, 4)
h = x.half()
bf = x.to(torch.bfloat16)
m = det(nn.Sequential(nn.Linear(4, 5), nn.LayerNorm(5), nn.GELU(), nn.Linear(5, 2)))
mb = det(nn.Sequential(nn.Linear(4, 5), nn.LayerNorm(5), nn.GELU(), nn.Linear(5, 2))).to(torch.bfloat16)
out_b = mb(bf)
mh = det(nn.Sequential(nn.Linear(4, 5), nn.ReLU(), nn.Linear(5, 2))).half()
out_h = mh(h)
back = torch.from_numpy(h.numpy())
n = h.numpy()
big = torch.tensor([70000.0]).half()
tiny = torch.tensor([1e-8]).half()
report(h=h, bf=bf, hdt=h.dtype, out_b=out_b, out_bdt=out_b.dtype, out_h=out_h, out_hdt=out_h.dtype, back=back.dtype, np=str(n.dtype),
       big=big.item(), tiny=tiny.item(), eps=torch.finfo(torch.float16).eps, bmax=torch.finfo(torch.bfloat16).max,
       iinfo=torch.iinfo(torch.int8).min, rt=h.float().sub(x).abs().max().item() < 2e-3, wdt=mh[0].weight.dtype,
       sum_h=h.sum(), mm=(h @ h.t()).dtype)
