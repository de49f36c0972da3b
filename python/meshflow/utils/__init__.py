"""meshflow.utils: torch.utils' data loading (meshflow.utils.data), activation
checkpointing (meshflow.utils.checkpoint) and hooks' handles (meshflow.utils.hooks)."""
from . import data  # noqa: F401
from . import checkpoint  # noqa: F401
from . import hooks  # noqa: F401
