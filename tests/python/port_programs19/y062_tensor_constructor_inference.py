import torch
import numpy as np
report(a=torch.tensor([1, 2.0]).dtype, b=torch.tensor([True, 1]).dtype, c=torch.tensor([[1], [2]]).shape, d=torch.tensor(np.float64(2.5)).dtype,
       e=torch.tensor(np.int32(3)).dtype, f=torch.tensor([np.float32(1.5), 2]).dtype, g=torch.tensor([]).dtype, h=torch.tensor(3.0 + 0j).dtype,
       i=torch.as_tensor([1, 2], dtype=torch.float16).dtype, j=torch.tensor([torch.tensor(1.0), torch.tensor(2.0)]), k=torch.tensor(np.array([1, 2], dtype=np.uint16)).dtype if hasattr(torch, "uint16") else "torch.uint16",
       l=torch.Tensor([1, 2]).dtype, m=torch.LongTensor([1, 2]).dtype, n=torch.tensor(range(4)))
