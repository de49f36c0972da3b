import torch
import torch.nn as nn
import torch.nn.functional as F
img = data(1, 2, 6, 6)
unfold = nn.Unfold(kernel_size=3, stride=2, padding=1)
patches = unfold(img)
fold = nn.Fold(output_size=(6, 6), kernel_size=3, stride=2, padding=1)
summed = fold(patches)
counts = fold(unfold(torch.ones_like(img)))
avg = summed / counts
pt = patches.transpose(1, 2).reshape(1, -1, 2, 3, 3)
den = F.fold(F.unfold(img, 2, stride=2), (6, 6), 2, stride=2)
report(pshape=list(patches.shape), counts=counts[0, 0], same=torch.allclose(avg, img, atol=1e-6), pt=pt[0, 4, 1, 1], den=torch.equal(den, img), p=patches[0, :3, 4])
