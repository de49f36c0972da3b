import torch
b = torch.tensor([1.0, 3.0, 5.0, 7.0])
v = torch.tensor([0.0, 1.0, 4.0, 7.0, 9.0])
report(l=torch.searchsorted(b, v), r=torch.searchsorted(b, v, right=True), side=torch.searchsorted(b, v, side="right"),
       i32=torch.searchsorted(b, v, out_int32=True).dtype, bk=torch.bucketize(v, b), bkr=torch.bucketize(v, b, right=True),
       nd=torch.searchsorted(torch.tensor([[1, 3, 5], [2, 4, 6]]), torch.tensor([[3], [3]])), sc=torch.searchsorted(b, torch.tensor(3.0)),
       sorter=torch.searchsorted(torch.tensor([5.0, 1.0, 3.0]), torch.tensor([2.0, 4.0]), sorter=torch.tensor([1, 2, 0])))
