"""torch.quantization, the older path of torch.ao.quantization (run in float: see there)."""
from .ao.quantization import *  # noqa: F401,F403
from .ao.quantization import __all__  # noqa: F401
