import torch
import torch.nn as nn

model = det(nn.Sequential(nn.Linear(8, 16), nn.LayerNorm(16), nn.GELU(), nn.Linear(16, 4)))
x = data(3, 8)
ref = model(x)
half = model.to(torch.float16)
with torch.no_grad():
    y16 = half(x.half())
bf = det(nn.Sequential(nn.Linear(8, 16), nn.LayerNorm(16), nn.GELU(), nn.Linear(16, 4))).to(dtype=torch.bfloat16)
with torch.no_grad():
    ybf = bf(x.to(torch.bfloat16))
r = dict(
    dtype16=str(y16.dtype), close16=(y16.float() - ref).abs().max().item() < 2e-2,
    dtypebf=str(ybf.dtype), closebf=(ybf.float() - ref).abs().max().item() < 1e-1,
    y16=y16[0], ybf=ybf[0], wdt=str(half[0].weight.dtype), ln_dt=str(half[1].weight.dtype),
    sm16=torch.softmax(torch.tensor([1.0, 2.0, 3.0], dtype=torch.float16), 0),
    mixed=(torch.ones(2, dtype=torch.float16) * torch.ones(2, dtype=torch.bfloat16)).dtype,
    half_scalar=(torch.ones(1, dtype=torch.float16) * 3.0).dtype,
    overflow=torch.tensor([60000.0], dtype=torch.float16) * 2,
    sub=torch.tensor([1e-7], dtype=torch.float16),
    bfround=torch.tensor([1.0 + 2 ** -8, 1.0 + 3 * 2 ** -9]).bfloat16(),
)
report(**r)
