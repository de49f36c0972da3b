import torch
import torch.nn as nn

lstm = det(nn.LSTM(3, 4, num_layers=2, dropout=0.3, batch_first=True))
gru = det(nn.GRU(3, 4, num_layers=2, bidirectional=True), seed=1)
x = data(2, 5, 3)
h0 = data(2, 2, 4, seed=3)
c0 = data(2, 2, 4, seed=4)
lstm.eval()
out, (hn, cn) = lstm(x, (h0, c0))
out2, (hn2, _) = lstm(x, (h0, c0))
xg = x.transpose(0, 1)
og, hg = gru(xg)
final = torch.cat((hg[-2], hg[-1]), dim=1)
fwd_last_ok = torch.allclose(og[-1, :, :4], hg[-2], atol=1e-6)
bwd_first_ok = torch.allclose(og[0, :, 4:], hg[-1], atol=1e-6)
unb = lstm(x[0], (h0[:, 0], c0[:, 0]))[0]
names = [n for n, _ in gru.named_parameters()][:5]
flat = sum(p.numel() for p in lstm.parameters())
report(out=out[1, -1], hn=hn[1], cn=cn[0, 0], same_eval=torch.equal(out, out2), final=final[0], fwd=fwd_last_ok, bwd=bwd_first_ok,
       unb_ok=torch.allclose(unb, out[0], atol=1e-6), names=names, flat=flat, all_w=len(lstm.all_weights))
