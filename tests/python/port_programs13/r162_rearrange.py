import torch
x = torch.arange(2 * 4 * 6 * 6).view(2, 4, 6, 6).float()
p = 3
patches = x.view(2, 4, 2, p, 2, p).permute(0, 2, 4, 3, 5, 1).reshape(2, 4, p * p * 4)
back = patches.view(2, 2, 2, p, p, 4).permute(0, 5, 1, 3, 2, 4).reshape(2, 4, 6, 6)
heads = torch.arange(24.0).view(1, 3, 8).view(1, 3, 2, 4).transpose(1, 2)
merged = heads.transpose(1, 2).contiguous().view(1, 3, 8)
s2d = torch.nn.functional.pixel_unshuffle(x, 2)
report(patch=patches[1, 3, :6], same=torch.equal(back, x), heads=list(heads.shape), hs=list(heads.stride()), merged=torch.equal(merged, torch.arange(24.0).view(1, 3, 8)), s2d=s2d[0, :4, 0, 0], ic=heads.is_contiguous())
