import torch

a = torch.tensor([12, 10, -3])
b = torch.tensor([10, 6, 5])
m = torch.tensor([True, False, True])
n = torch.tensor([True, True, False])
report(and_=a & b, or_=a | b, xor=a ^ b, not_=~a, shl=a << 1, shr=a >> 1, land=torch.logical_and(a, b - 10), lor=torch.logical_or(m, n), lxor=torch.logical_xor(m, n),
       lnot=torch.logical_not(a - 12), bm=m & n, bx=m ^ n, bn=~m, band=torch.bitwise_and(a, 3), lnf=torch.logical_not(torch.tensor([0.0, 1.5])), bcnt=(m | n).sum(),
       gcd=torch.gcd(a, b), lcm=torch.lcm(torch.tensor([4, 6]), torch.tensor([6, 8])), anyall=[m.any().item(), m.all().item()])
