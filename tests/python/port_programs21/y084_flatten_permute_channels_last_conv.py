import torch
import torch.nn as nn

conv = det(nn.Conv2d(3, 4, 3, padding=1), seed=1)
bn = det(nn.BatchNorm2d(4), seed=2)
x = data(2, 3, 5, 5, seed=3)
m = nn.Sequential(conv, bn, nn.ReLU()).to(memory_format=torch.channels_last)
xcl = x.to(memory_format=torch.channels_last)
y = m(xcl)
y.sum().backward()
nhwc = x.permute(0, 2, 3, 1)
back = nhwc.permute(0, 3, 1, 2)
report(y=y[1, :, 2], ycl=y.is_contiguous(memory_format=torch.channels_last), wcl=conv.weight.is_contiguous(memory_format=torch.channels_last),
       g=conv.weight.grad[0, 0], nhwc=nhwc.shape, nhwc_c=nhwc.is_contiguous(), eq=torch.equal(back, x),
       back_cl=back.is_contiguous(memory_format=torch.channels_last), strides=xcl.stride())
