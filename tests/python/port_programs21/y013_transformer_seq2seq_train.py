import torch
import torch.nn as nn
# TOL 1e-3

torch.manual_seed(0)
model = nn.Transformer(d_model=8, nhead=2, num_encoder_layers=1, num_decoder_layers=1, dim_feedforward=16,
                       dropout=0.0, batch_first=True)
det(model, seed=3)
emb = det(nn.Embedding(10, 8), seed=4)
out_proj = det(nn.Linear(8, 10), seed=5)
params = list(model.parameters()) + list(emb.parameters()) + list(out_proj.parameters())
opt = torch.optim.Adam(params, lr=1e-2)
src = ints(10, 2, 5, seed=1)
tgt = ints(10, 2, 4, seed=2)
tgt_in, tgt_out = tgt[:, :-1], tgt[:, 1:]
mask = model.generate_square_subsequent_mask(tgt_in.size(1))
losses = []
for _ in range(3):
    h = model(emb(src), emb(tgt_in), tgt_mask=mask)
    loss = nn.functional.cross_entropy(out_proj(h).reshape(-1, 10), tgt_out.reshape(-1))
    opt.zero_grad()
    loss.backward()
    opt.step()
    losses.append(loss.item())
report(mask=mask, losses=losses)
