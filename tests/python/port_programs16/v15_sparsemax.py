import torch


def sparsemax(z, dim=-1):
    z_sorted, _ = torch.sort(z, dim=dim, descending=True)
    k = torch.arange(1, z.size(dim) + 1, dtype=z.dtype)
    shape = [1] * z.dim()
    shape[dim] = -1
    k = k.view(shape)
    cssv = z_sorted.cumsum(dim) - 1
    support = (k * z_sorted) > cssv
    k_z = support.sum(dim=dim, keepdim=True)
    tau = cssv.gather(dim, k_z - 1) / k_z.to(z.dtype)
    return torch.clamp(z - tau, min=0)


z = torch.tensor([[1.0, 2.0, 0.5, -1.0], [0.1, 0.1, 0.1, 0.1], [3.0, -2.0, 2.9, 0.0]], requires_grad=True)
p = sparsemax(z)
loss = (p * torch.tensor([1.0, 2.0, 3.0, 4.0])).sum()
loss.backward()
p2 = sparsemax(data(3, 5).t(), dim=0)
report(p=p.detach(), sums=p.sum(1).detach(), grad=z.grad, p2=p2, nnz=(p2 > 0).sum(0))
