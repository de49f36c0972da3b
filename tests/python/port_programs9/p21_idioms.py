import torch
x = data(4, 5)
idx = torch.tensor([[0, 1, 2, 0, 1], [2, 0, 1, 1, 0]])
z = torch.zeros(3, 5).scatter_(0, idx, x[:2])
za = torch.zeros(3, 5).scatter_add_(0, idx, x[:2])
g = torch.gather(x, 1, torch.tensor([[0, 0], [1, 0], [4, 3], [2, 2]]))
ia = torch.zeros(3, 5).index_add_(0, torch.tensor([0, 2, 0, 1]), x)
cs = torch.cumsum(x, dim=1); cp = torch.cumprod(x[:, :3], dim=0)
sv, si = torch.sort(x, dim=1, descending=True)
labels = torch.tensor([3, 1, 3, 2, 1, 1, 0])
u, inv, cnt = torch.unique(labels, sorted=True, return_inverse=True, return_counts=True)
w = torch.where(x > 0, x, torch.zeros_like(x)); w1 = torch.where(x > 0)
nz = torch.nonzero(x > 0.5); nzt = (x > 0.5).nonzero(as_tuple=True)
ri = torch.repeat_interleave(torch.tensor([1, 2, 3]), torch.tensor([2, 0, 3])); ri2 = x[:2].repeat_interleave(2, dim=0)
rl = torch.roll(x, shifts=(1, -2), dims=(0, 1)); fl = torch.flip(x, [0, 1])
ch = [c.shape for c in x.chunk(3, dim=1)]; sp = [s.shape for s in x.split([1, 3], dim=0)]
st = torch.stack([x[0], x[1]], dim=1); cat = torch.cat([x, x[:1]], 0)
onehot = torch.zeros(len(labels), 4).scatter_(1, labels.unsqueeze(1), 1.0)
topv, topi = x.topk(2, dim=0, largest=False)
am = x.argmax(); amd = x.argmax(dim=1, keepdim=True)
kv = x.kthvalue(2, dim=1); md = x.median(dim=0); cm = torch.cummax(x, dim=1)
mm = x.min(dim=1).values; clamped = x.clamp(-0.5, 0.5)
xx = x.clone(); xx[xx < 0] = 0; xx[:, 1] += 1; xx[[0, 2], [1, 3]] = -7.0
pos = x.clone(); pos[0, :] = torch.arange(5); pos[1:3, ::2] = 9
ip = torch.zeros(5).index_put_((torch.tensor([0, 0, 2]),), torch.tensor([1.0, 2.0, 3.0]), accumulate=True)
ms = torch.zeros(2, 3).masked_scatter_(torch.tensor([[True, False, True], [False, True, False]]), torch.arange(6.0))
report(z=z, za=za, g=g, ia=ia, cs=cs, cp=cp, sv=sv, si=si, u=u, inv=inv, cnt=cnt, w=w, w1=list(w1), nz=nz, nzt=list(nzt), ri=ri, ri2=ri2,
       rl=rl, fl=fl, ch=ch, sp=sp, st=st, cat=cat.shape, onehot=onehot, topv=topv, topi=topi, am=am, amd=amd, kv=list(kv), md=list(md),
       cm=list(cm), mm=mm, clamped=clamped, xx=xx, pos=pos, ip=ip, ms=ms, tl=x.tolist()[0][:2], item=x[1, 1].item())
