import torch
import torch.nn as nn

x = torch.arange(2 * 3 * 4 * 5, dtype=torch.float32).reshape(2, 3, 4, 5)
cl = x.to(memory_format=torch.channels_last)
flags = [cl.is_contiguous(), cl.is_contiguous(memory_format=torch.channels_last), x.is_contiguous(memory_format=torch.channels_last)]
strides = [x.stride(), cl.stride()]
cl2 = x.contiguous(memory_format=torch.channels_last)
model = det(nn.Sequential(nn.Conv2d(3, 4, 3, padding=1), nn.BatchNorm2d(4), nn.ReLU()), seed=1)
model = model.to(memory_format=torch.channels_last)
inp = data(2, 3, 6, 6, seed=2).to(memory_format=torch.channels_last)
out = model(inp)
ref = model(inp.contiguous())
back = cl.contiguous()
report(flags=flags, strides=strides, same=torch.equal(cl, x), cl2=cl2.stride(), close=torch.allclose(out, ref, atol=1e-6),
       out=out[0, :, 0, 0], back=[back.stride(), back.is_contiguous()], w_flag=model[0].weight.is_contiguous(memory_format=torch.channels_last))
