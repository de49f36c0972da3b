import torch
x = torch.tensor([1.0, -2.5, 0.0, 8.0])
m, e = torch.frexp(x)
report(m=m, e=e, edt=e.dtype, ld=torch.ldexp(torch.tensor([1.0, 3.0]), torch.tensor([2, -1])), cs=torch.copysign(x, torch.tensor([-1.0, 1.0, -0.0, 1.0])),
       na=torch.nextafter(torch.tensor([1.0]), torch.tensor([2.0])) - 1, hv=torch.heaviside(x, torch.tensor([0.5])), sb=torch.signbit(torch.tensor([-0.0, 0.0, -1.0])),
       gcd=torch.gcd(torch.tensor([12, 18, -4]), torch.tensor([8, 27, 6])), lcm=torch.lcm(torch.tensor([4, 6]), torch.tensor([6, 10])), sgn=torch.sgn(x))
