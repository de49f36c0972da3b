import torch
import torch.nn as nn
# TOL 1e-2

emb = det(nn.Embedding(10, 8))
blk = det(nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, batch_first=True), seed=1)
head = det(nn.Linear(8, 10), seed=2)
model = nn.Sequential(emb, blk, head).half().eval()
ids = torch.tensor([[1, 2, 3, 4]])
T = ids.size(1)
mask = torch.triu(torch.full((T, T), torch.finfo(torch.float16).min, dtype=torch.float16), 1)
with torch.inference_mode():
    h = emb(ids)
    h = blk(h, src_mask=mask)
    logits = head(h)
report(dt=logits.dtype, logits=logits.float(), argmax=logits.argmax(-1), fmin=torch.finfo(torch.float16).min)
