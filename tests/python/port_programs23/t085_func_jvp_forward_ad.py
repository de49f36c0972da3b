import torch
import torch.autograd.forward_ad as fwAD
from torch.func import jvp, jacrev, jacfwd, vmap, vjp

primal = torch.tensor([0.5, -1.0, 2.0])
tangent = torch.tensor([1.0, 0.0, 0.5])


def fn(x, y):
    return x ** 2 + y ** 2


with fwAD.dual_level():
    dual_input = fwAD.make_dual(primal, tangent)
    dual_output = fn(dual_input, primal)
    jvp_out = fwAD.unpack_dual(dual_output).tangent
    p = fwAD.unpack_dual(dual_output).primal
f = lambda x: x.sin() * x
out, jvp_val = jvp(f, (primal,), (tangent,))
J_rev = jacrev(f)(primal)
J_fwd = jacfwd(f)(primal)
x = torch.tensor([[1.0, 2.0], [3.0, -1.0]])
batched = vmap(torch.dot)(x, x)
out2, vjp_fn = vjp(f, primal)
report(jvp_out=jvp_out, p=p, jvp_val=jvp_val, out=out, J_rev=J_rev, same=torch.allclose(J_rev, J_fwd), batched=batched,
       vjp=vjp_fn(torch.ones(3))[0])
