import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(1, 2, 3), nn.ReLU())
        self.head = nn.ModuleDict({"cls": nn.Linear(8, 3), "reg": nn.Linear(8, 1)})
        self.scales = nn.ParameterDict({"a": nn.Parameter(torch.ones(1)), "b": nn.Parameter(torch.zeros(2))})
        self.register_buffer("count", torch.zeros((), dtype=torch.long))
        self.register_buffer("tmp", torch.ones(1), persistent=False)
        self.extra = nn.Parameter(torch.ones(3), requires_grad=False)

    def forward(self, x):
        self.count += 1
        f = self.features(x).flatten(1)
        return self.head["cls"](f) * self.scales["a"], self.head["reg"](f)


net = Net()
r = {}
r["named_modules"] = [n for n, _ in net.named_modules()]
r["children"] = [type(c).__name__ for c in net.children()]
r["params"] = [n for n, _ in net.named_parameters()]
r["buffers"] = [n for n, _ in net.named_buffers()]
r["sd"] = list(net.state_dict().keys())
r["getsub"] = type(net.get_submodule("features.0")).__name__
r["getparam"] = list(net.get_parameter("head.cls.bias").shape)
net.eval()
r["training"] = [m.training for m in net.modules()][:3]
net.train(True)
r["requires"] = [p.requires_grad for p in net.parameters()]
net.requires_grad_(False)
r["frozen"] = any(p.requires_grad for p in net.parameters())
net.add_module("post", nn.Tanh())
net.register_module("post2", nn.Identity())
r["added"] = [n for n, _ in net.named_children()][-2:]
net.half()
r["half"] = [str(net.head.cls.weight.dtype), str(net.count.dtype)]
net.float()
out = net(torch.ones(2, 1, 4, 4))
r["count"] = net.count.item()
r["outs"] = [list(o.shape) for o in out]
del net.post2
r["deleted"] = hasattr(net, "post2")
r["zero_grad"] = net.features[0].weight.grad is None
r["nparams"] = sum(p.numel() for p in net.parameters())
r["dir_has"] = "head" in dir(net)
r["extra_repr"] = net.features[0].extra_repr()
r["str_param_dict"] = repr(net.scales).splitlines()[0]
seq = nn.Sequential(nn.Linear(2, 2), nn.ReLU(), nn.Linear(2, 1))
r["slice"] = type(seq[1:]).__name__
r["len"] = len(seq)
seq.append(nn.Sigmoid())
seq.insert(0, nn.Identity())
r["seq_after"] = [type(m).__name__ for m in seq]
r["ml_extend"] = len(nn.ModuleList([nn.ReLU()]).extend([nn.ReLU(), nn.Tanh()]))
report(**r)
