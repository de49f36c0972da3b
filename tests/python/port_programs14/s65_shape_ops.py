import torch

x = torch.arange(24.0).view(2, 3, 4)
out = {
    "flat": torch.flatten(x, start_dim=1).shape, "unflat": x.unflatten(2, (2, 2)).shape, "movedim": torch.movedim(x, 0, -1).shape,
    "swap": x.swapdims(0, 2).shape, "rep": x[:1, :1].repeat(2, 1, 2).shape, "rep_int": torch.repeat_interleave(torch.tensor([1, 2]), torch.tensor([2, 3])),
    "tile": torch.tile(torch.tensor([1, 2]), (2, 2)), "exp": x[:, :1].expand(-1, 3, -1).shape, "exp_as": torch.ones(1, 4).expand_as(x[0]).shape,
    "stack": torch.stack([x, x], dim=-1).shape, "hstack": torch.hstack([x[0], x[1]]).shape, "vstack": torch.vstack([x[0], x[1]]).shape,
    "dstack": torch.dstack([x[0], x[1]]).shape, "cstack": torch.column_stack([torch.arange(3), torch.arange(3)]),
    "split_sizes": [t.shape for t in x.split([1, 3], dim=2)], "tsplit": [t.shape for t in torch.tensor_split(x, 3, dim=2)],
    "unbind": len(x.unbind(1)), "chunk_uneven": [t.shape for t in torch.arange(7).chunk(3)], "roll": torch.roll(torch.arange(5), 2),
    "roll2d": torch.roll(x[0], shifts=(1, -1), dims=(0, 1)), "flipud": torch.flipud(x[0])[0], "tril_idx": torch.tril_indices(3, 3),
    "triu_idx": torch.triu_indices(3, 4, offset=1), "diag_embed": torch.diag_embed(torch.tensor([1, 2])), "block": torch.block_diag(torch.ones(1, 2), torch.ones(2, 1)),
    "atleast": torch.atleast_2d(torch.tensor(1.0)).shape, "meshgrid": [t.shape for t in torch.meshgrid(torch.arange(2), torch.arange(3), indexing="xy")],
    "cartesian": torch.cartesian_prod(torch.tensor([1, 2]), torch.tensor([3, 4])), "comb": torch.combinations(torch.tensor([1, 2, 3]), r=2),
    "narrow": x.narrow(1, 1, 2).shape, "squeeze_multi": torch.zeros(1, 2, 1, 3).squeeze((0, 2)).shape, "view_as": x.view_as(torch.empty(4, 6)).shape,
}
report(**{k: (str(v) if isinstance(v, torch.Size) or (isinstance(v, list) and v and isinstance(v[0], torch.Size)) else v) for k, v in out.items()})
