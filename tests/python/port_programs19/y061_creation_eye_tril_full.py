import torch
report(e=torch.eye(2, 3), ed=torch.eye(3, dtype=torch.int32), ti=torch.tril_indices(3, 3), ti1=torch.tril_indices(3, 4, offset=1), tu=torch.triu_indices(3, 3, 1),
       f1=torch.full((2,), 7).dtype, f2=torch.full((2,), 7.0).dtype, f3=torch.full((2,), True).dtype, f4=torch.full((2, 2), 3, dtype=torch.float16),
       fl=torch.full_like(torch.zeros(2, dtype=torch.int32), 2.7), zl=torch.zeros_like(torch.ones(2, dtype=torch.bool)), ol=torch.ones(2, 2).new_ones(3).dtype,
       nz=torch.tensor([1, 2]).new_zeros((2,), dtype=torch.float64), em=torch.empty(0, 4).shape, sc=torch.scalar_tensor(3).dtype)
