import torch

x = torch.arange(12.0).view(3, 4)
report(
    new_full=x.new_full((2,), 7).dtype, new_zeros=x.new_zeros(2, 1).shape, new_tensor=x.new_tensor([1, 2]).dtype, new_ones_i=torch.ones(2, dtype=torch.int32).new_ones(3).dtype,
    fill_diag=torch.zeros(3, 4).fill_diagonal_(5, wrap=False), fill_wrap=torch.zeros(7, 3).fill_diagonal_(1, wrap=True).sum(1),
    addmm=torch.addmm(torch.ones(3, 3), x[:, :2], x[:2, :3], beta=0.5, alpha=2), addmv=torch.addmv(torch.ones(3), x[:, :2], torch.tensor([1.0, -1.0])),
    addr=torch.addr(torch.zeros(2, 2), torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0])), baddbmm=torch.baddbmm(torch.zeros(1, 2, 2), x[None, :2, :3], x[None, :3, :2]).shape,
    outer=torch.outer(torch.arange(3), torch.arange(2)), inner=torch.inner(x[0], x[1]), tensordot=torch.tensordot(x, x, dims=([1], [1])),
    trace=x.trace(), diag=torch.diag(x, 1),
    renorm=x.renorm(p=2, dim=0, maxnorm=5), signbit=torch.tensor([-0.0, 0.0, -1.0]).signbit(), nextafter=torch.nextafter(torch.tensor([1.0]), torch.tensor([2.0])) - 1,
    clone_grad=x.clone().requires_grad_().clone().requires_grad, positive=torch.positive(x[0]), bitwise=torch.bitwise_xor(torch.tensor([5, 3]), 6),
    shifts=torch.tensor([1, 8]) << 2, rshift=torch.tensor([-16, 16]) >> 2, count=torch.tensor([0, 1, 1, 2]).bincount(minlength=4), square_=x[0].clone().square_(),
)
