import torch
from torch import nn
import torch.nn.functional as F

x = torch.arange(2 * 4 * 4, dtype=torch.float32).reshape(1, 2, 4, 4)
ps = nn.PixelUnshuffle(2)
y = ps(x)
back = nn.PixelShuffle(2)(y)
up_nn = nn.Upsample(scale_factor=2, mode="nearest")(x)
up_bl = nn.Upsample(scale_factor=2, mode="bilinear", align_corners=True)(x)
near_exact = F.interpolate(x, size=(6, 6), mode="nearest-exact")
area = F.interpolate(x, size=(2, 2), mode="area")
bicubic = F.interpolate(x, scale_factor=0.75, mode="bicubic", align_corners=False)
fold = F.fold(F.unfold(x, kernel_size=2, stride=2), output_size=(4, 4), kernel_size=2, stride=2)
report(y_shape=y.shape, y00=y[0, :4, 0, 0], same=torch.equal(back, x), up_nn=up_nn[0, 0, :2], up_bl=up_bl[0, 1, 3],
       ne=near_exact[0, 0, 1], area=area, bicubic=bicubic, fold_ok=torch.allclose(fold, x))
