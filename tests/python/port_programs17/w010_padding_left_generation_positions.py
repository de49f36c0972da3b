import torch

attention_mask = torch.tensor([[0, 0, 1, 1, 1], [1, 1, 1, 1, 1], [0, 1, 1, 1, 1]])
position_ids = attention_mask.long().cumsum(-1) - 1
position_ids.masked_fill_(attention_mask == 0, 1)
lengths = attention_mask.sum(dim=1)
last = attention_mask.shape[1] - 1
flipped = attention_mask.flip(-1).argmax(-1)
first_tok = attention_mask.argmax(-1)
ext = torch.cat([attention_mask, attention_mask.new_ones((attention_mask.shape[0], 1))], dim=-1)
report(pos=position_ids, lengths=lengths, flipped=flipped, first=first_tok, ext=ext, dtype=position_ids.dtype,
       nxtpos=position_ids[:, -1:] + 1)
