import torch
import torch.nn as nn
bl = det(nn.Bilinear(3, 4, 2))
a, b = data(5, 3), data(5, 4, seed=3)
y = bl(a, b)
manual = torch.einsum("bi,oij,bj->bo", a, bl.weight, b) + bl.bias
lz = nn.Identity(54, unused="x")(a)
fl = nn.Flatten(0, 1)(data(2, 3, 4))
uf = nn.Unflatten(1, (2, 2))(data(3, 4))
cs = nn.CosineSimilarity(dim=0)(a[:, 0], b[:, 0])
pd = nn.PairwiseDistance(p=2, eps=0.0, keepdim=True)(a, a + 1)
sm2 = nn.Softmax2d()(data(1, 3, 2, 2))
ch = nn.ChannelShuffle(2)(torch.arange(8.0).view(1, 4, 1, 2)) if hasattr(nn, "ChannelShuffle") else None
report(y=y, same=torch.allclose(y, manual, atol=1e-5), lz=lz is a, fl=list(fl.shape), uf=list(uf.shape), cs=cs, pd=pd, sm2=sm2.sum(1), ch=ch.flatten())
