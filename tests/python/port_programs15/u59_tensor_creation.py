import torch

r = {}
r["arange_f"] = torch.arange(0, 1, 0.25)
r["arange_neg"] = torch.arange(5, 0, -2)
r["linspace"] = torch.linspace(-1, 1, steps=5)
r["logspace"] = torch.logspace(0, 2, 3, base=10)
r["full"] = torch.full((2, 2), 7)
r["full_dtype"] = str(torch.full((1,), 7).dtype)
r["full_bool"] = str(torch.full((1,), True).dtype)
r["zeros_like"] = torch.zeros_like(torch.ones(2, dtype=torch.int32))
r["ones_like_dtype"] = torch.ones_like(torch.ones(2), dtype=torch.float64)
r["empty_shape"] = torch.empty(2, 0, 3).shape
r["eye_rect"] = torch.eye(2, 3)
xs, ys = torch.meshgrid(torch.arange(3), torch.arange(2), indexing="xy")
r["mesh"] = [xs.tolist(), ys.tolist()]
r["mesh_ij"] = torch.meshgrid(torch.arange(2), torch.arange(3), indexing="ij")[1]
r["cart"] = torch.cartesian_prod(torch.tensor([1, 2]), torch.tensor([3, 4]))
r["comb"] = torch.combinations(torch.tensor([1, 2, 3]), r=2)
r["tril_idx"] = torch.tril_indices(3, 3, offset=-1)
r["triu_idx"] = torch.triu_indices(2, 3)
r["diag_embed"] = torch.diag_embed(torch.tensor([[1, 2], [3, 4]]))
r["diagflat"] = torch.diagflat(torch.tensor([1, 2]), offset=1)
r["block"] = torch.block_diag(torch.ones(1, 2), torch.full((2, 1), 2.0))
r["vander"] = torch.vander(torch.tensor([1, 2, 3]), N=3)
r["tensor_from_list_of_tensors"] = torch.tensor([torch.tensor(1.5), torch.tensor(2.5)]) if False else torch.stack([torch.tensor(1.5), torch.tensor(2.5)])
r["as_tensor_tuple"] = torch.as_tensor((1, 2.0))
r["from_range"] = torch.tensor(range(4))
r["heaviside"] = torch.heaviside(torch.tensor([-1., 0., 2.]), torch.tensor(0.5))
r["polar_default"] = str(torch.get_default_dtype())
r["scalar_tensor"] = torch.scalar_tensor(3).dtype
r["new_full"] = torch.ones(2, dtype=torch.float64).new_full((2,), 3.0)
r["new_tensor"] = torch.ones(1, dtype=torch.int32).new_tensor([1.5, 2.5])
r["new_zeros"] = torch.ones(1, dtype=torch.int8).new_zeros(2, 2)
r["complex_zero"] = str(torch.zeros(1, dtype=torch.complex64).dtype)
r["atleast"] = [torch.atleast_2d(torch.tensor(1.0)).shape, torch.atleast_3d(torch.ones(2)).shape]
r["range_fn"] = torch.arange(3, dtype=torch.float16)
report(**r)
