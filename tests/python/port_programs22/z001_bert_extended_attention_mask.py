import torch
import torch.nn as nn

def get_extended_attention_mask(attention_mask, dtype):
    extended = attention_mask[:, None, None, :]
    extended = extended.to(dtype=dtype)
    return (1.0 - extended) * torch.finfo(dtype).min

mask = torch.tensor([[1, 1, 1, 0], [1, 1, 0, 0]])
ext = get_extended_attention_mask(mask, torch.float32)
scores = data(2, 2, 4, 4, seed=1)
probs = nn.functional.softmax(scores + ext, dim=-1)
ext16 = get_extended_attention_mask(mask, torch.float16)
report(ext_shape=ext.shape, ext=ext[0, 0, 0], probs=probs, min32=torch.finfo(torch.float32).min,
       min16=torch.finfo(torch.float16).min, ext16_dtype=ext16.dtype, ext16=ext16[1, 0, 0].float(),
       masked_zero=bool((probs[1, :, :, 2:] == 0).all()))
