import torch
X = torch.cat([data(20, 2) + torch.tensor([3.0, 3.0]), data(20, 2, seed=4) - 3, data(20, 2, seed=5) + torch.tensor([3.0, -3.0])])
K = 3
C = X[torch.tensor([0, 20, 40])].clone()
for it in range(5):
    dist = torch.cdist(X, C)
    assign = dist.argmin(dim=1)
    counts = torch.bincount(assign, minlength=K).float()
    sums = torch.zeros(K, 2).index_add_(0, assign, X)
    C = sums / counts.unsqueeze(1)
inertia = ((X - C[assign]) ** 2).sum()
w = torch.bincount(assign, weights=X[:, 0], minlength=K)
onehot = torch.nn.functional.one_hot(assign, K).float()
means = onehot.t() @ X / onehot.sum(0)[:, None]
sq = (X.unsqueeze(1) - C.unsqueeze(0)).pow(2).sum(-1)
soft = torch.softmax(-sq, dim=1)
pca_mean = X.mean(0)
U, S, V = torch.pca_lowrank(X, q=2, center=True) if hasattr(torch, "pca_lowrank") else (None, torch.linalg.svdvals(X - pca_mean), None)
cov = torch.cov(X.T)
eigval, eigvec = torch.linalg.eigh(cov)
report(C=C, counts=counts, inertia=inertia, w=w, same=torch.allclose(means, C, atol=1e-5), soft=soft[:2], S=torch.linalg.svdvals(X - pca_mean), cov=cov, eig=eigval,
       proj=((X - pca_mean) @ eigvec[:, -1:]).abs()[:3, 0], isel=torch.index_select(X, 0, torch.tensor([5, 25]))[:, 0])
