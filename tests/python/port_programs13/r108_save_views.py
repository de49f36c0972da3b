import torch
import copy
import pickle
import io
base = torch.arange(6.0)
obj = {"a": base, "b": base[2:5], "c": [base.view(2, 3)]}
torch.save(obj, "views.pt")
ld = torch.load("views.pt")
# torch's load keeps ld["b"] a view of ld["a"] (one storage); meshflow's loads them apart
# (docs/porting.md, "What differs"), so a write into ld["a"] is not compared
m = torch.nn.Linear(2, 2)
m2 = copy.deepcopy(m)
m2.weight.data.fill_(1.0)
t = torch.tensor([1.0, 2.0], requires_grad=True)
buf = io.BytesIO(); torch.save(t, buf); buf.seek(0)
t2 = torch.load(buf)
pk = pickle.loads(pickle.dumps(torch.tensor([[1, 2], [3, 4]])))
report(b=ld["b"], c=ld["c"][0], indep=bool((m.weight != 1.0).any()), t2rg=t2.requires_grad, t2leaf=t2.is_leaf, pk=pk, pkdt=pk.dtype)
