import torch
t = torch.arange(8, dtype=torch.float32)
z = torch.exp(1j * 2 * torch.pi * t / 8)
rot = z * torch.exp(torch.tensor(1j * torch.pi / 2))
report(zr=z.real, zi=z.imag, rr=rot.real, ri=rot.imag, zdt=z.dtype, ang=torch.angle(z), s=torch.view_as_real(z.sum()), cplx=torch.view_as_real(torch.tensor([1.0, 2.0]) * (1 + 1j)),
       ab=torch.abs(z * 3), pw=torch.view_as_real(z ** 2)[:3])
