"""meshflow.nn.utils: torch.nn.utils' gradient clipping (the same function as
meshflow.optim.clip_grad_norm_)."""
from ..optim import clip_grad_norm_  # noqa: F401: part of this module's API

__all__ = ["clip_grad_norm_"]
