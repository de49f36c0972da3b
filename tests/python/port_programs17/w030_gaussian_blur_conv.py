import torch
import torch.nn.functional as F


def gaussian_kernel1d(ks, sigma):
    ksize_half = (ks - 1) * 0.5
    x = torch.linspace(-ksize_half, ksize_half, steps=ks)
    pdf = torch.exp(-0.5 * (x / sigma).pow(2))
    return pdf / pdf.sum()


k1 = gaussian_kernel1d(5, 1.2)
k2 = torch.mm(k1[:, None], k1[None, :])
img = data(1, 3, 8, 8, seed=7)
kernel = k2.expand(3, 1, 5, 5)
padded = F.pad(img, [2, 2, 2, 2], mode="reflect")
blur = F.conv2d(padded, kernel, groups=3)
rep = F.pad(img, (1, 1, 1, 1), mode="replicate")
circ = F.pad(img, (1, 2, 0, 1), mode="circular")
report(k1=k1, blur=blur[0, 1], rep=rep[0, 0, :3], circ=circ[0, 2, 0], cs=list(circ.shape))
