"""meshflow.utils: torch.utils' data loading (meshflow.utils.data) and activation
checkpointing (meshflow.utils.checkpoint)."""
from . import data  # noqa: F401
from . import checkpoint  # noqa: F401
