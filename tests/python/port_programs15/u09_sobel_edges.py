import torch
import torch.nn.functional as F

img = torch.zeros(1, 1, 7, 7)
img[..., 2:5, 2:5] = 1.0
kx = torch.tensor([[-1., 0., 1.], [-2., 0., 2.], [-1., 0., 1.]])
ky = kx.t()
weight = torch.stack([kx, ky]).unsqueeze(1)
g = F.conv2d(img, weight, padding=1)
mag = torch.sqrt(g.pow(2).sum(dim=1, keepdim=True) + 1e-12)
ang = torch.atan2(g[:, 1], g[:, 0])
blur = F.conv2d(F.pad(img, (2, 2, 2, 2), mode="replicate"), torch.full((1, 1, 5, 5), 1 / 25.))
lap = F.conv2d(img, torch.tensor([[[[0., 1, 0], [1, -4, 1], [0, 1, 0]]]]), padding="same")
maxp, idx = F.max_pool2d(mag, 3, stride=2, return_indices=True)
unp = F.max_unpool2d(maxp, idx, 3, stride=2, output_size=mag.shape[-2:])
report(mag_row=mag[0, 0, 2], ang_row=ang[0, 3], blur=blur[0, 0, 3], lap_sum=lap.sum().item(), idx=idx,
       unp_nz=int((unp != 0).sum()), edges=int((mag > 1).sum()))
