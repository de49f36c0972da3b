"""torch.utils.hooks: RemovableHandle, what every hook registration returns."""
from ..nn._hooks import RemovableHandle

__all__ = ["RemovableHandle"]
