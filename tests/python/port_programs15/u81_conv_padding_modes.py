import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.arange(1 * 2 * 5 * 5, dtype=torch.float32).reshape(1, 2, 5, 5) / 10
r = {}
for mode in ("zeros", "reflect", "replicate", "circular"):
    c = nn.Conv2d(2, 1, 3, padding=1, padding_mode=mode, bias=False)
    with torch.no_grad():
        c.weight.fill_(1.0)
    r[mode] = c(x)[0, 0, 0]
r["same_even"] = nn.Conv2d(2, 1, 4, padding="same", bias=False)(x).shape
r["valid_dil"] = F.conv2d(x, torch.ones(3, 2, 2, 2), dilation=2).shape
r["stride_tuple"] = F.conv2d(x, torch.ones(1, 2, 3, 1), stride=(2, 1), padding=(1, 0))[0, 0, :, 0]
r["conv1d_groups"] = F.conv1d(x[0, :, 0:1, :].reshape(1, 2, 5), torch.ones(4, 1, 2), groups=2)
r["pad_circular"] = F.pad(torch.arange(4.).view(1, 1, 4), (2, 1), mode="circular")
r["pad_neg"] = F.pad(torch.arange(6.).view(2, 3), (-1, 0))
r["pad_3d"] = F.pad(torch.ones(1, 1, 2, 2, 2), (1, 1, 0, 0, 1, 0)).shape
r["convT_out"] = F.conv_transpose2d(x, torch.ones(2, 1, 3, 3), stride=2, padding=1, output_padding=1).shape
r["conv3d"] = F.conv3d(torch.ones(1, 1, 3, 4, 4), torch.ones(2, 1, 2, 2, 2), stride=(1, 2, 2))[0, :, 0, 0, 0]
r["zero_pad2d"] = nn.ZeroPad2d((1, 0, 0, 2))(torch.ones(1, 1, 2, 2))[0, 0]
r["const_pad1d"] = nn.ConstantPad1d(2, 3.5)(torch.ones(1, 2))
r["reflect_pad"] = nn.ReflectionPad1d((2, 1))(torch.arange(4.).view(1, 1, 4))
r["replicate3d"] = nn.ReplicationPad3d(1)(torch.ones(1, 1, 1, 1, 1)).shape
r["circ2d"] = nn.CircularPad2d(1)(torch.arange(4.).view(1, 1, 2, 2))[0, 0]
report(**r)
