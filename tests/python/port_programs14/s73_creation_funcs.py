import torch

out = {
    "arange_f": torch.arange(0, 1, 0.25), "arange_i": torch.arange(5), "arange_dt": torch.arange(2, 8, 2, dtype=torch.float64),
    "lin": torch.linspace(0, 1, steps=5), "log": torch.logspace(0, 2, 3, base=10), "eye": torch.eye(2, 3),
    "full": torch.full((2, 2), 7), "full_f": torch.full((2,), 1.5), "full_b": torch.full((2,), True), "zl": torch.zeros_like(torch.ones(2, dtype=torch.int32)),
    "ol": torch.ones_like(torch.ones(2), dtype=torch.float16), "fl": torch.full_like(torch.ones(3), 4), "t_int": torch.tensor([1, 2]),
    "t_mix": torch.tensor([1, 2.5]), "t_bool": torch.tensor([True, 0 == 1]), "t_nested": torch.tensor([[1, 2], [3, 4]], dtype=torch.float32),
    "t_scalar": torch.tensor(3), "as_t": torch.as_tensor([1.0, 2.0], dtype=torch.float64), "empty_shape": torch.empty(2, 0).shape,
    "new_full": torch.ones(2, dtype=torch.int64).new_full((3,), 5), "new_tensor": torch.ones(1, dtype=torch.float64).new_tensor([1, 2]),
    "new_ones": torch.zeros(1, dtype=torch.int8).new_ones(2), "tri": torch.tril(torch.ones(3, 3)), "heav": torch.heaviside(torch.tensor([-1.0, 0.0, 2.0]), torch.tensor(0.5)),
    "from_list_t": torch.stack([torch.tensor(1.0), torch.tensor(2.0)]), "polar": torch.complex(torch.tensor([1.0]), torch.tensor([2.0])).abs(),
    "vander": torch.vander(torch.tensor([1, 2, 3]), N=3), "range_len": len(torch.arange(0, 10, 3)), "zeros_size": torch.zeros(torch.Size([2, 1])).shape,
    "scalar_tensor": torch.scalar_tensor(2), "tensor_of_tensors": torch.tensor([torch.tensor(1.0).item(), 2.0]),
}
report(**{k: (str(v) if isinstance(v, torch.Size) else v) for k, v in out.items()}, dts={k: str(v.dtype) for k, v in out.items() if isinstance(v, torch.Tensor)})
