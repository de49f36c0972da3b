import numpy as np
import torch

arrs = {"f32": np.float32, "f64": np.float64, "i32": np.int32, "i64": np.int64, "u8": np.uint8, "b": np.bool_, "f16": np.float16, "i16": np.int16}
dts = {k: str(torch.from_numpy(np.zeros(2, dtype=v)).dtype) for k, v in arrs.items()}
back = {k: str(torch.zeros(2, dtype=getattr(torch, n)).numpy().dtype) for k, n in [("f32", "float32"), ("i64", "int64"), ("b", "bool"), ("u8", "uint8")]}
a = np.arange(6, dtype=np.float32).reshape(2, 3)
t = torch.from_numpy(a.T.copy())
nc = torch.tensor(a[:, ::2])
stacked = torch.stack([torch.from_numpy(np.ones(2)), torch.from_numpy(np.zeros(2))])
mixed = torch.from_numpy(np.array([1.0, 2.0])) + torch.tensor([1.0, 1.0])
from_list_np = torch.tensor([np.float32(1.5), np.float32(2.5)])
np_on_t = np.exp(torch.tensor([0.0, 1.0]).numpy())
t_np_add = torch.tensor([1, 2]) + np.int64(3)
as_np_then = torch.tensor(np.array([[1, 2], [3, 4]])).float().mean(0)
detach_np = torch.ones(2, requires_grad=True).detach().numpy()
report(dts=dts, back=back, t=t, nc=nc, stacked=stacked.dtype, mixed=mixed.dtype, from_list_np=from_list_np.dtype, np_on_t=np_on_t.tolist(),
       t_np_add=t_np_add, t_np_add_dtype=t_np_add.dtype, as_np_then=as_np_then, detach_np=detach_np.tolist(), contig=t.is_contiguous())
