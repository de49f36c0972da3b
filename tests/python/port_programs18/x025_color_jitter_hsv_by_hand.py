import torch


def rgb_to_gray(img):
    r, g, b = img.unbind(dim=-3)
    return (0.2989 * r + 0.587 * g + 0.114 * b).unsqueeze(-3)


def adjust_brightness(img, f):
    return (img * f).clamp(0, 1)


def adjust_contrast(img, f):
    mean = rgb_to_gray(img).mean(dim=(-3, -2, -1), keepdim=True)
    return (f * img + (1 - f) * mean).clamp(0, 1)


def adjust_saturation(img, f):
    return (f * img + (1 - f) * rgb_to_gray(img)).clamp(0, 1)


def rgb2hsv(img):
    r, g, b = img.unbind(0)
    maxc, _ = img.max(0)
    minc, _ = img.min(0)
    eqc = maxc == minc
    cr = maxc - minc
    ones = torch.ones_like(maxc)
    s = cr / torch.where(eqc, ones, maxc)
    cr_div = torch.where(eqc, ones, cr)
    rc, gc, bc = (maxc - r) / cr_div, (maxc - g) / cr_div, (maxc - b) / cr_div
    hr = (maxc == r) * (bc - gc)
    hg = ((maxc == g) & (maxc != r)) * (2.0 + rc - bc)
    hb = ((maxc != g) & (maxc != r)) * (4.0 + gc - rc)
    h = torch.fmod((hr + hg + hb) / 6.0 + 1.0, 1.0)
    return torch.stack((h, s, maxc))


img = torch.sigmoid(data(3, 4, 4, seed=8))
out = adjust_saturation(adjust_contrast(adjust_brightness(img, 1.2), 0.8), 1.5)
report(out=out[:, 0], hsv=rgb2hsv(img)[:, 1], gray=rgb_to_gray(img)[0, 2])
