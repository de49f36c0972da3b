import torch
import torch.nn.functional as F

x = data(1, 2, 5, 5, seed=1)
w = data(3, 2, 3, 3, seed=2)
cols = F.unfold(x, kernel_size=3, padding=1, stride=2)
out = (w.view(3, -1) @ cols).view(1, 3, 3, 3)
ref = F.conv2d(x, w, padding=1, stride=2)
patches = x.unfold(2, 2, 2).unfold(3, 2, 2)
fold = F.fold(F.unfold(x, 2, stride=1), (5, 5), 2, stride=1)
counts = F.fold(F.unfold(torch.ones_like(x), 2, stride=1), (5, 5), 2, stride=1)
report(close=torch.allclose(out, ref, atol=1e-5), cols=list(cols.shape), patches=list(patches.shape),
       recon=torch.allclose(fold / counts, x, atol=1e-6), counts=counts[0, 0])
