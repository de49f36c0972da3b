"""meshflow.nn modules, third round (issue 37): EmbeddingBag, RReLU, AlphaDropout,
FeatureAlphaDropout, LPPool1d / LPPool2d, MaxUnpool1d / MaxUnpool2d, FractionalMaxPool2d and CircularPad1d to 3d,
each the function of _functional_surface2 it names, with torch's arguments; AdaptiveLogSoftmaxWithLoss,
composed of Linear layers and log_softmax."""
import collections

from . import functional as F
from ._modules_extra import Dropout
from ._modules_surface import _pad_class
from .modules import Linear, Module, ModuleList, Parameter, Sequential, _init_devices, _lookup_options_repr
from .._ops_creation import randn
from .._ops_shape import cat


class EmbeddingBag(Module):
    """Sums, means or maxima of bags of rows of weight [num_embeddings, embedding_dim]
    (initialized N(0, 1) as torch's; the row padding_idx starts at zero): F.embedding_bag."""

    def __init__(self, num_embeddings, embedding_dim, max_norm=None, norm_type=2.0, scale_grad_by_freq=False,
                 mode="mean", sparse=False, _weight=None, include_last_offset=False, padding_idx=None, device=None,
                 dtype=None):
        super().__init__()
        if scale_grad_by_freq or sparse:
            raise NotImplementedError("EmbeddingBag: scale_grad_by_freq and sparse gradients are not supported")
        self.num_embeddings, self.embedding_dim = num_embeddings, embedding_dim
        self.max_norm, self.norm_type, self.mode = max_norm, norm_type, mode
        self.scale_grad_by_freq, self.sparse, self.include_last_offset = scale_grad_by_freq, sparse, include_last_offset
        if padding_idx is not None:
            if not -num_embeddings <= padding_idx < num_embeddings:
                raise ValueError("padding_idx must be within num_embeddings")
            padding_idx %= num_embeddings
        self.padding_idx = padding_idx
        if _weight is None:
            target, drawn_on = _init_devices(device)
            weight = randn(num_embeddings, embedding_dim, device=drawn_on).to(device=target, dtype=dtype)
            if padding_idx is not None:
                weight[padding_idx] = 0.0
        else:
            if tuple(_weight.shape) != (num_embeddings, embedding_dim):
                raise ValueError("Shape of weight does not match num_embeddings and embedding_dim")
            weight = _weight.detach()
        self.weight = Parameter(weight)

    def forward(self, input, offsets=None, per_sample_weights=None):
        return F.embedding_bag(input, self.weight, offsets, self.max_norm, self.norm_type, mode=self.mode,
                               per_sample_weights=per_sample_weights, include_last_offset=self.include_last_offset,
                               padding_idx=self.padding_idx)

    @classmethod
    def from_pretrained(cls, embeddings, freeze=True, max_norm=None, norm_type=2.0, scale_grad_by_freq=False,
                        mode="mean", sparse=False, include_last_offset=False, padding_idx=None):
        """An EmbeddingBag whose weight is `embeddings`, frozen unless freeze=False."""
        rows, cols = embeddings.shape
        bag = cls(rows, cols, max_norm, norm_type, scale_grad_by_freq, mode, sparse, embeddings,
                  include_last_offset, padding_idx)
        bag.weight.requires_grad = not freeze
        return bag

    def extra_repr(self):
        return (f"{self.num_embeddings}, {self.embedding_dim}{_lookup_options_repr(self)}, mode={self.mode!r}"
                + (f", padding_idx={self.padding_idx}" if self.padding_idx is not None else ""))


class RReLU(Module):
    """F.rrelu: random negative slopes in [lower, upper] in training, their mean otherwise."""

    def __init__(self, lower=1.0 / 8, upper=1.0 / 3, inplace=False):
        super().__init__()
        self.lower, self.upper, self.inplace = lower, upper, inplace

    def forward(self, input):
        return F.rrelu(input, self.lower, self.upper, self.training, self.inplace)

    def extra_repr(self):
        return f"lower={self.lower}, upper={self.upper}"


class AlphaDropout(Dropout):
    """F.alpha_dropout in training mode: dropout that keeps selu's mean and variance."""

    def forward(self, input):
        return F.alpha_dropout(input, self.p, self.training, self.inplace)


