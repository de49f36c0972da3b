import torch
import torch.nn.functional as F


def center_crop(img, size):
    h, w = img.shape[-2:]
    top = int(round((h - size) / 2.0))
    left = int(round((w - size) / 2.0))
    return img[..., top:top + size, left:left + size]


def resize(img, size):
    h, w = img.shape[-2:]
    if h < w:
        nh, nw = size, int(size * w / h)
    else:
        nh, nw = int(size * h / w), size
    return F.interpolate(img.unsqueeze(0), size=(nh, nw), mode="bilinear", align_corners=False, antialias=False).squeeze(0)


img = data(3, 9, 12, seed=4)
r = resize(img, 6)
c = center_crop(r, 5)
near = F.interpolate(img[None], scale_factor=0.5, mode="nearest")
nexact = F.interpolate(img[None], size=(4, 5), mode="nearest-exact")
bic = F.interpolate(img[None], size=(5, 7), mode="bicubic", align_corners=True)
area = F.interpolate(img[None], size=(3, 4), mode="area")
report(r=r[0], c=c[1], rs=list(r.shape), near=near[0, 0], nexact=nexact[0, 2], bic=bic[0, 1], area=area[0, 0])
