import torch

a = torch.complex(torch.tensor([1.0, -2.0, 0.5]), torch.tensor([0.5, 1.0, -3.0]))
b = torch.polar(torch.tensor([2.0, 1.0, 0.5]), torch.tensor([0.3, -1.0, 2.0]))
prod = a * b
q = a / b
e = torch.exp(a)
l = torch.log(a)
s = torch.sqrt(a)
mm = a[:, None] @ b.conj()[None, :]
report(p=torch.view_as_real(prod), q=torch.view_as_real(q), e=torch.view_as_real(e), l=torch.view_as_real(l), s=torch.view_as_real(s),
       abs=a.abs(), ang=a.angle(), real=b.real, imag=b.imag, mm=torch.view_as_real(mm[1]), dt=a.dtype, cdt=(a * 2.0).dtype,
       dot=torch.view_as_real(torch.vdot(a, b)), isc=a.is_complex(), sgn=torch.view_as_real(a.sgn()))
