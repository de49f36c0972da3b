"""meshflow.utils: torch.utils' data loading (meshflow.utils.data), activation
checkpointing (meshflow.utils.checkpoint), hooks' handles (meshflow.utils.hooks) and the
benchmark Timer (meshflow.utils.benchmark)."""
from . import data  # noqa: F401
from . import checkpoint  # noqa: F401
from . import hooks  # noqa: F401
from . import benchmark  # noqa: F401
