"""meshflow.nn: modules and the functional API."""
from . import functional, init, utils
from .modules import (Module, Parameter, Linear, Embedding, LayerNorm, GELU, Sequential,
                      ModuleList, Identity, Flatten, MSELoss, L1Loss, SmoothL1Loss, BCELoss, BCEWithLogitsLoss,
                      NLLLoss, CrossEntropyLoss, Tanh, Sigmoid)
from .modules import ModuleDict, ParameterList, ParameterDict, Buffer, LazyLinear
from .modules import (Softmax, LogSoftmax, Softmin, LeakyReLU, ELU, CosineSimilarity, KLDivLoss, HuberLoss)
from .graph import Graph
from ._modules_conv import (Conv1d, Conv2d, Conv3d, MaxPool1d, MaxPool2d, MaxPool3d, AvgPool1d,  # noqa: E402
                            AvgPool2d, AvgPool3d, AdaptiveAvgPool2d, AdaptiveAvgPool3d, AdaptiveMaxPool2d,
                            AdaptiveMaxPool3d, BatchNorm1d, BatchNorm2d, BatchNorm3d, SyncBatchNorm, GroupNorm,
                            RMSNorm, Upsample)
# Issue 26, continued: activations with inplace=, Dropout(inplace=), attention, recurrent layers.
from ._modules_extra import (ReLU, ReLU6, SiLU, Mish, Hardswish, Hardsigmoid, Hardtanh, Threshold,  # noqa: E402
                             Softplus, LogSigmoid, Softsign, Tanhshrink, GLU, PReLU, Unflatten, Dropout,
                             Dropout1d, Dropout2d, Dropout3d)
from .attention import MultiheadAttention  # noqa: E402
from .rnn import RNN, LSTM, GRU, RNNCell, LSTMCell, GRUCell  # noqa: E402
from .rnn import _RNNBase as RNNBase, _CellBase as RNNCellBase  # noqa: E402: torch's base classes (isinstance checks)
from .transformer import (Transformer, TransformerEncoder, TransformerDecoder,  # noqa: E402
                          TransformerEncoderLayer, TransformerDecoderLayer)
from ._modules_more import (SELU, CELU, Softmax2d, InstanceNorm1d, InstanceNorm2d, InstanceNorm3d,  # noqa: E402
                            LocalResponseNorm)
from ._conv_transpose import ConvTranspose1d, ConvTranspose2d, ConvTranspose3d  # noqa: E402
from ._modules_surface import (Bilinear, PixelShuffle, PixelUnshuffle, ChannelShuffle, Unfold, Fold,  # noqa: E402
                               PairwiseDistance, UpsamplingNearest2d, UpsamplingBilinear2d, MarginRankingLoss,
                               HingeEmbeddingLoss, SoftMarginLoss, MultiLabelSoftMarginLoss, MultiLabelMarginLoss,
                               MultiMarginLoss, CosineEmbeddingLoss, PoissonNLLLoss, GaussianNLLLoss, TripletMarginLoss,
                               TripletMarginWithDistanceLoss, CTCLoss, Hardshrink, Softshrink, ZeroPad1d, ZeroPad2d,
                               ZeroPad3d, ConstantPad1d, ConstantPad2d, ConstantPad3d, ReflectionPad1d,
                               ReflectionPad2d, ReflectionPad3d, ReplicationPad1d, ReplicationPad2d,
                               ReplicationPad3d, AdaptiveAvgPool1d, AdaptiveMaxPool1d)
from ._modules_surface2 import (EmbeddingBag, RReLU, AlphaDropout, FeatureAlphaDropout, LPPool1d,  # noqa: E402
                                LPPool2d, MaxUnpool1d, MaxUnpool2d, CircularPad1d, CircularPad2d, CircularPad3d,
                                FractionalMaxPool2d, AdaptiveLogSoftmaxWithLoss)
from . import parallel  # noqa: E402
from . import _modules_utils  # noqa: E402
import sys as _sys  # noqa: E402
modules.utils = _modules_utils  # torch.nn.modules.utils, importable by that path too
_sys.modules[__name__ + ".modules.utils"] = _modules_utils
from .parallel import DataParallel  # noqa: E402
from ._lazy import *  # noqa: E402,F401,F403: LazyConv2d LazyBatchNorm2d ...
from ._hooks import (register_module_forward_pre_hook, register_module_forward_hook,  # noqa: E402,F401
                     register_module_full_backward_pre_hook, register_module_full_backward_hook)
