import torch

x = torch.tensor([123456.789, 0.000123, 1.0])
outs = {}
torch.set_printoptions(precision=3, sci_mode=False)
outs["p3"] = repr(x)
torch.set_printoptions(precision=6)
outs["p6"] = repr(torch.tensor([1.0 / 3]))
torch.set_printoptions(profile="short")
outs["short"] = repr(torch.tensor([1.0 / 3, 2.0]))
torch.set_printoptions(profile="full")
outs["full_len"] = len(repr(torch.arange(2000)))
torch.set_printoptions(profile="default")
outs["default"] = repr(x)
outs["ints_big"] = repr(torch.tensor([10 ** 12, -3]))
outs["half"] = repr(torch.tensor([1 / 3], dtype=torch.float16))
report(**outs)
