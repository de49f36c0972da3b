"""torch.cuda.amp's spellings: autocast (float16 by default, as torch's) and GradScaler
(meshflow.amp's)."""
import functools

from .. import _dtype
from .. import amp as _amp

__all__ = ["autocast", "GradScaler"]


class autocast(_amp.autocast):
    """torch.cuda.amp.autocast(enabled, dtype, cache_enabled): mf.autocast("cuda", ...)."""

    def __init__(self, enabled=True, dtype=_dtype.float16, cache_enabled=True):
        super().__init__("cuda", dtype=dtype, enabled=enabled, cache_enabled=cache_enabled)


GradScaler = functools.partial(_amp.GradScaler, "cuda")
