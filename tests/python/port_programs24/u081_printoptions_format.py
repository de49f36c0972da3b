import torch

x = torch.tensor([1.123456789, 2.5, -0.000123])
torch.set_printoptions(precision=2)
p2 = repr(x)
torch.set_printoptions(sci_mode=True)
sci = repr(x)
torch.set_printoptions(profile="default")
torch.set_printoptions(threshold=5, edgeitems=2)
thr = repr(torch.arange(10))
torch.set_printoptions(profile="default")
fmt = f"{torch.tensor(2.5).item():.3f}"
fmt2 = "{:.2f}".format(torch.tensor(1.0 / 3))
fmt3 = f"{torch.tensor(7)}"
lin = torch.set_printoptions(linewidth=30) or repr(torch.arange(20.0))
torch.set_printoptions(profile="default")
ints_ = repr(torch.tensor([100, -5, 7]))
mixed = repr(torch.tensor([1.0, 2.0, 3.0]))
small = repr(torch.tensor([1e-5, 1.0]))
report(p2=p2, sci=sci, thr=thr, fmt=fmt, fmt2=fmt2, fmt3=fmt3, lin=lin, ints=ints_, mixed=mixed, small=small, neg0=repr(torch.tensor([-0.0, 0.0])))
