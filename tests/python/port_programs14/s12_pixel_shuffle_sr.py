import torch
import torch.nn as nn

sr = nn.Sequential(nn.Conv2d(3, 12, 3, padding=1), nn.PReLU(12), nn.Conv2d(12, 3 * 4, 3, padding=1), nn.PixelShuffle(2))
det(sr)
lr = data(1, 3, 5, 5)
hr = sr(lr)
back = nn.PixelUnshuffle(2)(hr)
up = nn.functional.interpolate(lr, scale_factor=2, mode="bicubic", align_corners=False)
loss = nn.functional.l1_loss(hr, up) + nn.functional.smooth_l1_loss(hr, up, beta=0.5)
loss.backward()
psnr = 10 * torch.log10(1.0 / nn.functional.mse_loss(hr.clamp(0, 1), up.clamp(0, 1)))
report(hr=hr.shape, back=back.shape, loss=loss, psnr=psnr, prelu=sr[1].weight.grad[:4])
