import torch

x = torch.tensor([[1.0, 3.0, 2.0, 5.0, 5.0], [0.0, -1.0, 4.0, 4.0, 2.0]], requires_grad=True)
cmv, cmi = torch.cummax(x, dim=1)
cnv, cni = torch.cummin(x, dim=1)
lcse = torch.logcumsumexp(x, dim=1)
cp = torch.cumprod(x, dim=1)
(cmv.sum() + cnv.sum() + lcse.sum() + cp.sum()).backward()
cs_rev = x.detach().flip(1).cumsum(1).flip(1)
cs_int = torch.tensor([1, 2, 3], dtype=torch.int32).cumsum(0)
cp_bool = torch.tensor([True, True, False]).cumprod(0)
trap = torch.trapezoid(torch.tensor([1.0, 2.0, 4.0]), dx=0.5)
ctrap = torch.cumulative_trapezoid(torch.tensor([1.0, 2.0, 4.0]), x=torch.tensor([0.0, 1.0, 3.0]))
report(cmv=cmv.detach(), cmi=cmi, cnv=cnv.detach(), cni=cni, lcse=lcse.detach(), cp=cp.detach(), g=x.grad, cs_rev=cs_rev,
       cs_int=cs_int, cs_int_dtype=cs_int.dtype, cp_bool=cp_bool, cp_bool_dtype=cp_bool.dtype, trap=trap, ctrap=ctrap)
