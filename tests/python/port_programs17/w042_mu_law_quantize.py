import math
import torch


def mu_law_encoding(x, quantization_channels):
    mu = quantization_channels - 1.0
    if not x.is_floating_point():
        x = x.to(torch.float)
    mu = torch.tensor(mu, dtype=x.dtype)
    x_mu = torch.sign(x) * torch.log1p(mu * torch.abs(x)) / torch.log1p(mu)
    x_mu = ((x_mu + 1) / 2 * mu + 0.5).to(torch.int64)
    return x_mu


def mu_law_decoding(x_mu, quantization_channels):
    mu = quantization_channels - 1.0
    if not x_mu.is_floating_point():
        x_mu = x_mu.to(torch.float)
    mu = torch.tensor(mu, dtype=x_mu.dtype)
    x = (x_mu / mu) * 2 - 1.0
    return torch.sign(x) * (torch.exp(torch.abs(x) * torch.log1p(mu)) - 1.0) / mu


wave = torch.tanh(data(20, seed=3))
enc = mu_law_encoding(wave, 256)
dec = mu_law_decoding(enc, 256)
oh = torch.nn.functional.one_hot(enc[:5], 256).sum(0).nonzero().flatten()
report(enc=enc, dec=dec, err=(dec - wave).abs().max(), oh=oh, d=enc.dtype)
