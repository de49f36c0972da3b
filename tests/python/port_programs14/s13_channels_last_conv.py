import torch
# The program reported xc.stride() and xc.is_contiguous() too: meshflow's tensors stay dense
# row-major whatever their memory format (docs/porting.md, "What differs"), so it reports what
# a channels_last tensor computes, not its strides.
import torch.nn as nn

conv = det(nn.Conv2d(3, 4, 3, padding=1))
x = data(2, 3, 5, 5)
xc = x.contiguous(memory_format=torch.channels_last)
y = conv(xc)
y2 = conv(x)
report(same=torch.allclose(y, y2, atol=1e-6), y=y[0, :, 2, 2], perm=x.permute(0, 2, 3, 1).contiguous().stride(),
       back=torch.equal(xc.contiguous(), x))
