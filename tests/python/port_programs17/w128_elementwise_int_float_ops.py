import torch

i = torch.tensor([4, -3, 0, 7])
f = torch.tensor([0.5, -1.5, 2.25, 0.0])
r = {
    "sqrt_i": torch.sqrt(i.abs()), "exp_i": torch.exp(torch.tensor([0, 1])), "sin_b": torch.sin(torch.tensor([True, False])),
    "floor_i": torch.floor(i), "ceil_f": torch.ceil(f), "trunc": torch.trunc(f), "frac": torch.frac(f), "sign_i": torch.sign(i),
    "sgn": torch.sgn(f), "abs_i": torch.abs(i), "neg": torch.neg(i), "recip_i": torch.reciprocal(i.float()), "sq_i": torch.square(i),
    "pow_if": torch.pow(i, 0.5), "pow_ii": torch.pow(i, 2), "fp": torch.float_power(i, 2), "lerp": torch.lerp(f, torch.ones(4), torch.tensor([0.0, 0.5, 1.0, 2.0])),
    "addcmul": torch.addcmul(f, f, i, value=0.5), "addcdiv": torch.addcdiv(f, f, i.float() + 10, value=2), "clamp_if": torch.clamp(i, min=-1.5, max=2.5),
    "clamp_ii": torch.clamp(i, min=-1, max=5), "mf_i": i.masked_fill(i > 0, 9), "sig_i": torch.sigmoid(i), "log1p": torch.log1p(f.abs()),
    "round_i": torch.round(i), "logit": torch.logit(torch.tensor([0.0, 0.3, 1.0]), eps=1e-6), "hyp": torch.hypot(f, f), "rsqrt": torch.rsqrt(torch.tensor([4.0, 0.0])),
}
report(v=r, d={k: v.dtype for k, v in r.items()})
