import torch

x = torch.arange(12.0).view(3, 4)
t = x.t()
err = None
try:
    t.view(12)
except RuntimeError as ex:
    err = "view size is not compatible" in str(ex)
r = t.reshape(12)
c = t.contiguous().view(-1)
img = data(2, 3, 4, 5, seed=1)
cl = img.contiguous(memory_format=torch.channels_last)
cl2 = img.to(memory_format=torch.channels_last)
conv = det(torch.nn.Conv2d(3, 2, 3), seed=2)
out = conv(cl)
y = x.view(2, 6)
y[0, 0] = 100
report(err=err, r=r, c=torch.equal(r, c), tcont=t.is_contiguous(), clshape=cl.shape, clstride=cl.stride(),
       clc=[cl.is_contiguous(), cl.is_contiguous(memory_format=torch.channels_last)], same=torch.equal(cl, img),
       cl2s=cl2.stride(), out=out[0, :, 0], x00=x[0, 0].item(),
       flat=t.flatten(), uf=x.unflatten(1, (2, 2)).shape, vas=x.view_as(torch.empty(4, 3)).shape)
