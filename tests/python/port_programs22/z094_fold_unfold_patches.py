import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.arange(1 * 2 * 4 * 5, dtype=torch.float32).view(1, 2, 4, 5)
cols = F.unfold(x, kernel_size=2, stride=1, padding=0)
cols_s = F.unfold(x, kernel_size=(2, 3), stride=(2, 1), padding=(0, 1), dilation=1)
back = F.fold(cols, output_size=(4, 5), kernel_size=2)
ones = F.fold(F.unfold(torch.ones_like(x), 2), (4, 5), 2)
conv = det(nn.Conv2d(2, 3, 2, bias=False), seed=132)
via_unfold = (conv.weight.view(3, -1) @ cols).view(1, 3, 3, 4)
patches = x.unfold(2, 2, 2).unfold(3, 2, 1)
report(cols=cols[0, :, :4], cols_shape=cols.shape, cols_s_shape=cols_s.shape, cols_s=cols_s[0, 1], back=back[0, 0],
       avg=(back / ones)[0, 1], conv_eq=bool(torch.allclose(via_unfold, conv(x), atol=1e-5)), patches=patches.shape, p=patches[0, 1, 1, 2],
       mod=nn.Unfold(kernel_size=3, padding=1)(x).shape)
