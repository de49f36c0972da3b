import math
import torch


def hz_to_mel(f, scale="htk"):
    if scale == "htk":
        return 2595.0 * math.log10(1.0 + f / 700.0)
    f_sp = 200.0 / 3
    mels = f / f_sp
    min_log_hz = 1000.0
    min_log_mel = min_log_hz / f_sp
    logstep = math.log(6.4) / 27.0
    if f >= min_log_hz:
        mels = min_log_mel + math.log(f / min_log_hz) / logstep
    return mels


def mel_to_hz(mels, scale="htk"):
    if scale == "htk":
        return 700.0 * (10.0 ** (mels / 2595.0) - 1.0)
    f_sp = 200.0 / 3
    freqs = f_sp * mels
    min_log_hz = 1000.0
    min_log_mel = min_log_hz / f_sp
    logstep = math.log(6.4) / 27.0
    log_t = mels >= min_log_mel
    freqs[log_t] = min_log_hz * torch.exp(logstep * (mels[log_t] - min_log_mel))
    return freqs


def fbanks(n_freqs, f_min, f_max, n_mels, sr, scale):
    all_freqs = torch.linspace(0, sr // 2, n_freqs)
    m_pts = torch.linspace(hz_to_mel(f_min, scale), hz_to_mel(f_max, scale), n_mels + 2)
    f_pts = mel_to_hz(m_pts, scale)
    f_diff = f_pts[1:] - f_pts[:-1]
    slopes = f_pts.unsqueeze(0) - all_freqs.unsqueeze(1)
    down = (-1.0 * slopes[:, :-2]) / f_diff[:-1]
    up = slopes[:, 2:] / f_diff[1:]
    fb = torch.max(torch.zeros(1), torch.min(down, up))
    enorm = 2.0 / (f_pts[2: n_mels + 2] - f_pts[:n_mels])
    return fb, fb * enorm.unsqueeze(0)


fb, fbn = fbanks(9, 0.0, 4000.0, 4, 8000, "slaney")
fbh, _ = fbanks(9, 20.0, 4000.0, 3, 8000, "htk")
spec = data(2, 9, 5, seed=1).abs()
mel = torch.matmul(spec.transpose(-1, -2), fbn).transpose(-1, -2)
report(fb=fb, fbn=fbn, fbh=fbh, mel=mel[0])
