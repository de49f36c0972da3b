"""meshflow.nn."""
from . import functional
