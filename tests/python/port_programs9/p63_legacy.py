import numpy as np
import torch
from torch.autograd import Variable
a = torch.Tensor([1, 2, 3])
b = torch.FloatTensor(2, 3).zero_()
c = torch.LongTensor([1, 2])
d = torch.Tensor(2, 2).fill_(1.5)
e = torch.ByteTensor([1, 0])
v = Variable(torch.ones(2), requires_grad=True)
(v * 3).sum().backward()
f = a.type(torch.LongTensor)
g = torch.DoubleTensor([1.5])
h = torch.IntTensor([3])
bt = torch.BoolTensor([True, False])
r = dict(a=a, adt=a.dtype, b=b, c=c, cdt=c.dtype, d=d, edt=e.dtype, vg=v.grad, fdt=f.dtype, gdt=g.dtype, hdt=h.dtype, btdt=bt.dtype,
         t1=a.type(), t2=c.type(), isT=isinstance(a, torch.Tensor), ist=torch.is_tensor(c), isf=isinstance(a, torch.FloatTensor),
         vd=v.data, n=torch.numel(a), ae=a.eq(torch.tensor([1., 0., 3.])), d0=a.data[0].item())
x = np.arange(6, dtype=np.float64).reshape(2, 3)
t = torch.from_numpy(x)
r["fnp_dt"] = t.dtype; r["as_t"] = torch.as_tensor([1, 2], dtype=torch.float32); r["np_back"] = t.numpy().dtype.name
r["arr"] = np.array(torch.tensor([1.0, 2.0])).tolist(); r["asarr"] = np.asarray(torch.ones(2, 2)).shape
r["npscal"] = (torch.ones(2) * np.float32(2.0)); r["npscal_dt"] = (torch.ones(2) * np.float64(2.0)).dtype
r["npidx"] = torch.arange(5)[np.int64(2)]; r["npidxarr"] = torch.arange(5)[np.array([1, 3])]
r["tl"] = torch.tensor(x).float().tolist(); r["np_i32"] = torch.tensor(np.array([1, 2], dtype=np.int32)).dtype
r["sum_np"] = float(np.sum(torch.ones(3).numpy()))
r["from_list_of_t"] = torch.tensor([torch.tensor(1.0), torch.tensor(2.0)])
r["stack_np"] = torch.stack([torch.from_numpy(np.ones(2, dtype=np.float32)), torch.zeros(2)])
report(**r)
