import torch
import torch.nn.functional as F
img = (torch.arange(2 * 3 * 6 * 6) % 256).to(torch.uint8).view(2, 6, 6, 3)
x = img.permute(0, 3, 1, 2).float().div(255)
mean = torch.tensor([0.485, 0.456, 0.406])[:, None, None]; std = torch.tensor([0.229, 0.224, 0.225])[:, None, None]
norm = (x - mean) / std
flip = torch.flip(x, dims=[3])
crop = F.pad(x, (2, 2, 2, 2), mode="reflect")[:, :, 1:7, 3:9]
gray = (0.299 * x[:, 0] + 0.587 * x[:, 1] + 0.114 * x[:, 2]).unsqueeze(1)
rot = torch.rot90(x, k=1, dims=(2, 3))
jit = (x * 1.2).clamp(0, 1)
cut = x.clone(); cut[:, :, 1:3, 1:3] = 0
lam = 0.7
mixed = lam * x + (1 - lam) * x.flip(0)
to_uint8 = (norm * std + mean).mul(255).round().clamp(0, 255).byte()
report(norm=norm[0, :, 0, 0], flip=flip[0, 0, 0], crop=crop[1, 2, :, 0], gray=gray[0, 0, 0], rot=rot[0, 0, :, 0], jit=jit.mean(), cut=cut.sum(),
       mixed=mixed[0, 1, 2], back=torch.equal(to_uint8, img.permute(0, 3, 1, 2)), hwc=list(img.shape), dt=to_uint8.dtype, cont=img.permute(0, 3, 1, 2).is_contiguous())
