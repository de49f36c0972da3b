import torch

a = torch.tensor([3, 7, 1, 3, 9])
b = torch.tensor([2, 2, 5, 2, 0])
h = (a * 1000003 + b * 7919) % 97
h2 = torch.remainder(a * -31 + b, 13)
f = torch.fmod(a * -31 + b, 13)
emb = torch.nn.Embedding(97, 2)
det(emb)
bits = (a.unsqueeze(-1) >> torch.arange(4)) & 1
report(h=h, h2=h2, f=f, e=emb(h), bits=bits, xor=a ^ b, shl=a << 2, dt=h.dtype)
