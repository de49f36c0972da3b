import torch


def chamfer(a, b):
    d = torch.cdist(a, b) ** 2
    return d.min(2).values.mean(1) + d.min(1).values.mean(1)


a = data(2, 6, 3).requires_grad_()
b = data(2, 5, 3, seed=3)
loss = chamfer(a, b).mean()
loss.backward()
d = torch.cdist(a.detach(), a.detach())
knn_d, knn_i = d.topk(3, dim=-1, largest=False)
diff = a.detach()[:, :, None, :] - a.detach()[:, None, :, :]
manual = diff.pow(2).sum(-1).sqrt()
fps = [0]
dist = torch.full((6,), float("inf"))
pts = a.detach()[0]
for _ in range(3):
    dist = torch.minimum(dist, (pts - pts[fps[-1]]).pow(2).sum(-1))
    fps.append(int(dist.argmax()))
report(loss=loss.item(), g=a.grad[0, :2], knn_i=knn_i[0], knn_d=knn_d[1], close=torch.allclose(d, manual, atol=1e-4), fps=fps,
       cd_p1=torch.cdist(a.detach(), b, p=1)[0, 0], cd_inf=torch.cdist(a.detach(), b, p=float("inf"))[1, 2])
