import torch
import torch.nn.functional as F


def normalize(img, mean, std):
    mean = torch.as_tensor(mean, dtype=img.dtype).view(-1, 1, 1)
    std = torch.as_tensor(std, dtype=img.dtype).view(-1, 1, 1)
    return (img - mean) / std


def center_crop(img, size):
    h, w = img.shape[-2:]
    top, left = (h - size) // 2, (w - size) // 2
    return img[..., top:top + size, left:left + size]


def hflip(img):
    return img.flip(-1)


def to_float(img_u8):
    return img_u8.to(torch.float32).div_(255)


raw = (torch.arange(3 * 10 * 10) * 37 % 256).to(torch.uint8).reshape(3, 10, 10)
img = to_float(raw)
img = center_crop(img, 8)
img = hflip(img)
img = normalize(img, [0.485, 0.456, 0.406], [0.229, 0.224, 0.225])
small = F.interpolate(img.unsqueeze(0), size=(4, 4), mode="bilinear", align_corners=False, antialias=False)
padded = F.pad(img, (1, 1, 2, 0), mode="reflect")
gray = (0.299 * raw[0].float() + 0.587 * raw[1].float() + 0.114 * raw[2].float()).round().clamp(0, 255).byte()
report(img_mean=img.mean().item(), img_std=img.std().item(), small=small, pshape=padded.shape, gray=gray[:2],
       gdtype=str(gray.dtype), raw_max=raw.max().item(), corner=padded[:, 0, :3])
