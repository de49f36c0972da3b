import torch
import torch.nn.functional as F

q = data(3, 5, seed=1)
db = data(7, 5, seed=2)
cos = F.cosine_similarity(q.unsqueeze(1), db.unsqueeze(0), dim=2)
cos2 = F.normalize(q, dim=-1) @ F.normalize(db, dim=-1).T
top = cos.topk(2, dim=1)
dist = torch.cdist(q, db, p=2)
near = dist.argmin(1)
z = torch.zeros(2, 5)
report(cos=cos, same=torch.allclose(cos, cos2, atol=1e-6), tv=top.values, ti=top.indices, near=near,
       zero=F.cosine_similarity(z, z), eps=F.cosine_similarity(q[:1], q[:1] * 2, eps=1e-3), d1=torch.cdist(q, db, p=1)[0],
       pd=F.pdist(q), nrm=F.normalize(torch.zeros(1, 3)))
