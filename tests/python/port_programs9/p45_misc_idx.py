import torch
x = torch.arange(24, dtype=torch.float32).reshape(2, 3, 4)
a = x[:, [0, 2]]; b = x[..., None].shape; c = x[:, 1:, ::2]; d = x[[0, 1], [2, 0]]; e = x[0, :, torch.tensor([1, 3])]
m = x.clone(); idx = torch.tensor([0, 0, 2]); m[0, idx] += 1
ip = torch.zeros(3).index_put((torch.tensor([0, 0, 2]),), torch.tensor([1.0, 1.0, 1.0]), accumulate=True)
f = x.view(-1)[torch.tensor([[1, 5], [7, 9]])]
bo = x[x.sum(-1) > 20]
n = x.clone(); n[:, :, -1] = torch.tensor([9.0, 8.0, 7.0]); n[1] = 0
s = x.new_zeros((2, 2)); o = x.new_ones(3); fu = x.new_full((2,), 7.0); nt = x.new_tensor([1, 2])
r = x.expand(2, 2, 3, 4).shape; rep = x[0, 0].repeat(2, 2)
la = x.flatten(start_dim=1); un = la.unflatten(1, (3, 4)).shape; nar = x.narrow(2, 1, 2)
sel = x.select(1, 2); ub = [u.shape for u in x.unbind(1)]; tk = torch.take(x, torch.tensor([0, 23]))
per = x.permute(2, 0, 1).reshape(4, -1); tr = x.transpose(0, 2).contiguous().view(4, 6); mt = x.mT.shape
sq = torch.zeros(1, 3, 1).squeeze().shape; sq1 = torch.zeros(1, 3, 1).squeeze(-1).shape
ms = x.masked_select(x > 20); lg = torch.logspace(0, 2, 3); ar = torch.arange(0, 1, 0.25); fl = torch.full((2, 2), 3, dtype=torch.long)
mn = x.mean(dim=[0, 2]); vv = x.var(dim=1, unbiased=False); sd = x.std(1, keepdim=True); nm = x.norm(dim=-1); mx = x.max(); pr = x[0, 0, 1:].prod()
tp = x.type(torch.int32).dtype; it = x.int().dtype; ld = x.long().sum(); bl = x.bool().all(); hf = x.half().dtype
rs = x.sum(dim=(0, 1)); lse = x.logsumexp(dim=-1); cnt = torch.count_nonzero(x > 10, dim=0)
report(a=a.shape, b=b, c=c, d=d, e=e, m=m[0], ip=ip, f=f, bo=bo.shape, n=n[0], s=s, o=o, fu=fu, nt=nt, ntd=nt.dtype, r=r, rep=rep, un=un, nar=nar[0], sel=sel, ub=ub,
       tk=tk, per=per[1], tr=tr[1], mt=mt, sq=sq, sq1=sq1, ms=ms, lg=lg, ar=ar, fl=fl, mn=mn, vv=vv, sd=sd[0], nm=nm[0], mx=mx, pr=pr, tp=tp, it=it, ld=ld, bl=bl,
       hf=hf, rs=rs, lse=lse[0], cnt=cnt, numel=x.numel(), nd=x.ndim, sz=x.size(1), szt=x.size(), isf=x.is_floating_point(), dim=x.dim())
