import torch
import torch.nn as nn
class RunningNorm(nn.Module):
    def __init__(self, n, momentum=0.1):
        super().__init__()
        self.momentum = momentum
        self.register_buffer("running_mean", torch.zeros(n))
        self.register_buffer("count", torch.tensor(0, dtype=torch.long))
        self.register_buffer("scratch", torch.ones(n), persistent=False)
        self.scale = nn.Parameter(torch.ones(n))
        self.register_parameter("shift", nn.Parameter(torch.zeros(n)))
    def forward(self, x):
        if self.training:
            with torch.no_grad():
                self.running_mean.mul_(1 - self.momentum).add_(self.momentum * x.mean(0))
                self.count += 1
        return (x - self.running_mean) * self.scale + self.shift
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.norm = RunningNorm(4)
        self.fc = nn.Linear(4, 3)
        self.act = nn.ReLU()
        self.head = nn.Linear(3, 1)
    def forward(self, x):
        return self.head(self.act(self.fc(self.norm(x))))
net = det(Net())
activations = {}
def get_activation(name):
    def hook(model, input, output):
        activations[name] = output.detach()
    return hook
grads = {}
def bhook(module, grad_input, grad_output):
    grads["fc_out"] = grad_output[0].detach().clone()
h1 = net.fc.register_forward_hook(get_activation("fc"))
h2 = net.fc.register_full_backward_hook(bhook)
def pre(module, args):
    return (args[0] * 2,)
h3 = net.head.register_forward_pre_hook(pre)
x = data(5, 4)
out = net(x)
out.sum().backward()
fc_act = activations["fc"].clone()
h1.remove(); h2.remove(); h3.remove()
out2 = net(x)
tensor_grads = []
hh = x.requires_grad_().register_hook(lambda g: tensor_grads.append(g.clone()))
net(x).pow(2).mean().backward()
net.eval()
out3 = net(x)
report(out=out, fc_act=fc_act, g=grads["fc_out"], out2=out2, tg=tensor_grads[0], out3=out3,
       sd=sorted(net.state_dict().keys()), buffers=[n for n, _ in net.named_buffers()], count=net.norm.count.item(),
       rm=net.norm.running_mean, nparam=len(list(net.parameters())), n_acts=len(activations))
