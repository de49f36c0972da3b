"""meshflow.nn: modules and the functional API."""
from . import functional
from .modules import (Module, Parameter, Linear, Embedding, LayerNorm, GELU, ReLU, Dropout, Sequential,
                      ModuleList)
from .graph import Graph
