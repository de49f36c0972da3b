import torch
x = torch.arange(24.0).view(2, 3, 4)
res = {
    "movedim": list(x.movedim(0, -1).shape), "flatten": list(x.flatten(1).shape), "unflatten": list(x.unflatten(2, (2, 2)).shape),
    "chunk": [list(c.shape) for c in x.chunk(2, dim=2)], "tsplit": [list(c.shape) for c in torch.tensor_split(x, [1, 2], dim=1)],
    "split_sizes": [c.shape[2] for c in x.split([1, 3], 2)], "narrow": x.narrow(2, 1, 2)[0, 0], "expand_as": list(torch.ones(1, 3, 1).expand_as(x).shape),
    "repeat_interleave": torch.repeat_interleave(torch.tensor([1, 2]), torch.tensor([2, 3])), "ri2": torch.tensor([[1, 2]]).repeat_interleave(2, dim=0),
    "roll": torch.roll(torch.arange(5), shifts=2), "tile": torch.tile(torch.tensor([1, 2]), (2, 2)), "stack_neg": list(torch.stack([x, x], dim=-1).shape),
    "hstack": torch.hstack([torch.tensor([1]), torch.tensor([2, 3])]), "vstack": list(torch.vstack([torch.ones(3), torch.zeros(3)]).shape),
    "dstack": list(torch.dstack([torch.ones(2, 2), torch.ones(2, 2)]).shape), "column_stack": torch.column_stack([torch.tensor([1, 2]), torch.tensor([3, 4])]),
    "cartesian": torch.cartesian_prod(torch.tensor([1, 2]), torch.tensor([3, 4])), "combinations": torch.combinations(torch.tensor([1, 2, 3]), r=2),
    "tril_idx": torch.tril_indices(3, 3), "triu_idx": torch.triu_indices(3, 3, offset=1), "block_diag": torch.block_diag(torch.ones(1, 1), 2 * torch.ones(2, 2)),
    "flip_lr": torch.fliplr(torch.arange(4).view(2, 2)), "diag_embed": torch.diag_embed(torch.tensor([1, 2])), "atleast": list(torch.atleast_2d(torch.tensor(1.0)).shape),
    "clone_contig": x.transpose(0, 2).contiguous().is_contiguous(), "stride": list(x.transpose(0, 1).stride()), "numel": x.numel(), "ndim": x.ndim, "elsize": x.element_size(),
    "dim_order": x.size(-1), "item_type": type(x.sum().item()).__name__, "tolist": x[0, 0].tolist(), "vander": torch.vander(torch.tensor([1, 2, 3]), N=3),
    "new_full": x.new_full((2,), 7), "new_zeros_dt": str(x.new_zeros(1).dtype), "clamp_int": torch.tensor([1, 5, 9]).clamp(2, 6), "lerp": torch.lerp(torch.zeros(2), torch.ones(2), 0.3),
    "addcmul": torch.addcmul(torch.ones(2), torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0]), value=0.5), "type_as": torch.tensor([1.7]).type_as(torch.tensor([1])),
    "unbind": [t.tolist() for t in torch.tensor([[1, 2], [3, 4]]).unbind(1)], "rsub": 1 - torch.tensor([0.25]), "rdiv": 2 / torch.tensor([4.0]), "rpow": 2 ** torch.tensor([3.0]),
}
report(**res)