class FeatureAlphaDropout(Dropout):
    """F.feature_alpha_dropout in training mode: alpha dropout of whole channels."""

    def forward(self, input):
        return F.feature_alpha_dropout(input, self.p, self.training, self.inplace)


class _LPPool(Module):
    def __init__(self, norm_type, kernel_size, stride=None, ceil_mode=False):
        super().__init__()
        self.norm_type, self.kernel_size, self.stride, self.ceil_mode = norm_type, kernel_size, stride, ceil_mode

    def forward(self, input):
        return self._function(input, self.norm_type, self.kernel_size, self.stride, self.ceil_mode)

    def extra_repr(self):
        return f"norm_type={self.norm_type}, kernel_size={self.kernel_size}, stride={self.stride}, " \
               f"ceil_mode={self.ceil_mode}"


class LPPool1d(_LPPool):
    """F.lp_pool1d: the norm_type-norm of each window."""
    _function = staticmethod(F.lp_pool1d)


class LPPool2d(_LPPool):
    """F.lp_pool2d: the norm_type-norm of each 2-d window."""
    _function = staticmethod(F.lp_pool2d)


class _MaxUnpool(Module):
    _dims = None

    def __init__(self, kernel_size, stride=None, padding=0):
        super().__init__()
        as_tuple = lambda v: tuple(v) if isinstance(v, (tuple, list)) else (v,) * self._dims  # noqa: E731: torch's
        self.kernel_size, self.stride = as_tuple(kernel_size), as_tuple(stride or kernel_size)
        self.padding = as_tuple(padding)

    def forward(self, input, indices, output_size=None):
        return self._function(input, indices, self.kernel_size, self.stride, self.padding, output_size)

    def extra_repr(self):
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class MaxUnpool1d(_MaxUnpool):
    """F.max_unpool1d: max_pool1d's values put back at their indices, zeros elsewhere."""
    _function = staticmethod(F.max_unpool1d)
    _dims = 1


class MaxUnpool2d(_MaxUnpool):
    """F.max_unpool2d: max_pool2d's values put back at their indices, zeros elsewhere."""
    _function = staticmethod(F.max_unpool2d)
    _dims = 2


class FractionalMaxPool2d(Module):
    """F.fractional_max_pool2d (its windows from meshflow's generator unless _random_samples
    gives torch's samples)."""

    def __init__(self, kernel_size, output_size=None, output_ratio=None, return_indices=False, _random_samples=None):
        super().__init__()
        if output_size is None and output_ratio is None:
            raise ValueError("FractionalMaxPool2d requires specifying either an output size, or a pooling ratio")
        if output_size is not None and output_ratio is not None:
            raise ValueError("only one of output_size and output_ratio may be specified")
        ratios = (output_ratio,) * 2 if isinstance(output_ratio, (int, float)) else output_ratio
        if ratios is not None and not all(0 < r < 1 for r in ratios):
            raise ValueError(f"output_ratio must be between 0 and 1 (got {output_ratio})")
        self.kernel_size, self.output_size, self.output_ratio = kernel_size, output_size, output_ratio
        self.return_indices = return_indices
        self._random_samples = _random_samples  # read on the host (torch keeps them as a buffer)

    def forward(self, input):
        return F.fractional_max_pool2d(input, self.kernel_size, self.output_size, self.output_ratio,
                                       self.return_indices, _random_samples=self._random_samples)


CircularPad1d, CircularPad2d, CircularPad3d = (_pad_class(f"CircularPad{d}d", d, "circular") for d in (1, 2, 3))


_ASMoutput = collections.namedtuple("_ASMoutput", ["output", "loss"])


