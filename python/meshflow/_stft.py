"""torch.stft and torch.istft (and the Tensor methods), composed of the fft ops, padding,
Tensor.unfold and nn.functional.fold, so they are differentiable and run on every device the
parts run on.

stft(input [L] or [B, L], n_fft, hop_length=n_fft // 4, win_length=n_fft, window=ones,
center=True, pad_mode="reflect", normalized=False, onesided=True for real input,
return_complex) -> [(B,) n_fft // 2 + 1 (onesided) or n_fft, frames], complex. The window is
zero-padded on both sides to n_fft; center pads the signal by n_fft // 2 on each side first.
As torch 2.x, a real input needs return_complex given; return_complex=False gives
view_as_real's (..., 2) floats.

istft inverts it by the windowed overlap-add, divided by the overlap-added squared window
(torch's NOLA condition: that sum must not vanish where the output lies).
"""
from . import _C, _dtype
from ._tensor import Tensor

__all__ = ["stft", "istft"]


def _window(window, win_length, n_fft, like, name):
    """The window padded on both sides to n_fft (ones of win_length by default)."""
    from ._ops_creation import ones, zeros
    from ._ops_shape import cat
    if win_length is None:
        win_length = n_fft
    if not 0 < win_length <= n_fft:
        raise RuntimeError(f"{name}: expected 0 < win_length <= n_fft, but got win_length={win_length}")
    real = _dtype.real_of(like.dtype)
    if window is None:
        window = ones(win_length, dtype=real, device=like.device)
    elif window.ndim != 1 or window.shape[0] != win_length:
        raise RuntimeError(f"{name}: expected a 1D window tensor of size equal to win_length={win_length}, but got "
                           f"window with size {list(window.shape)}")
    left = (n_fft - win_length) // 2
    if left or win_length < n_fft:
        parts = [zeros(left, dtype=window.dtype, device=window.device), window,
                 zeros(n_fft - win_length - left, dtype=window.dtype, device=window.device)]
        window = cat(parts, 0)
    return window


def stft(input, n_fft, hop_length=None, win_length=None, window=None, center=True, pad_mode="reflect",
         normalized=False, onesided=None, return_complex=None):
    from . import fft as _fft
    from ._complex import view_as_real
    from .nn.functional import pad
    if return_complex is None and not (input.dtype.is_complex or (window is not None and window.dtype.is_complex)):
        raise RuntimeError("stft requires the return_complex parameter be given for real inputs, and will further "
                           "require that return_complex=True in a future PyTorch release.")
    if input.ndim not in (1, 2):
        raise RuntimeError(f"stft: expected a 1D or 2D tensor, but got a tensor of shape {list(input.shape)}")
    hop_length = n_fft // 4 if hop_length is None else hop_length
    if n_fft <= 0 or hop_length <= 0:
        raise RuntimeError(f"stft: expected n_fft > 0 and hop_length > 0, but got n_fft={n_fft} and "
                           f"hop_length={hop_length}")
    x = input if input.ndim == 2 else input.unsqueeze(0)
    if not (x.dtype.is_complex or x.dtype.name in ("float32", "float64")):
        x = x.to(_dtype.float32)
    if center:
        half = n_fft // 2
        x = pad(x.unsqueeze(1), (half, half), mode=pad_mode).squeeze(1)
    if x.shape[-1] < n_fft:
        raise RuntimeError(f"stft: expected 0 < n_fft <= {x.shape[-1]}, but got n_fft={n_fft}")
    w = _window(window, win_length, n_fft, x, "stft")
    frames = x.unfold(-1, n_fft, hop_length) * w  # [B, frames, n_fft]
    norm = "ortho" if normalized else "backward"
    complex_input = frames.dtype.is_complex
    if onesided is None:
        onesided = not complex_input
    if onesided and complex_input:
        raise RuntimeError("Cannot have onesided output if window or input is complex")
    spectrum = _fft.rfft(frames, dim=-1, norm=norm) if onesided else _fft.fft(frames, dim=-1, norm=norm)
    out = spectrum.transpose(-1, -2)
    if input.ndim == 1:  # torch's squeeze_ of its batch (SqueezeBackward4)
        out = _C.grad_fn_as(out.squeeze(0), "SqueezeBackward4", out)
    return out if return_complex or return_complex is None else view_as_real(out)


def istft(input, n_fft, hop_length=None, win_length=None, window=None, center=True, normalized=False,
          onesided=None, length=None, return_complex=False):
    from . import fft as _fft
    from .nn.functional import fold
    if not input.dtype.is_complex:
        raise RuntimeError("istft requires a complex-valued input tensor")
    if input.ndim not in (2, 3):
        raise RuntimeError(f"istft: expected a tensor of 2 or 3 dims, got shape {list(input.shape)}")
    hop_length = n_fft // 4 if hop_length is None else hop_length
    spectrum = input if input.ndim == 3 else input.unsqueeze(0)  # [B, freq, frames]
    if onesided is None:
        onesided = spectrum.shape[1] != n_fft
    if onesided and spectrum.shape[1] != n_fft // 2 + 1:
        raise RuntimeError(f"istft: expected the frequency dimension (3rd to the last) of the input tensor to match "
                           f"n_fft / 2 + 1 when onesided=True, but got {spectrum.shape[1]}")
    norm = "ortho" if normalized else "backward"
    columns = spectrum.transpose(1, 2)  # [B, frames, freq]
    if onesided:
        if return_complex:
            raise RuntimeError("cannot have onesided output if window or input is complex")
        frames = _fft.irfft(columns, n=n_fft, dim=-1, norm=norm)
    else:
        frames = _fft.ifft(columns, n=n_fft, dim=-1, norm=norm)
        if not return_complex:
            frames = frames.real
    w = _window(window, win_length, n_fft, frames, "istft")
    frames = frames * w
    count = frames.shape[1]
    total = n_fft + hop_length * (count - 1)

    def overlap_add(blocks):  # [B, frames, n_fft] -> [B, total]
        cols = blocks.transpose(1, 2)  # [B, n_fft, frames]: fold's columns
        return fold(cols, (1, total), (1, n_fft), stride=(1, hop_length)).reshape([blocks.shape[0], total])

    y = overlap_add(frames)
    envelope = overlap_add((w * w).expand([1, count, n_fft]))
    start = n_fft // 2 if center else 0
    end = total - (n_fft // 2 if center else 0) if length is None else min(start + length, total)
    y, envelope = y[:, start:end], envelope[:, start:end]
    if bool((envelope.abs() < 1e-11).any()):
        raise RuntimeError("istft: window overlap add min: 1e-11 or less; the window must satisfy the NOLA "
                           "condition (its overlap-added square must not vanish)")
    y = y / envelope
    if length is not None and y.shape[1] < length:
        from ._ops_creation import zeros
        from ._ops_shape import cat
        y = cat([y, zeros([y.shape[0], length - y.shape[1]], dtype=y.dtype, device=y.device)], 1)
    return y if input.ndim == 3 else y.squeeze(0)


Tensor.stft = stft
Tensor.istft = istft
