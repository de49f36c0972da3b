"""torch.cpu.amp's spellings: autocast in bfloat16 and GradScaler (meshflow.amp's)."""
import functools

from .. import _dtype
from .. import amp as _amp

__all__ = ["autocast", "GradScaler"]


class autocast(_amp.autocast):
    """torch.cpu.amp.autocast(enabled, dtype, cache_enabled): mf.autocast("cpu", ...)."""

    def __init__(self, enabled=True, dtype=_dtype.bfloat16, cache_enabled=True):
        super().__init__("cpu", dtype=dtype, enabled=enabled, cache_enabled=cache_enabled)


GradScaler = functools.partial(_amp.GradScaler, "cpu")
