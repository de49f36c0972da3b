import torch

x = torch.tensor([-2.5, -0.5, 0.0, 0.5, 3.0])
y = torch.tensor([1.0, -1.0, 2.0, 0.0, -3.0])
lo, hi = torch.tensor([-1.0, -1.0, 0.5, 0.0, 0.0]), torch.tensor([1.0, 0.0, 1.0, 0.2, 2.0])
report(
    clamp_t=torch.clamp(x, min=lo, max=hi), clamp_min_t=x.clamp(min=lo), lerp=torch.lerp(x, y, 0.25), lerp_t=torch.lerp(x, y, torch.linspace(0, 1, 5)),
    addcmul=torch.addcmul(x, x, y, value=0.5), addcdiv=torch.addcdiv(x, x, y.abs() + 1, value=-2), hypot=torch.hypot(x, y),
    lae=torch.logaddexp(x, y), lae2=torch.logaddexp2(x, y), n2n=torch.nan_to_num(torch.tensor([float("nan"), float("inf"), -float("inf")]), nan=0.5, posinf=9.0),
    copysign=torch.copysign(x, y), sign=torch.sign(x), sgn=torch.sgn(x), frac=torch.frac(x), trunc=torch.trunc(x), round=torch.round(x),
    round_dec=torch.round(torch.tensor([1.2345, 2.5551]), decimals=2), ceil=x.ceil(), xlogy=torch.xlogy(x.abs(), y.abs()),
    float_power=torch.float_power(x, 2), heaviside=torch.heaviside(x, torch.tensor(0.5)), rsqrt=torch.rsqrt(x.abs() + 1),
    sinc=torch.sinc(x), deg=torch.rad2deg(x), logit=torch.logit(torch.tensor([0.0, 0.25, 1.0]), eps=1e-6),
    fmax=torch.fmax(torch.tensor([1.0, float("nan")]), torch.tensor([float("nan"), 2.0])), maximum=torch.maximum(x, y), diff=torch.diff(x, n=2),
    gcd=torch.gcd(torch.tensor([12, 18, -8]), torch.tensor([8, 27, 6])), lcm=torch.lcm(torch.tensor([4, 6]), torch.tensor([6, 10])),
    exp2=torch.exp2(y), expm1=torch.expm1(torch.tensor([1e-6])), log1p=torch.log1p(torch.tensor([1e-6])), erfinv=torch.erfinv(torch.tensor([0.0, 0.5, -0.9])),
)
