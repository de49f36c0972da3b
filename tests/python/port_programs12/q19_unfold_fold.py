import torch
import torch.nn as nn
import torch.nn.functional as F
x = torch.arange(2 * 3 * 6 * 6, dtype=torch.float32).reshape(2, 3, 6, 6) / 100
patches = F.unfold(x, kernel_size=2, stride=2)
back = F.fold(patches, output_size=(6, 6), kernel_size=2, stride=2)
ov = F.unfold(x, kernel_size=3, padding=1, stride=1, dilation=1)
cnt = F.fold(F.unfold(torch.ones(1, 1, 5, 5), 3, padding=1), (5, 5), 3, padding=1)
conv = det(nn.Conv2d(3, 4, 3, padding=1, bias=False))
w = conv.weight.view(4, -1)
as_mm = (w @ ov).view(2, 4, 6, 6)
same = torch.allclose(as_mm, conv(x), atol=1e-5)
win = torch.arange(10.0).unfold(0, 4, 2)
img_p = x.unfold(2, 3, 3).unfold(3, 3, 3)
ps = nn.PixelShuffle(2)(torch.arange(32.0).view(1, 8, 2, 2))
pu = F.pixel_unshuffle(ps, 2)
unf = nn.Unfold(kernel_size=(2, 3), dilation=(1, 2), padding=(0, 1), stride=(2, 1))(x[:, :1])
fd = nn.Fold(output_size=(4, 5), kernel_size=(2, 2))(torch.arange(48.0).view(1, 4, 12))
vit = x.reshape(2, 3, 3, 2, 3, 2).permute(0, 2, 4, 1, 3, 5).reshape(2, 9, 12)
ch = F.channel_shuffle(torch.arange(12.0).view(1, 6, 1, 2), 2) if hasattr(F, "channel_shuffle") else nn.ChannelShuffle(2)(torch.arange(12.0).view(1, 6, 1, 2))
report(pshape=patches.shape, psum=patches[0, :, 4], back=torch.equal(back, x), ov=ov.shape, cnt=cnt, same=same, win=win, img_p=img_p.shape, img_p0=img_p[0, 0, 1, 1],
       ps=ps, pu=torch.equal(pu, torch.arange(32.0).view(1, 8, 2, 2)), unf=unf[0, :, :3], unfs=unf.shape, fd=fd, vit=vit[1, 4], ch=ch)
