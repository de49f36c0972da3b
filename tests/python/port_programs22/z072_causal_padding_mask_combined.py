import torch
import torch.nn.functional as F

def prepare_4d_causal_attention_mask(attention_mask, tgt_len, dtype, past_key_values_length=0):
    bsz = attention_mask.shape[0]
    min_val = torch.finfo(dtype).min
    causal = torch.full((tgt_len, tgt_len), min_val)
    cond = torch.arange(causal.size(-1))
    causal.masked_fill_(cond < (cond + 1).view(causal.size(-1), 1), 0)
    causal = causal.to(dtype)
    if past_key_values_length > 0:
        causal = torch.cat([torch.zeros(tgt_len, past_key_values_length, dtype=dtype), causal], dim=-1)
    causal = causal[None, None, :, :].expand(bsz, 1, tgt_len, tgt_len + past_key_values_length)
    src_len = attention_mask.shape[-1]
    expanded = attention_mask[:, None, None, :].expand(bsz, 1, tgt_len, src_len).to(dtype)
    inverted = 1.0 - expanded
    inverted = inverted.masked_fill(inverted.to(torch.bool), min_val)
    return causal + inverted if past_key_values_length == 0 else inverted.masked_fill(causal.to(torch.bool), min_val)

am = torch.tensor([[0, 1, 1, 1], [1, 1, 1, 1]])
mask = prepare_4d_causal_attention_mask(am, 4, torch.float32)
scores = data(2, 1, 4, 4, seed=89)
p = F.softmax(scores + mask, dim=-1)
pk = prepare_4d_causal_attention_mask(torch.ones(1, 6, dtype=torch.long), 2, torch.float32, 4)
report(mask_is_min=(mask == torch.finfo(torch.float32).min).long(), isinf=torch.isinf(mask).any(), p=p, pk=(pk < 0).long(),
       minsum=(mask[0, 0, 0, 0] + mask[0, 0, 0, 1]).item())
