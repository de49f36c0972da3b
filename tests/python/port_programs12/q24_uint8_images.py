import numpy as np
import torch
import torch.nn.functional as F
rs = np.random.RandomState(0)
img = rs.randint(0, 256, size=(6, 5, 3)).astype(np.uint8)
t = torch.from_numpy(img)
chw = t.permute(2, 0, 1).contiguous()
f = chw.float().div(255)
mean = torch.tensor([0.485, 0.456, 0.406]).view(3, 1, 1); std = torch.tensor([0.229, 0.224, 0.225]).view(3, 1, 1)
norm = (f - mean) / std
back = ((norm * std + mean) * 255).round().clamp(0, 255).to(torch.uint8)
res = {"dtype": str(chw.dtype), "norm": norm[:, 0], "back": torch.equal(back, chw)}
a = torch.tensor([200, 100, 5], dtype=torch.uint8); b = torch.tensor([100, 200, 10], dtype=torch.uint8)
res["u8ops"] = [a + b, a - b, a * 2, a // 3, a.sum(), a.sum().dtype, (a.float() / 2), a.max(), a > b, a.to(torch.int16) - b.to(torch.int16), a.argmax(), (a / 2).dtype]
res["prom"] = [str((a + torch.tensor([1], dtype=torch.int8)).dtype), str((a + 1).dtype), str((a + 1.5).dtype), str((a * torch.tensor(2.0)).dtype), str(a.double().dtype)]
gray = (0.299 * f[0] + 0.587 * f[1] + 0.114 * f[2])
res["gray"] = gray[0]
flip = torch.flip(chw, dims=[2]); rot = torch.rot90(chw, 1, dims=[1, 2])
res["aug"] = [flip[0, 0], rot.shape, chw[:, 1:4, 1:4].float().mean(dim=(1, 2))]
res["u8_interp"] = F.interpolate(chw.unsqueeze(0).float(), size=(3, 3), mode="bilinear", align_corners=False).round().to(torch.uint8)[0, 0]
res["hist"] = torch.histc(chw.float(), bins=8, min=0, max=255)
res["bincount"] = torch.bincount((chw[0] // 64).flatten().long(), minlength=4)
i8 = torch.tensor([-128, 127, 5], dtype=torch.int8)
res["i8"] = [i8 + 1, i8.abs(), i8.to(torch.uint8), torch.tensor([300, -1]).to(torch.uint8), torch.tensor([2.7, -1.5, 260.0]).to(torch.uint8)]
i16 = torch.tensor([1000, -2000], dtype=torch.int16)
res["i16"] = [i16 * 40, (i16 // 7), i16.float() / 3, i16.numpy().dtype.name]
res["np_rt"] = [torch.from_numpy(np.array([1, 2], dtype=np.int16)).dtype, torch.from_numpy(np.array([1.5], dtype=np.float16)).dtype, torch.tensor(np.uint8(7)).dtype, chw.numpy().dtype.name]
batch = torch.stack([chw, chw.flip(1)]).float()
res["batch_std"] = batch.std(dim=(0, 2, 3)), batch.var(dim=(0, 2, 3), unbiased=False)
res["clip"] = (chw.int() * 2).clamp(0, 255).byte()[1, 0]
res["bits"] = [a & b, a | b, a ^ b, ~a, a >> 2, a << 1]
report(**res)
