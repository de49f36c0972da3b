import torch
import math


def encode(gt, anchors, weights=(10.0, 10.0, 5.0, 5.0)):
    wx, wy, ww, wh = weights
    aw = anchors[:, 2] - anchors[:, 0]
    ah = anchors[:, 3] - anchors[:, 1]
    ax = anchors[:, 0] + 0.5 * aw
    ay = anchors[:, 1] + 0.5 * ah
    gw = gt[:, 2] - gt[:, 0]
    gh = gt[:, 3] - gt[:, 1]
    gx = gt[:, 0] + 0.5 * gw
    gy = gt[:, 1] + 0.5 * gh
    return torch.stack([wx * (gx - ax) / aw, wy * (gy - ay) / ah, ww * torch.log(gw / aw), wh * torch.log(gh / ah)], dim=1)


def decode(deltas, anchors, weights=(10.0, 10.0, 5.0, 5.0), clip=math.log(1000.0 / 16)):
    wx, wy, ww, wh = weights
    aw = anchors[:, 2] - anchors[:, 0]
    ah = anchors[:, 3] - anchors[:, 1]
    ax = anchors[:, 0] + 0.5 * aw
    ay = anchors[:, 1] + 0.5 * ah
    dx, dy = deltas[:, 0::4] / wx, deltas[:, 1::4] / wy
    dw = torch.clamp(deltas[:, 2::4] / ww, max=clip)
    dh = torch.clamp(deltas[:, 3::4] / wh, max=clip)
    px = dx * aw[:, None] + ax[:, None]
    py = dy * ah[:, None] + ay[:, None]
    pw = torch.exp(dw) * aw[:, None]
    ph = torch.exp(dh) * ah[:, None]
    return torch.stack((px - 0.5 * pw, py - 0.5 * ph, px + 0.5 * pw, py + 0.5 * ph), dim=2).flatten(1)


anchors = torch.tensor([[0., 0., 10., 10.], [5., 5., 25., 15.], [10., 0., 30., 40.]])
gt = torch.tensor([[1., 2., 11., 9.], [4., 6., 28., 18.], [12., 3., 26., 35.]])
d = encode(gt, anchors)
back = decode(d, anchors)
huge = decode(torch.tensor([[0., 0., 100., 100.]]), anchors[:1])
clipped = back.clone()
clipped[:, 0::2] = clipped[:, 0::2].clamp(min=0, max=20)
clipped[:, 1::2] = clipped[:, 1::2].clamp_(0, 16)
report(d=d, back=back, roundtrip=torch.allclose(back, gt, atol=1e-4), huge=huge, clipped=clipped)
