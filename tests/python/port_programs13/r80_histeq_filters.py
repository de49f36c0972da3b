import torch
import torch.nn.functional as F
img = (data(16, 16).sigmoid() * 100).round().to(torch.uint8)
hist = torch.histc(img.float(), bins=256, min=0, max=255)
cdf = hist.cumsum(0)
cdf_min = cdf[cdf > 0].min()
lut = ((cdf - cdf_min) / (img.numel() - cdf_min) * 255).round().clamp(0, 255).to(torch.uint8)
eq = lut[img.long()]
sobel_x = torch.tensor([[-1.0, 0, 1], [-2, 0, 2], [-1, 0, 1]])
kernel = torch.stack([sobel_x, sobel_x.t()]).unsqueeze(1)
x = img.float().div(255).view(1, 1, 16, 16)
g = F.conv2d(F.pad(x, (1, 1, 1, 1), mode="replicate"), kernel)
mag = g.pow(2).sum(1).sqrt()
k1 = torch.exp(-(torch.arange(5) - 2.0) ** 2 / (2 * 1.0 ** 2)); k1 = k1 / k1.sum()
k2 = torch.outer(k1, k1)
blur = F.conv2d(F.pad(x, (2, 2, 2, 2), mode="reflect"), k2.view(1, 1, 5, 5))
h2 = torch.histogram(img.float(), bins=4, range=(0.0, 100.0))
bc = torch.bincount(img.flatten().long() // 25, minlength=5)
report(hist_nz=int((hist > 0).sum()), eq=eq[0, :6], eqmax=eq.max(), mag=mag[0, 5, :4], blur=blur[0, 0, 3, :4], h2=h2.hist, edges=h2.bin_edges, bc=bc, k2=k2.sum())
