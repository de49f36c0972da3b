import torch

x = torch.tensor([3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5])
r = {
    "bc": torch.bincount(x, minlength=4),
    "histc": torch.histc(x.float(), bins=4, min=0, max=8),
    "histc_auto": torch.histc(torch.tensor([1.0, 2.0, 1.0, 4.0]), bins=3),
    "hist": torch.histogram(torch.tensor([1.0, 2.0, 1.0, 4.0]), bins=3).hist,
    "edges": torch.histogram(torch.tensor([1.0, 2.0, 1.0, 4.0]), bins=torch.tensor([0.0, 1.5, 3.0, 5.0])).bin_edges,
}
u, inv, cnt = torch.unique(x, return_inverse=True, return_counts=True)
r.update(u=u, inv=inv, cnt=cnt)
m = torch.tensor([[1, 2], [3, 4], [1, 2], [0, 0]])
um, minv, mcnt = torch.unique(m, dim=0, return_inverse=True, return_counts=True)
r.update(um=um, minv=minv, mcnt=mcnt, uc=torch.unique_consecutive(torch.tensor([1, 1, 2, 2, 1]), return_counts=True)[1])
r["mode_of_bins"] = torch.bincount(x).argmax()
report(**r)
