import torch
import torch._dynamo
import torch.nn as nn

torch._dynamo.config.suppress_errors = True
torch._dynamo.reset()
m = det(nn.Sequential(nn.Linear(3, 3), nn.ReLU()))
cm = torch.compile(m)
x = data(2, 3)
a = cm(x)
torch._dynamo.reset()


@torch.compiler.disable
def eager_only(t):
    return t.tolist()


b = cm(x * 2)
report(a=a, b=b, l=eager_only(a), is_compiling=torch.compiler.is_compiling())
