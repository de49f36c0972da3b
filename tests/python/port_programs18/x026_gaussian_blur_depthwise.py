import torch
import torch.nn.functional as F


def gauss_kernel(k, sigma):
    x = torch.arange(k, dtype=torch.float32) - (k - 1) / 2
    g = torch.exp(-x ** 2 / (2 * sigma ** 2))
    g = g / g.sum()
    return g[:, None] * g[None, :]


img = data(2, 3, 7, 7, seed=4)
k = gauss_kernel(5, 1.2)
w = k.expand(3, 1, 5, 5)
padded = F.pad(img, (2, 2, 2, 2), mode="reflect")
blur = F.conv2d(padded, w, groups=3)
sep = F.conv2d(F.conv2d(F.pad(img, (2, 2, 0, 0), mode="reflect"), k.sum(0).view(1, 1, 1, 5).repeat(3, 1, 1, 1),
                        groups=3), k.sum(1).view(1, 1, 5, 1).repeat(3, 1, 1, 1), padding=(2, 0), groups=3)
report(blur=blur[0, 0, :3], k=k[2], shape=list(blur.shape), rowsum=k.sum(0), sep_mid=sep[1, 2, 2:5, 2:5])
