import torch

a = torch.ones(3, 1, 5)
b = torch.arange(4.0).view(4, 1)
c = a + b
shapes = torch.broadcast_shapes((1, 4), (3, 1), (4,))
bt = torch.broadcast_tensors(torch.tensor([1, 2]), torch.tensor([[10], [20], [30]]))
e = torch.tensor([1.0, 2.0]).expand(3, -1)
ea = torch.tensor([[5.0]]).expand_as(torch.zeros(2, 3))
z = torch.zeros(0, 3) + torch.ones(3)
z2 = torch.ones(2, 0, 1) * torch.ones(4)
bt_to = torch.broadcast_to(torch.arange(3), (2, 3))
mm = torch.matmul(torch.ones(2, 1, 3, 4), torch.ones(5, 4, 2))
mv = torch.matmul(torch.ones(3, 4), torch.arange(4.0))
vm = torch.arange(3.0) @ torch.ones(3, 4)
try:
    torch.ones(3) + torch.ones(4)
    err = None
except RuntimeError:
    err = "RuntimeError"
report(c=list(c.shape), c_sum=c.sum().item(), shapes=shapes, bt0=bt[0], bt1=bt[1], e=e, e_stride=list(e.stride()), ea=ea, z=list(z.shape),
       z2=list(z2.shape), bt_to=bt_to, mm=list(mm.shape), mv=mv, vm=vm, err=err)
