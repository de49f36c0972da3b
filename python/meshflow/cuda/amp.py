"""torch.cuda.amp's spellings: autocast (bfloat16: meshflow has no float16 arithmetic, and
bfloat16 needs no loss scaling) and GradScaler (meshflow.amp's)."""
import functools

from .. import _dtype
from .. import amp as _amp

__all__ = ["autocast", "GradScaler"]


class autocast(_amp.autocast):
    """torch.cuda.amp.autocast(enabled, dtype, cache_enabled): mf.autocast("cuda", ...); its
    default dtype is bfloat16 here, where torch's is float16."""

    def __init__(self, enabled=True, dtype=_dtype.bfloat16, cache_enabled=True):
        super().__init__("cuda", dtype=dtype, enabled=enabled, cache_enabled=cache_enabled)


GradScaler = functools.partial(_amp.GradScaler, "cuda")
