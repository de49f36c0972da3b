import torch

g = torch.Generator().manual_seed(0)
imgs = (torch.sigmoid(data(4, 3, 6, 6, seed=1)) * 255).to(torch.uint8)
flip = torch.tensor([True, False, True, False])
out = torch.where(flip[:, None, None, None], imgs.flip(-1), imgs)
pad = torch.nn.functional.pad(out.float(), (2, 2, 2, 2), mode="constant", value=0).to(torch.uint8)
crops = torch.stack([pad[i, :, i:i + 6, 4 - i:10 - i] for i in range(4)])
f = crops.float() / 255.0
f = (f - f.mean(dim=(0, 2, 3), keepdim=True)) / f.std(dim=(0, 2, 3), keepdim=True)
inv = 255 - imgs
s = imgs.to(torch.int16) - 128
report(crops=crops[1, 0], f=f[0, 1, 0], dt=crops.dtype, inv=inv[0, 0, 0], s=s[0, 0, 0], sdt=s.dtype,
       half=(imgs // 2)[0, 0, 0], mean=imgs.float().mean(dim=(0, 2, 3)), sum=imgs.sum(dtype=torch.int64))
