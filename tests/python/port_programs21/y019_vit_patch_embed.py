import torch
import torch.nn as nn
import torch.nn.functional as F

img = data(2, 3, 8, 8, seed=1)
conv = det(nn.Conv2d(3, 5, kernel_size=4, stride=4), seed=2)
tokens = conv(img).flatten(2).transpose(1, 2)
patches = F.unfold(img, kernel_size=4, stride=4).transpose(1, 2)
lin = patches @ conv.weight.reshape(5, -1).T + conv.bias
p2 = img.unfold(2, 4, 4).unfold(3, 4, 4)
p2 = p2.permute(0, 2, 3, 1, 4, 5).reshape(2, 4, -1)
cls = torch.zeros(1, 1, 5)
pos = data(1, 5, 5, seed=3)
seq = torch.cat([cls.expand(2, -1, -1), tokens], dim=1) + pos
folded = F.fold(F.unfold(img, 4, stride=4), (8, 8), 4, stride=4)
report(tokens=tokens[0], same=torch.allclose(tokens, lin, atol=1e-5), p2=torch.allclose(p2, patches), seq=seq.shape,
       s=seq[1, 0], fold=torch.equal(folded, img), ushape=list(img.unfold(2, 4, 2).shape))
