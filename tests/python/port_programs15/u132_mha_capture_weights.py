import torch
import torch.nn as nn

layer = nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, batch_first=True)
det(layer)
captured = []


def patch_attention(m):
    forward_orig = m.forward

    def wrap(*args, **kwargs):
        kwargs["need_weights"] = True
        kwargs["average_attn_weights"] = False
        return forward_orig(*args, **kwargs)

    m.forward = wrap


def save_output(module, inp, out):
    captured.append(out[1].detach())


patch_attention(layer.self_attn)
h = layer.self_attn.register_forward_hook(save_output)
x = data(2, 4, 8)
mask = torch.tensor([[False, False, False, True], [False, False, False, False]])
y = layer(x, src_key_padding_mask=mask)
h.remove()
w = captured[0]
report(y=y[0, 0], wshape=w.shape, w=w[0, 1, 2], masked=w[0, :, :, 3].abs().max(), rows=w.sum(-1)[1])
