"""meshflow.nn: modules and the functional API."""
from . import functional, init, utils
from .modules import (Module, Parameter, Linear, Embedding, LayerNorm, GELU, ReLU, Dropout, Sequential,
                      ModuleList, Identity, Flatten, MSELoss, L1Loss, SmoothL1Loss, BCELoss, BCEWithLogitsLoss,
                      NLLLoss, CrossEntropyLoss, SiLU, Tanh, Sigmoid)
from .modules import ModuleDict, ParameterList, ParameterDict
from .modules import (Softmax, LogSoftmax, Softmin, LeakyReLU, ELU, CosineSimilarity, KLDivLoss, HuberLoss)
from .graph import Graph
