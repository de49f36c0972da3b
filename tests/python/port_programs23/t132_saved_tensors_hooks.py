import torch

packed, unpacked = [], []


def pack_hook(x):
    packed.append(tuple(x.shape))
    return x.clone()


def unpack_hook(x):
    unpacked.append(tuple(x.shape))
    return x


a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
b = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(pack_hook, unpack_hook):
    y = a * b
n_packed = len(packed)
y.sum().backward()
n_unpacked = len(unpacked)
storage = {}


def pack_to_dict(x):
    key = len(storage)
    storage[key] = x.detach().clone()
    return key


def unpack_from_dict(key):
    return storage[key]


x = torch.tensor([0.2, 0.7], requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(pack_to_dict, unpack_from_dict):
    z = x.pow(2).sin().sum()
z.backward()
with torch.autograd.graph.save_on_cpu():
    w = (x * 3).exp().sum()
w.backward()
report(n_packed=n_packed, n_unpacked=n_unpacked, ag=a.grad, bg=b.grad, xg=x.grad, keys=len(storage) > 0)
