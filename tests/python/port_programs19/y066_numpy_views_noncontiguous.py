import torch
import numpy as np
x = torch.arange(12.0).view(3, 4)
tv = x.t().numpy()
sl = x[:, 1].numpy()
arr = np.arange(12, dtype=np.float32).reshape(3, 4)[:, ::2]
ta = torch.from_numpy(arr.copy())
tb = torch.tensor(arr)
neg = torch.from_numpy(np.ascontiguousarray(np.arange(5)[::-1]))
report(tv=tv.tolist(), sl=sl.tolist(), ta=ta, tb=tb, neg=neg, tdt=str(tv.dtype))
