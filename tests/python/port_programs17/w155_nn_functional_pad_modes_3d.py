import torch
import torch.nn.functional as F

x = torch.arange(12.0).view(1, 1, 3, 4)
v = torch.arange(24.0).view(1, 1, 2, 3, 4)
report(const=F.pad(x, (1, 0, 0, 2), value=-1.0)[0, 0], refl=F.pad(x, (2, 1, 1, 1), mode="reflect")[0, 0], rep=F.pad(x, (1, 1, 2, 0), mode="replicate")[0, 0],
       circ=F.pad(x, (1, 2, 1, 0), mode="circular")[0, 0], neg=F.pad(x, (-1, 0, 0, -1))[0, 0], v3=F.pad(v, (1, 0, 0, 1, 1, 0), mode="replicate")[0, 0, 0],
       c1=F.pad(torch.arange(4.0).view(1, 2, 2), (1, 1), mode="reflect"), zp=torch.nn.ZeroPad2d((1, 0, 0, 1))(x).shape, cp=torch.nn.ConstantPad1d(2, 3.5)(x[0]).shape)
