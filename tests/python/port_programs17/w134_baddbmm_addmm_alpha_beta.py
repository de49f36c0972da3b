import torch

M = data(2, 3, seed=1)
a, b = data(2, 4, seed=2), data(4, 3, seed=3)
B = data(5, 2, 3, seed=4)
ba, bb = data(5, 2, 4, seed=5), data(5, 4, 3, seed=6)
report(addmm=torch.addmm(M, a, b, beta=0.5, alpha=2.0), baddbmm=torch.baddbmm(B, ba, bb, beta=0.0, alpha=0.5)[1], addbmm=torch.addbmm(M, ba, bb, alpha=0.1),
       addmv=torch.addmv(torch.ones(2), a, torch.ones(4), beta=2), addr=torch.addr(M, torch.ones(2), torch.arange(3.0), alpha=3), outer=torch.outer(torch.arange(2.0), torch.ones(3)),
       chain=torch.chain_matmul(a, b, data(3, 2, seed=7)), mv=torch.mv(a, torch.arange(4.0)), inner=torch.inner(a, a), mat_pow=torch.matrix_power(torch.tensor([[1.0, 1.0], [1.0, 0.0]]), 10))
