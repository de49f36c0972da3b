import torch
import numpy as np

x = torch.tensor([1.7, -2.3, 3.5, -0.5])
arr = np.array([1, 2, 3], dtype=np.int32)
t = torch.from_numpy(arr)
t2 = torch.as_tensor([1, 2], dtype=torch.float64)
report(long=x.long(), int_=x.int(), to=x.to(torch.int64), half=x.half().dtype, bool_=x.bool(), byte=torch.tensor([3.9, 250.6]).byte(),
       np_dtype=t.dtype, t2=t2.dtype, type_=x.type(torch.float64).dtype, type_str=x.type(), round_=x.round(),
       round_dec=torch.round(torch.tensor([1.2345, 2.3456]), decimals=2), trunc=x.trunc(), ceil=x.ceil(),
       numpy_dtype=str(x.numpy().dtype), item=type(torch.tensor(3).item()).__name__, tolist=torch.tensor([[1, 2]]).tolist(),
       tensor_from_bool=torch.tensor([True, False]).dtype, int_div=torch.tensor(7) / torch.tensor(2),
       float_default=torch.tensor([1, 2.0]).dtype, like=torch.zeros_like(t, dtype=torch.float32).dtype)
