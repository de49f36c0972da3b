import copy
import pickle
import torch

x = torch.tensor([3.0, 1.0, 2.0])
l = [float(v) for v in x]
d = {int(k): v for k, v in zip(torch.tensor([1, 2]), ["a", "b"])}
s = sorted(x.tolist())
y = copy.deepcopy(x)
z = pickle.loads(pickle.dumps(x))
idx = [1, 2][torch.tensor(1)]
rng = list(range(torch.tensor(3)))
report(l=l, d=d, s=s, y=y, z=z, idx=idx, rng=rng, bool_=bool(torch.tensor([1])), len_=len(torch.zeros(4, 2)),
       contains=2.0 in x, iter=[t.item() for t in torch.arange(3)], hashable=len({x, y}) == 2, fmt="%.2f" % torch.tensor(1.234),
       neg=-x, absx=abs(-x), cmp=(x > 1).tolist(), mx=max(torch.tensor([1, 5, 3])).item())
