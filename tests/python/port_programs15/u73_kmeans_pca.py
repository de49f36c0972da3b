import torch


def kmeans(x, init, iters=5):
    c = init.clone()
    for _ in range(iters):
        d = torch.cdist(x, c)
        assign = d.argmin(1)
        for k in range(c.size(0)):
            m = assign == k
            if m.any():
                c[k] = x[m].mean(0)
    inertia = (x - c[assign]).pow(2).sum()
    return c, assign, inertia


pts = torch.cat([data(10, 2, seed=1) * 0.3 + torch.tensor([2.0, 2.0]), data(10, 2, seed=2) * 0.3 - 2,
                 data(10, 2, seed=3) * 0.3 + torch.tensor([2.0, -2.0])])
cent, assign, inertia = kmeans(pts, pts[[0, 10, 20]])
X = data(20, 5, seed=4) @ torch.diag(torch.tensor([3.0, 2.0, 1.0, 0.5, 0.1]))
Xc = X - X.mean(0, keepdim=True)
U, S, Vh = torch.linalg.svd(Xc, full_matrices=False)
explained = S ** 2 / (S ** 2).sum()
proj = Xc @ Vh[:2].T
cov = Xc.T @ Xc / (X.size(0) - 1)
ev = torch.linalg.eigvalsh(cov).flip(0)
sil_a = torch.stack([torch.cdist(pts[i:i + 1], pts[assign == assign[i]]).sum() / ((assign == assign[i]).sum() - 1)
                     for i in range(30)])
report(cent=cent, counts=torch.bincount(assign), inertia=inertia, explained=explained,
       proj_var=proj.var(0), ev_ok=torch.allclose(ev, S ** 2 / 19, rtol=1e-4), sil_a=sil_a.mean())
