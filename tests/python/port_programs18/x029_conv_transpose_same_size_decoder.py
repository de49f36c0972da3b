import torch
import torch.nn as nn

dec = det(nn.Sequential(nn.ConvTranspose2d(4, 3, 3, stride=2, padding=1, output_padding=1), nn.ReLU(),
                        nn.ConvTranspose2d(3, 1, 4, stride=2, padding=1), nn.Sigmoid()), scale=0.4)
z = data(2, 4, 3, 3, seed=5)
out = dec(z)
out2 = dec[0](z, output_size=[6, 6])
ct = nn.ConvTranspose2d(2, 2, 3, stride=2, groups=2, dilation=2, bias=False)
det(ct, seed=7)
o3 = ct(data(1, 2, 3, 3, seed=6))
report(shape=list(out.shape), out=out[0, 0, :2], o2=list(out2.shape), o3=o3[0, 1, :3], o3s=list(o3.shape))
