import torch
import numpy as np
a = np.arange(6, dtype=np.float32)
t = torch.from_numpy(a)
a[0] = 100.0
t[1] = -5.0
b = t.numpy()
b[2] = 42.0
c = torch.as_tensor(a)
c[3] = 7.0
d = torch.tensor(a)
d[4] = 0.0
report(t=t, a=a.tolist(), shares=[np.shares_memory(a, b)], i64=torch.from_numpy(np.array([1, 2])).dtype, f64=torch.from_numpy(np.array([1.0])).dtype,
       bool_=torch.from_numpy(np.array([True])).dtype, u8=torch.from_numpy(np.zeros(2, np.uint8)).dtype, i16=torch.from_numpy(np.zeros(2, np.int16)).dtype)
