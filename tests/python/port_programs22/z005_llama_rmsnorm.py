import torch
import torch.nn as nn

class LlamaRMSNorm(nn.Module):
    def __init__(self, hidden_size, eps=1e-6):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(hidden_size))
        self.variance_epsilon = eps

    def forward(self, hidden_states):
        input_dtype = hidden_states.dtype
        hidden_states = hidden_states.to(torch.float32)
        variance = hidden_states.pow(2).mean(-1, keepdim=True)
        hidden_states = hidden_states * torch.rsqrt(variance + self.variance_epsilon)
        return self.weight * hidden_states.to(input_dtype)

norm = det(LlamaRMSNorm(6), seed=1)
x = data(3, 4, 6, seed=2, scale=3.0).requires_grad_()
y = norm(x)
y.sum().backward()
xb = data(2, 6, seed=3).to(torch.bfloat16)
yb = norm(xb)
ref = nn.RMSNorm(6, eps=1e-6) if hasattr(nn, "RMSNorm") else None
if ref is not None:
    with torch.no_grad():
        ref.weight.copy_(norm.weight)
report(y=y[0], gx=x.grad[1], gw=norm.weight.grad, yb_dtype=yb.dtype, yb=yb.float(),
       same_as_builtin=None if ref is None else bool(torch.allclose(ref(x), y, atol=1e-6)))
