import torch
import torch.nn.functional as F
x = torch.arange(16.0).view(1, 1, 4, 4)
res = {"neg": F.pad(x, (-1, -1, 0, -2))[0, 0], "const": F.pad(x, (1, 0, 0, 1), value=-1.0)[0, 0, :, :2], "repl1d": F.pad(torch.arange(3.0).view(1, 1, 3), (2, 1), mode="replicate")[0, 0],
       "circ": F.pad(x, (1, 1, 1, 1), mode="circular")[0, 0, 0], "refl": F.pad(x, (2, 0, 0, 0), mode="reflect")[0, 0, 1], "pad3d": list(F.pad(torch.ones(1, 1, 2, 2, 2), (1, 1, 1, 1, 1, 1)).shape),
       "last_dim_only": F.pad(torch.ones(2, 3), (0, 2)), "zero_pad_mod": torch.nn.ZeroPad2d((1, 0, 0, 0))(x)[0, 0, 0], "refl_grad": None}
xg = x.clone().requires_grad_()
F.pad(xg, (1, 1, 1, 1), mode="reflect").sum().backward()
res["refl_grad"] = xg.grad[0, 0]
report(**res)
