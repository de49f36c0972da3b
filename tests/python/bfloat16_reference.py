"""The bfloat16 reference of the Python suites: float32 values rounded to bfloat16 in NumPy
(nearest, ties to even), independent of meshflow's own conversion."""
import numpy as np


def rounded(x):
    """x rounded to bfloat16, as float32."""
    bits = np.asarray(x, np.float32).view(np.uint32).astype(np.uint64)
    bits = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16 << 16
    return bits.astype(np.uint32).view(np.float32)
