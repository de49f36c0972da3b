import torch
import torch.nn as nn
import torch.nn.functional as F

conv = det(nn.Conv2d(2, 3, 3, padding=1, stride=2))
x = data(1, 2, 5, 5)
cols = F.unfold(x, kernel_size=3, padding=1, stride=2)
out = (conv.weight.view(3, -1) @ cols + conv.bias.view(3, 1)).view(1, 3, 3, 3)
ref = conv(x)
patches = nn.Unfold(kernel_size=(2, 2), stride=2)(x)
recon = nn.Fold(output_size=(4, 4), kernel_size=2, stride=2)(patches[..., :4])
over = F.fold(F.unfold(x, 3, padding=1), (5, 5), 3, padding=1)
divisor = F.fold(F.unfold(torch.ones_like(x), 3, padding=1), (5, 5), 3, padding=1)
t_unf = x[0, 0].unfold(0, 3, 2).unfold(1, 3, 2)
report(cols=cols.shape, agree=torch.allclose(out, ref, atol=1e-5), patches=patches.shape, recon=recon[0, 0], avg=torch.allclose(over / divisor, x, atol=1e-6),
       div=divisor[0, 0], tunf=t_unf.shape, tsum=t_unf.sum((-1, -2)))