class AdaptiveLogSoftmaxWithLoss(Module):
    """torch's adaptive softmax (Grave et al.): the `cutoffs[0]` frequent classes and one entry
    per cluster in the head; cluster i's classes in tail[i], a projection to in_features //
    div_value ** (i + 1) and on to the cluster's classes. forward(input, target) gives each
    row's log-probability of its target and their mean negated (`.output`, `.loss`)."""

    def __init__(self, in_features, n_classes, cutoffs, div_value=4.0, head_bias=False, device=None, dtype=None):
        super().__init__()
        cutoffs = list(cutoffs)
        if len(cutoffs) == 0:
            raise ValueError("cutoffs should be a sequence of length larger than 0")
        if (cutoffs != sorted(cutoffs) or min(cutoffs) <= 0 or max(cutoffs) > n_classes - 1
                or len(set(cutoffs)) != len(cutoffs) or any(int(c) != c for c in cutoffs)):
            raise ValueError("cutoffs should be a sequence of unique, positive integers sorted in an increasing order, "
                             "where each value is between 1 and n_classes-1")
        made = {"device": device, "dtype": dtype}
        self.in_features, self.n_classes, self.div_value, self.head_bias = in_features, n_classes, div_value, head_bias
        self.cutoffs = cutoffs + [n_classes]
        self.shortlist_size = self.cutoffs[0]
        self.n_clusters = len(self.cutoffs) - 1
        self.head_size = self.shortlist_size + self.n_clusters
        self.head = Linear(in_features, self.head_size, bias=head_bias, **made)
        self.tail = ModuleList(
            Sequential(Linear(in_features, int(in_features // div_value ** (i + 1)), bias=False, **made),
                       Linear(int(in_features // div_value ** (i + 1)), self.cutoffs[i + 1] - self.cutoffs[i], bias=False,
                              **made))
            for i in range(self.n_clusters))

    def reset_parameters(self):
        """The head's and the tails' weights drawn again, as Linear's."""
        self.head.reset_parameters()
        for i2h, h2o in self.tail:
            i2h.reset_parameters()
            h2o.reset_parameters()

    def forward(self, input, target):
        if target.dim() == 1:
            if input.size(0) != target.size(0):
                raise RuntimeError("Input and target should have the same size in the batch dimension.")
            if input.dim() != 2:
                raise RuntimeError(f"1D target tensor expects 2D input tensors, but found inputs with size {input.size()}")
        elif target.dim() == 0:
            if input.dim() != 1:
                raise RuntimeError(f"0D target tensor expects 1D input tensors, but found inputs with size {input.size()}")
        else:
            raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
        batched = target.dim() > 0
        rows_in, targets = (input, target) if batched else (input.unsqueeze(0), target.unsqueeze(0))
        if targets.numel() and (targets.min().item() < 0 or targets.max().item() >= self.n_classes):
            raise RuntimeError(f"Target values should be in [0, {self.n_classes - 1}], but values in range "
                               f"[{targets.min().item()}, {targets.max().item()}] were found. ")
        output = rows_in.new_zeros(targets.size(0))
        head_entry = targets.clone()  # a shortlist row reads its class in the head, a cluster's row its cluster
        for i, (low, high) in enumerate(zip(self.cutoffs, self.cutoffs[1:])):
            rows = ((targets >= low) & (targets < high)).nonzero().flatten()
            if rows.numel() == 0:
                continue
            cluster = F.log_softmax(self.tail[i](rows_in.index_select(0, rows)), dim=1)
            output = output.index_copy(0, rows, cluster.gather(1, (targets[rows] - low).unsqueeze(1)).squeeze(1))
            head_entry = head_entry.index_fill(0, rows, self.shortlist_size + i)
        head = F.log_softmax(self.head(rows_in), dim=1)
        output = output + head.gather(1, head_entry.unsqueeze(1)).squeeze(1)
        return _ASMoutput(output if batched else output.squeeze(0), (-output).mean())

    def _full_log_prob(self, input, head_output):
        head = F.log_softmax(head_output, dim=1)
        parts = [head[:, :self.shortlist_size]]
        for i in range(self.n_clusters):
            parts.append(F.log_softmax(self.tail[i](input), dim=1) + head[:, self.shortlist_size + i].unsqueeze(1))
        return cat(parts, dim=1)

    def log_prob(self, input):
        """Every class's log-probability, [batch, n_classes]."""
        return self._full_log_prob(input, self.head(input))

    def predict(self, input):
        """The most probable class of each row; the full distribution is computed only for rows
        whose head's best entry is a cluster, as torch's."""
        head_output = self.head(input)
        output = head_output.argmax(dim=1)
        outside = output >= self.shortlist_size
        if not outside.any():
            return output
        if outside.all():
            return self._full_log_prob(input, head_output).argmax(dim=1)
        output[outside] = self._full_log_prob(input[outside], head_output[outside]).argmax(dim=1)
        return output
