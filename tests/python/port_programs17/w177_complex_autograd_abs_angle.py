import torch

re = torch.tensor([1.0, -2.0, 0.5], requires_grad=True)
im = torch.tensor([0.5, 1.0, -1.5], requires_grad=True)
z = torch.complex(re, im)
loss = (z.abs() ** 2).sum() + z.angle().sum() + (z * z).real.sum()
loss.backward()
w = torch.randn(3, dtype=torch.cfloat)
report(l=loss, gre=re.grad, gim=im.grad, wd=w.dtype, conj=torch.view_as_real(torch.tensor([1 + 2j]).conj().resolve_conj()), cf=torch.cfloat, cd=torch.complex128)
