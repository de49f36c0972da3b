import torch
import torch.nn as nn
class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4); self.drop = nn.Dropout(0.5); self.bn = nn.BatchNorm1d(4)
    def forward(self, x):
        return self.bn(self.drop(self.fc(x)))
m = det(M())
x = data(6, 4)
flags_train = [mod.training for mod in m.modules()]
m.eval()
flags_eval = [mod.training for mod in m.modules()]
with torch.no_grad():
    a = m(x)
b = m(x)
with torch.inference_mode():
    c = m(x)
    inf_rg = c.requires_grad
with torch.no_grad():
    with torch.enable_grad():
        d = m(x)
torch.set_grad_enabled(False)
e = m(x)
torch.set_grad_enabled(True)
with torch.set_grad_enabled(False):
    f = m(x)
@torch.no_grad()
def evaluate(model, inp):
    return model(inp)
g = evaluate(m, x)
m.train(); m.drop.p = 0.0
h = m(x)
m.train(False)
rm = m.bn.running_mean.clone()
m.requires_grad_(False)
k = m(x)
report(ft=flags_train, fe=flags_eval, a=a, a_rg=a.requires_grad, b_rg=b.requires_grad, c_rg=inf_rg, d_rg=d.requires_grad, e_rg=e.requires_grad,
       f_rg=f.requires_grad, g_rg=g.requires_grad, h=h, rm=rm, k_rg=k.requires_grad, same=torch.equal(a, b), gen=torch.is_grad_enabled(),
       tr=m.training, bnt=m.bn.training, leaf=b.is_leaf, gfn=b.grad_fn is not None)
