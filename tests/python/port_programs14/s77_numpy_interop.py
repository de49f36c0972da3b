import numpy as np
import torch
# The program wrote into arrays and tensors after from_numpy / numpy() and read the other side:
# meshflow's from_numpy and numpy() copy (docs/porting.md, "What differs"), so the writes come
# before the conversions here.

arr = np.arange(6, dtype=np.float32).reshape(2, 3)
arr[0, 0] = 100.0
t = torch.from_numpy(arr)
shared = t[0, 0].item()
t_before = t.clone()
arr[1, 2] = 42
t2 = torch.as_tensor(arr)
t3 = torch.tensor(arr)
i32 = torch.from_numpy(np.array([1, 2, 3], dtype=np.int32))
f64 = torch.from_numpy(np.linspace(0, 1, 3))
b = torch.from_numpy(np.array([True, False]))
u8 = torch.from_numpy(np.array([200, 100], dtype=np.uint8))
non_contig = torch.from_numpy(np.arange(12).reshape(3, 4)[:, ::2].copy())
scalar = torch.tensor(np.float64(2.5))
mixed = torch.tensor(np.array([1, 2])) + torch.tensor(1.5)
np_sum = np.sum(torch.ones(3).numpy())
arr_from = np.asarray(torch.arange(3))
report(shared=shared, t=t_before, t2=t2[1, 2], t3=t3[1, 2], dtypes=[str(x.dtype) for x in (i32, f64, b, u8, non_contig, scalar, mixed)],
       np_sum=float(np_sum), arr_from=arr_from.tolist(), arr_dt=str(arr_from.dtype), np_dt=str(t.numpy().dtype), mixed=mixed,
       np_scalar_mul=(torch.ones(2) * np.float32(3.0)), list_from=torch.tensor(np.array([[1.5, 2.0]])).tolist())
