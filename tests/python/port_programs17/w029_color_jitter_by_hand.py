import torch


def rgb_to_grayscale(img):
    r, g, b = img.unbind(dim=-3)
    return (0.2989 * r + 0.587 * g + 0.114 * b).unsqueeze(dim=-3)


def adjust_brightness(img, f):
    return (img * f).clamp(0, 1.0)


def adjust_contrast(img, f):
    mean = torch.mean(rgb_to_grayscale(img), dim=(-3, -2, -1), keepdim=True)
    return (f * img + (1.0 - f) * mean).clamp(0, 1)


def adjust_saturation(img, f):
    return (f * img + (1.0 - f) * rgb_to_grayscale(img)).clamp(0, 1)


img = torch.sigmoid(data(2, 3, 4, 4, seed=6))
out = adjust_saturation(adjust_contrast(adjust_brightness(img, 1.3), 0.7), 1.5)
u8 = (out * 255).to(torch.uint8)
inv = 1.0 - img
sol = torch.where(img >= 0.5, 1.0 - img, img)
post = torch.floor(img * 255).to(torch.uint8) & 0xF0
report(out=out[0, :, 0], u8=u8[1, 2], inv=inv[0, 0, 0], sol=sol[1, 1, 1], post=post[0, 0])
