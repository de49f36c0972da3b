import torch
import torch.nn as nn

m = det(nn.Sequential(nn.Conv2d(3, 4, 3, padding=1), nn.BatchNorm2d(4), nn.ReLU(), nn.Conv2d(4, 2, 1)), scale=0.4)
x = data(2, 3, 5, 5, seed=2)
ref = m(x)
m2 = m.to(memory_format=torch.channels_last)
xc = x.to(memory_format=torch.channels_last)
out = m2(xc)
out.sum().backward()
report(close=torch.allclose(ref, out, atol=1e-5), cl=out.is_contiguous(memory_format=torch.channels_last),
       w_cl=m2[0].weight.is_contiguous(memory_format=torch.channels_last), stride=list(xc.stride()),
       g_cl=m2[0].weight.grad.is_contiguous(memory_format=torch.channels_last), out=out[1, :, 0])
