"""torch.ao: quantization's entry points as tutorials call them (ao/quantization)."""
from . import quantization  # noqa: F401
