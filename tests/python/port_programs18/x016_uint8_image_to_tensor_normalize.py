import torch

img = torch.from_numpy(((data(6, 5, 3, seed=1).numpy() * 60 + 128).clip(0, 255)).astype("uint8"))
x = img.permute(2, 0, 1).contiguous()
xf = x.float().div(255)
mean = torch.tensor([0.485, 0.456, 0.406]).view(-1, 1, 1)
std = torch.tensor([0.229, 0.224, 0.225]).view(-1, 1, 1)
norm = (xf - mean) / std
back = ((norm * std + mean) * 255).round().clamp(0, 255).to(torch.uint8)
flipped = torch.flip(x, dims=[-1])
gray = (0.299 * xf[0] + 0.587 * xf[1] + 0.114 * xf[2])
hist = torch.bincount(x.flatten().long() // 32, minlength=8)
report(img_dtype=img.dtype, x=x[:, :2], norm=norm[:, 0], back_eq=torch.equal(back, x), flipped=flipped[0, 0],
       gray=gray, hist=hist, mx=x.max().item(), u8sum=x.sum().item(), u8mean=x.float().mean())
