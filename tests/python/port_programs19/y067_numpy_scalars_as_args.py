import torch
import numpy as np
x = torch.arange(6.0)
report(a=x * np.float32(2), adt=(x * np.float64(2)).dtype, b=x[np.int64(2)], c=x.view(np.int64(2), 3).shape, d=torch.zeros(np.int32(3)).shape,
       e=x.reshape((np.int64(3), -1)).shape, f=(x + np.float64(0.5)), g=x.sum(dim=np.int64(0)), h=torch.full((2,), np.float32(1.5)),
       i=(torch.tensor([1, 2]) * np.int64(3)).dtype, j=x.clamp(np.float64(1), np.float64(3)), k=(np.float64(2.0) * x).dtype if isinstance(np.float64(2.0) * x, torch.Tensor) else "ndarray",
       l=torch.tensor([1, 2])[np.array([1, 0])], m=x.topk(np.int64(2)).values)
