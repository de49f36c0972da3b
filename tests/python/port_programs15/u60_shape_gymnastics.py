import torch

x = torch.arange(24).reshape(2, 3, 4)
r = {}
r["movedim"] = x.movedim(0, -1).shape
r["swapdims"] = x.swapdims(1, 2)[0, :, 0]
r["unflatten"] = x.flatten().unflatten(0, (4, -1)).shape
r["split_sizes"] = [t.shape for t in x.split([1, 3], dim=2)]
r["tensor_split"] = [t.tolist() for t in torch.tensor_split(torch.arange(7), 3)]
r["tensor_split_idx"] = [t.tolist() for t in torch.tensor_split(torch.arange(7), [2, 5])]
r["hsplit"] = [t.shape for t in torch.hsplit(torch.ones(2, 6), 3)]
r["chunk_uneven"] = [t.numel() for t in torch.arange(10).chunk(4)]
r["unbind"] = [t.tolist() for t in torch.arange(4).view(2, 2).unbind(1)]
r["expand_neg"] = torch.ones(3, 1).expand(-1, 4).shape
r["expand_as"] = torch.tensor([1, 2]).expand_as(torch.ones(3, 2))
r["repeat_interleave"] = torch.repeat_interleave(torch.tensor([1, 2, 3]), torch.tensor([2, 0, 1]))
r["ri_dim"] = torch.tensor([[1, 2], [3, 4]]).repeat_interleave(2, dim=0)
r["tile"] = torch.tile(torch.tensor([1, 2]), (2, 2))
r["stack_neg"] = torch.stack([torch.ones(2), torch.zeros(2)], dim=-1)
r["hstack"] = torch.hstack([torch.tensor([1, 2]), torch.tensor([3])])
r["vstack"] = torch.vstack([torch.tensor([1, 2]), torch.tensor([3, 4])])
r["dstack"] = torch.dstack([torch.ones(2, 2), torch.zeros(2, 2)]).shape
r["column_stack"] = torch.column_stack([torch.tensor([1, 2]), torch.tensor([3, 4])])
r["cat_empty"] = torch.cat([torch.tensor([]), torch.tensor([1.0, 2.0])])
r["squeeze_multi"] = torch.ones(1, 2, 1, 3).squeeze((0, 2)).shape
r["view_as"] = torch.arange(6).view_as(torch.ones(3, 2))
r["permute_contig"] = x.permute(2, 0, 1).is_contiguous()
r["stride"] = x.transpose(0, 2).stride()
r["T_3d"] = x.mT.shape
r["rot90"] = torch.rot90(torch.tensor([[1, 2], [3, 4]]), 1, [0, 1])
r["roll_multi"] = torch.roll(torch.arange(6).view(2, 3), shifts=(1, -1), dims=(0, 1))
r["narrow_copy"] = torch.arange(10).narrow(0, 3, 4)
r["unfold"] = torch.arange(7).unfold(0, 3, 2)
r["diagonal_off"] = torch.arange(9).view(3, 3).diagonal(offset=1)
r["flatten_mid"] = x.flatten(1).shape
r["ravel"] = x.transpose(1, 2).ravel()[:5]
r["size_math"] = list(x.size()[1:]) + [x.size(-1) * 2]
r["numel"] = x.numel()
r["ndim"] = [x.ndim, x.dim()]
report(**r)
