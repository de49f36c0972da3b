import torch
import torch.nn as nn
import torch.nn.functional as F
torch.backends.cuda.matmul.allow_tf32 = True
torch.backends.cudnn.allow_tf32 = True
model = det(nn.Sequential(nn.Conv2d(3, 4, 3, padding=1), nn.BatchNorm2d(4), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(4, 2)))
model = model.to(memory_format=torch.channels_last)
x = data(2, 3, 5, 5).to(memory_format=torch.channels_last)
cl = x.is_contiguous(memory_format=torch.channels_last)
out = model(x)
@torch.compile(fullgraph=False, mode="reduce-overhead")
def fused(a, b):
    return torch.sin(a) * b + a
f = fused(x[0, 0], x[1, 0])
cm = torch.compile(model, dynamic=True)
out2 = cm(x)
with torch.autocast("cpu", enabled=False):
    plain = model(x)
if torch.cuda.is_available():
    torch.cuda.synchronize()
torch.cuda.empty_cache()
q = data(1, 4, 3, 8); k = data(1, 2, 3, 8, seed=3); v = data(1, 2, 3, 8, seed=4)
g = F.scaled_dot_product_attention(q, k, v, dropout_p=0.0, is_causal=True, enable_gqa=True)
ref = F.scaled_dot_product_attention(q, k.repeat_interleave(2, 1), v.repeat_interleave(2, 1), is_causal=True)
torch.testing.assert_close(g, ref)
ok = torch.allclose(out, out2, rtol=1e-5, atol=1e-6) and torch.isclose(torch.tensor(1.0), torch.tensor(1.0 + 1e-9)).item()
xc = x.contiguous(memory_format=torch.contiguous_format)
report(cl=cl, out=out, f=f, ok=ok, plain=torch.equal(plain, out), g=g[0, 3], xc=xc.is_contiguous(), compiled_sd=sorted(cm.state_dict().keys())[:2])
