import numpy as np
import torch
res = {"arange_f": torch.arange(0, 1, 0.1).numel(), "arange_dt": str(torch.arange(5).dtype), "arange_fdt": str(torch.arange(0.0, 3).dtype), "arange_neg": torch.arange(5, 0, -2),
       "linspace_int": torch.linspace(0, 10, 5, dtype=torch.int64), "logspace": torch.logspace(0, 2, 3), "logspace2": torch.logspace(0, 3, 4, base=2.0), "full_bool": torch.full((2,), True),
       "full_int": torch.full((2,), 7).dtype, "full_float": torch.full((1,), 7.0).dtype, "tensor_mix": torch.tensor([True, 2, 3.5]), "tensor_bool_int": torch.tensor([True, 2]).dtype,
       "zeros_like_dt": torch.zeros_like(torch.ones(2, dtype=torch.int32), dtype=torch.float16).dtype, "eye_rect": torch.eye(2, 3), "empty_shape": list(torch.empty(2, 0, 3).shape),
       "from_np": torch.from_numpy(np.array([1, 2], dtype=np.int16)).dtype, "as_tensor": torch.as_tensor([1.0, 2.0], dtype=torch.float64), "scalar_t": torch.tensor(5).shape == torch.Size([]),
       "ones_size": torch.ones(torch.Size([2, 1])).shape, "range": torch.range(0, 2) if hasattr(torch, "range") else None, "tri": torch.tril(torch.ones(3, 3), diagonal=-1),
       "heaviside": torch.heaviside(torch.tensor([-1.0, 0.0, 2.0]), torch.tensor([0.5])), "complex_dt": str(torch.tensor(1 + 2j).dtype), "np_float": torch.tensor(np.float64(1.5)).dtype,
       "np_int_scalar": (torch.ones(2) * np.int64(3)).dtype, "list_tensors": torch.tensor([torch.tensor(1.0), torch.tensor(2.0)])}
report(**res)
