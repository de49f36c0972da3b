import torch

x = torch.rand(5, 5)
y = torch.rand(5, 5)
z = torch.rand((5, 5), requires_grad=True)
a = x + y
b = x + z
flags = [a.requires_grad, b.requires_grad]
w = torch.ones(3, 2)
flags.append(w.requires_grad)
w.requires_grad_()
flags.append(w.requires_grad)
out = (w * 3).sum()
out.backward()
d = (w * 2).detach()
flags += [d.requires_grad, d.grad_fn is None]
with torch.no_grad():
    n = w * 2
flags += [n.requires_grad, torch.is_grad_enabled()]
torch.set_grad_enabled(False)
e = w * 2
flags.append(e.requires_grad)
torch.set_grad_enabled(True)


@torch.no_grad()
def doubler(x):
    return x * 2


flags.append(doubler(w).requires_grad)
with torch.enable_grad():
    flags.append((w * 1).requires_grad)
frozen = torch.nn.Linear(3, 2)
for param in frozen.parameters():
    param.requires_grad = False
frozen.bias.requires_grad_(True)
trainable = [n for n, p in frozen.named_parameters() if p.requires_grad]
report(flags=flags, wg=w.grad, trainable=trainable)
