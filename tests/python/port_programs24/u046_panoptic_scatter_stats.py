import torch

seg = torch.tensor([[0, 0, 1, 1, 2], [0, 3, 3, 1, 2], [4, 4, 3, 2, 2]])
sem_of_inst = torch.tensor([0, 1, 1, 2, 1])
sem = sem_of_inst[seg]
ids, counts = torch.unique(seg, return_counts=True)
yy, xx = torch.meshgrid(torch.arange(3.), torch.arange(5.), indexing="ij")
n = int(seg.max()) + 1
cy = torch.zeros(n).scatter_add_(0, seg.flatten(), yy.flatten()) / counts
cx = torch.zeros(n).scatter_add_(0, seg.flatten(), xx.flatten()) / counts
xmin = torch.full((n,), 99.0).scatter_reduce(0, seg.flatten(), xx.flatten(), reduce="amin")
xmax = torch.zeros(n).scatter_reduce(0, seg.flatten(), xx.flatten(), reduce="amax", include_self=False)
score = data(3, 5).sigmoid()
mean_score = torch.zeros(n).scatter_reduce(0, seg.flatten(), score.flatten(), reduce="mean", include_self=False)
boundary = (seg[:, 1:] != seg[:, :-1])
report(sem=sem, ids=ids, counts=counts, cy=cy, cx=cx, xmin=xmin, xmax=xmax, mean_score=mean_score, boundary=boundary.sum(1))
