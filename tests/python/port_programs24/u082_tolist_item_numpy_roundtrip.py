import numpy as np
import torch

t = torch.tensor([[1, 2], [3, 4]], dtype=torch.int16)
f = torch.tensor([0.1, 0.2], dtype=torch.float32)
lst = f.tolist()
it = torch.tensor([5]).item()
bit = torch.tensor(True).item()
n = t.numpy()
shared = torch.from_numpy(n)
shared[0, 0] = 99
asarr = torch.as_tensor(np.array([1.5, 2.5]))
cp = torch.tensor(np.array([1, 2], dtype=np.uint8))
np_scalar = torch.tensor(np.float64(2.0))
view = np.asarray(torch.arange(3.0))
from_list_mixed = torch.tensor([1, 2.5, True])
npi = np.int64(3) * torch.ones(2, dtype=torch.int32)
npf = torch.ones(2) * np.float64(0.5)
report(lst=lst, lst_type=type(lst[0]).__name__, it=it, it_type=type(it).__name__, bit=bit, bit_type=type(bit).__name__, n00=int(n[0, 0]), n_dtype=str(n.dtype),
       asarr=asarr.dtype, cp=cp.dtype, np_scalar=np_scalar.dtype, view=view.tolist(), mixed=from_list_mixed, npi=npi.dtype, npf=npf.dtype,
       nested=torch.tensor([[1.0], [2.0]]).tolist(), int_item=type(torch.tensor(3, dtype=torch.uint8).item()).__name__,
       bf=torch.tensor([1.1], dtype=torch.bfloat16).tolist(), f16=torch.tensor([0.1], dtype=torch.float16).item())
