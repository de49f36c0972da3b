import torch
import torch.nn.functional as F
import torch.nn as nn
x = data(2, 3, 6, 6)
up_n = F.interpolate(x, scale_factor=2, mode="nearest")
up_b = F.interpolate(x, size=(9, 7), mode="bilinear", align_corners=False)
up_bc = F.interpolate(x, scale_factor=1.5, mode="bicubic", align_corners=True)
dn = F.interpolate(x, size=(3, 3), mode="area")
pr = F.pad(x, (1, 2, 0, 1), mode="reflect"); pc = F.pad(x, (1, 1, 1, 1), value=0.5); prep = F.pad(x, (2, 0, 2, 0), mode="replicate")
cols = F.unfold(x, kernel_size=3, padding=1, stride=1)
folded = F.fold(cols, output_size=(6, 6), kernel_size=3, padding=1)
ones = F.fold(F.unfold(torch.ones_like(x), 3, padding=1), (6, 6), 3, padding=1)
recon = folded / ones
ps = F.pixel_shuffle(data(1, 8, 3, 3, seed=2), 2); pus = F.pixel_unshuffle(ps, 2)
a = data(4, 8, seed=3); b = data(4, 8, seed=4)
cs = F.cosine_similarity(a, b, dim=1); cs2 = F.cosine_similarity(a[:, None], b[None], dim=-1)
pd = F.pairwise_distance(a, b); pd1 = nn.PairwiseDistance(p=1)(a, b)
nrm = F.normalize(a, p=2, dim=1)
cd = torch.cdist(a, b)
gs = F.grid_sample(x, F.affine_grid(torch.tensor([[[0.8, 0.1, 0.0], [-0.1, 0.9, 0.1]]]).repeat(2, 1, 1), (2, 3, 5, 5), align_corners=False), align_corners=False)
ap = F.adaptive_avg_pool2d(x, (4, 4)); mp, idx = F.max_pool2d(x, 2, return_indices=True); unp = F.max_unpool2d(mp, idx, 2)
avg = F.avg_pool2d(x, 3, stride=2, padding=1, count_include_pad=False)
oh = F.one_hot(torch.tensor([0, 2, 1]), num_classes=4)
glu = F.glu(a, dim=1); hs = F.hardswish(a); mish = F.mish(a); sp = F.softplus(a, beta=2); elu = F.elu(a); selu = F.selu(a); l6 = F.relu6(a * 4)
ls = F.logsigmoid(a); sm = F.softmin(a, 1); th = F.threshold(a, 0.1, 20.0); gel = F.gelu(a, approximate="tanh"); lrn = F.local_response_norm(x, 2)
emb = F.embedding(torch.tensor([[0, 2], [1, 1]]), b)
report(up_n=up_n[0, 0, :3], up_b=up_b[1, 2, :2], up_bc=up_bc[0, 1, 0], dn=dn[0, 0], pr=pr[0, 0, :2], pc=pc.sum(), prep=prep[1, 1, :3, :3],
       cols=cols.shape, recon=torch.allclose(recon, x, atol=1e-5), ps=ps[0, 0], pus=pus.shape, cs=cs, cs2=cs2, pd=pd, pd1=pd1, nrm=nrm[0],
       cd=cd, gs=gs[0, 0], ap=ap[0, 0], idx=idx[0, 0], unp=unp[0, 0, :2], avg=avg[0, 0], oh=oh, glu=glu[0], hs=hs[0], mish=mish[0],
       sp=sp[0], elu=elu[0], selu=selu[0], l6=l6[0], ls=ls[0], sm=sm[0], th=th[0], gel=gel[0], lrn=lrn[0, 0, 0], emb=emb)
