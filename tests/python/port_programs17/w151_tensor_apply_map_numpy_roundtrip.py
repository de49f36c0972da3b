import numpy as np
import torch

a = np.arange(6, dtype=np.float32).reshape(2, 3)
t = torch.from_numpy(a)
a[0, 0] = 100
u = torch.tensor(a)
a[0, 1] = -5
n = t.numpy()
n[1, 2] = 42
i = torch.as_tensor(np.array([1, 2], dtype=np.int32))
bo = torch.from_numpy(np.array([True, False]))
f64 = torch.from_numpy(np.linspace(0, 1, 3))
s = torch.tensor(np.float64(2.5))
report(t=t, u=u, i=i, idt=i.dtype, bo=bo, f64d=f64.dtype, s=s, sd=s.dtype, nd=str(n.dtype), tolist=t.tolist(),
       back=np.asarray(torch.arange(3)).tolist(), arr=torch.ones(2).numpy().dtype == np.float32)
