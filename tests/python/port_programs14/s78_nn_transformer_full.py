import torch
import torch.nn as nn

model = nn.Transformer(d_model=8, nhead=2, num_encoder_layers=1, num_decoder_layers=1, dim_feedforward=16, dropout=0.0, batch_first=True)
det(model, scale=0.2)
src_emb = det(nn.Embedding(11, 8), 3)
out_proj = det(nn.Linear(8, 11), 4)
src = ints(11, 2, 6)
tgt = ints(11, 2, 4, seed=5)
src_pad = src == 0
tgt_mask = model.generate_square_subsequent_mask(4)
opt = torch.optim.Adam(list(model.parameters()) + list(src_emb.parameters()) + list(out_proj.parameters()), lr=1e-3)
hist = []
for _ in range(3):
    out = model(src_emb(src), src_emb(tgt[:, :-1]), tgt_mask=tgt_mask[:3, :3], src_key_padding_mask=src_pad, memory_key_padding_mask=src_pad,
                tgt_is_causal=True)
    loss = nn.functional.cross_entropy(out_proj(out).reshape(-1, 11), tgt[:, 1:].reshape(-1))
    opt.zero_grad()
    loss.backward()
    opt.step()
    hist.append(loss.item())
report(hist=hist, mask=tgt_mask, n=sum(p.numel() for p in model.parameters()), enc=type(model.encoder.layers[0]).__name__)
