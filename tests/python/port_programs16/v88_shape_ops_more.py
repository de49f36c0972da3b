import torch

x = torch.arange(12).view(3, 4)
report(
    roll=torch.roll(x, shifts=(1, -1), dims=(0, 1)), roll_flat=x.roll(5), flip=x.flip(0, 1), fliplr=torch.fliplr(x), rot=torch.rot90(x, 1, [0, 1]),
    rot_neg=torch.rot90(x, -3), rep_int=torch.repeat_interleave(torch.tensor([1, 2]), 3), rep_t=torch.repeat_interleave(x[:2, :2], torch.tensor([1, 3]), dim=0),
    rep_self=torch.repeat_interleave(torch.tensor([2, 0, 1])), tile=torch.tile(torch.tensor([1, 2]), (2, 2)), repeat=x[0].repeat(2, 1, 2).shape,
    chunk=[c.shape for c in torch.arange(10).chunk(4)], chunk_small=[c.tolist() for c in torch.arange(3).chunk(5)],
    split_list=[c.tolist() for c in torch.arange(7).split([2, 4, 1])], tsplit=[c.tolist() for c in torch.tensor_split(torch.arange(7), 3)],
    tsplit_idx=[c.tolist() for c in torch.arange(7).tensor_split([1, 5])], hsplit=[c.shape for c in torch.hsplit(x, 2)], vsplit=len(torch.vsplit(x, [1])),
    movedim=torch.movedim(torch.zeros(2, 3, 4), (0, 1), (2, 0)).shape, swap=torch.swapaxes(torch.zeros(2, 3, 4), 0, 2).shape,
    unflatten=x.unflatten(1, (2, 2)).shape, squeeze_multi=torch.zeros(1, 2, 1, 3).squeeze((0, 2)).shape, hstack=torch.hstack([x[0], x[1]]),
    vstack=torch.vstack([x[0], x[1]]).shape, dstack=torch.dstack([x, x]).shape, column=torch.column_stack([torch.arange(3), torch.arange(3)]),
    ravel=x.t().ravel(), tril=torch.tril(x, -1), triu=x.triu(1), flatten_range=torch.zeros(2, 3, 4, 5).flatten(1, 2).shape,
)
