import copy
import pickle
import torch
import torch.nn as nn

t = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
s = t.size()
y = (t * 2).sum()
dc = copy.deepcopy(torch.ones(2))
p = nn.Parameter(torch.ones(3))
pp = copy.deepcopy(p)
pk = pickle.loads(pickle.dumps(torch.arange(3)))
lin = nn.Linear(2, 2)
lin2 = copy.deepcopy(lin)
fn = y.grad_fn
report(size=str(s), numel=s.numel(), tup=isinstance(s, tuple), s0=s[0], slice=str(s[1:]), eq=s == (2, 2), len=len(t), iter=[r.tolist() for r in t],
       contains=bool((t == 3.0).any()), fn=fn.name(), nxt=[type(f[0]).__name__ if f[0] is not None else None for f in fn.next_functions],
       dc=dc, pp=type(pp).__name__, pprg=pp.requires_grad, pk=pk, lin=lin2.weight is not lin.weight, hash=hash(t) == hash(t), bool0=bool(torch.tensor([0.0])),
       float=float(torch.tensor(2.5)), int=int(torch.tensor(3.9)), index=[10, 20, 30][torch.tensor(1)], neg=(-t).tolist(), rmatmul=(t @ t).tolist(),
       dim=t.ndim, T=t.T.tolist(), dtype_is=t.dtype is torch.float32, is_float=t.is_floating_point(), elsize=t.element_size(), shape_eq=t.shape == torch.Size([2, 2]))
