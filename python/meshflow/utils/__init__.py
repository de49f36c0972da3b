"""meshflow.utils: torch.utils' data loading (meshflow.utils.data)."""
from . import data  # noqa: F401
