import torch
A = torch.tensor([[0.0, -1.0], [1.0, 0.0]])
w = torch.linalg.eigvals(A)
B = torch.tensor([[2.0, 1.0], [0.0, 3.0]])
wb, vb = torch.linalg.eig(B)
order = wb.real.argsort()
report(wr=w.real.sort().values, wi=w.imag.sort().values, wdt=w.dtype, wbr=wb.real[order], vbabs=vb.abs()[:, order], isc=w.is_complex())
