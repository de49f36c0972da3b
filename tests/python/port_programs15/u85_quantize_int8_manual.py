import torch


def quantize_per_tensor(x, num_bits=8):
    qmin, qmax = -(2 ** (num_bits - 1)), 2 ** (num_bits - 1) - 1
    scale = x.abs().max() / qmax
    q = torch.clamp(torch.round(x / scale), qmin, qmax).to(torch.int8)
    return q, scale


def quantize_asym(x):
    mn, mx = x.min(), x.max()
    scale = (mx - mn) / 255
    zp = torch.round(-mn / scale).clamp(0, 255).to(torch.uint8)
    q = torch.clamp(torch.round(x / scale) + zp.int(), 0, 255).to(torch.uint8)
    return q, scale, zp


w = data(4, 6)
q, s = quantize_per_tensor(w)
deq = q.float() * s
qa, sa, zp = quantize_asym(w)
deqa = (qa.int() - zp.int()).float() * sa
x = data(3, 6, seed=4)
xq, xs = quantize_per_tensor(x)
acc = xq.to(torch.int32) @ q.to(torch.int32).t()
y_int = acc.float() * xs * s
per_ch_scale = w.abs().amax(dim=1, keepdim=True) / 127
qc = (w / per_ch_scale).round().clamp(-128, 127).char()
fq = torch.fake_quantize_per_tensor_affine(w, float(s), 0, -128, 127)
report(q=q[0], s=s, err=(deq - w).abs().max(), qa=qa[0], zp=zp, erra=(deqa - w).abs().max().item() < sa.item(),
       acc_dtype=str(acc.dtype), y_err=(y_int - x @ w.t()).abs().max().item() < 0.1, qc=qc[1], qc_dtype=str(qc.dtype),
       fq_ok=torch.allclose(fq, deq, atol=1e-6), i8_overflow=(torch.tensor([100], dtype=torch.int8) * 2).tolist())
