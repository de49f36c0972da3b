"""Forward + backward time of each layer family (2-d and 3-d convolution, batch norm, pooling,
bilinear and nearest upsampling, ConvTranspose2d, Conv1d, MaxPool1d, LayerNorm, GELU,
LeakyReLU (in place too), max over a dim with indices (PointNet's global pooling), cross entropy
with label smoothing and with class weights and ignore_index, smooth L1 and Huber losses, a conv,
GroupNorm, ReLU, max pool chain, a conv, avg pool, conv, global avg pool chain and a graph
network's index_add_ among them), meshflow beside
PyTorch eager in the same run (when torch imports), at 1
and 2 threads, and training steps of whole models: two ResNet-style CNNs with batch norm
(basic and bottleneck blocks), two LSTM language models (PyTorch's word_language_model,
untied and tied) and a Hugging Face-style GPT-2. The 3-d cases take [N / 4, C, 8, H / 2, W / 2].

    PYTHONPATH=build/python /usr/bin/python3 bench/layers_bench.py          # meshflow alone
    PYTHONPATH=build/python /root/tv/bin/python bench/layers_bench.py       # and torch
    ... bench/layers_bench.py --threads 1 --repeat 20 --only conv,bn
    ... bench/layers_bench.py --only resnet_step,gpt2_step --compile         # and torch.compile

Each thread count runs in child processes started with OMP_NUM_THREADS set (both libraries
read it at start) and set_num_threads: by default each library in a process of its own, the
two processes taking turns for --rounds rounds, best of all (why: bench/thread_runs.py);
--together times both in one process, their calls taking turns. Per case: a few warmup
calls, then the best of --repeat timed calls (a call: forward, a sum as the loss, backward;
for the *_step models forward to the loss, backward and an optimizer step).
The recurrent layers take [steps, batch, features] = [35, N, 4 C] (the LSTM's hidden size
4 C), the language models sequences of 35 tokens. With --compile each *_step model also
runs under torch.compile (default mode; a first call compiles it, so compiling is not timed)
and the ratio is against the faster of torch's two. ratio = torch's time / meshflow's (> 1: meshflow faster). Timings on a shared
machine are noisy: compare A/B within one run, best of several.
"""
import argparse
import math

import numpy as np

from thread_runs import child_threads, compiled_or_none, import_torch, run_parent, time_sides

torch = import_torch()

import meshflow as mf  # noqa: E402


def cases(shape):
    """name -> (build(lib) -> (module, input shape)) for each layer family: lib is meshflow or
    torch, whose nn namespaces match. A *_step model's input shape of two dims is one of token
    ids."""
    n, c, h, w = shape
    sequence = (35, n, 4 * c)
    volume = (max(n // 4, 1), c, 8, max(h // 2, 2), max(w // 2, 2))  # N / 4, C, 8, H / 2, W / 2
    signal = (n, c, h * w // 2)  # the 1-d cases: N, C, H W / 2
    tokens = (n // 2, h * w // 16, 4 * c)  # layer norm and GELU: N / 2, H W / 16 tokens of 4 C
    points = (n, 4 * c, h * w)  # PointNet's global max pooling: N clouds of H W points, 4 C features
    logits = (n * h * w // 16, 1000)  # the losses over classes: N H W / 16 rows of 1000 classes
    return {
        "conv3x3": lambda lib: (lib.nn.Conv2d(c, c, 3, padding=1, bias=False), shape),
        "conv3x3_s2": lambda lib: (lib.nn.Conv2d(c, 2 * c, 3, stride=2, padding=1, bias=False), shape),
        "conv1x1": lambda lib: (lib.nn.Conv2d(c, 2 * c, 1, bias=False), shape),
        "conv_dw": lambda lib: (lib.nn.Conv2d(c, c, 3, padding=1, groups=c, bias=False), shape),
        "conv_dw7": lambda lib: (lib.nn.Conv2d(c, c, 7, padding=3, groups=c), shape),
        "layernorm_nhwc": lambda lib: (channels_norm(lib.nn, c), shape),
        "bn": lambda lib: (lib.nn.BatchNorm2d(c), shape),
        "relu": lambda lib: (lib.nn.ReLU(), shape),
        "relu6": lambda lib: (lib.nn.ReLU6(), shape),
        "maxpool": lambda lib: (lib.nn.MaxPool2d(2), shape),
        "avgpool": lambda lib: (lib.nn.AvgPool2d(2), shape),
        "upsample": lambda lib: (lib.nn.Upsample(scale_factor=2, mode="bilinear"), shape),
        "upsample_nearest": lambda lib: (lib.nn.Upsample(scale_factor=2), shape),
        "conv_transpose": lambda lib: (lib.nn.ConvTranspose2d(c, c, 4, stride=2, padding=1), shape),
        "conv1d": lambda lib: (lib.nn.Conv1d(c, 2 * c, 3, padding=1), signal),
        "conv1d_wide": lambda lib: (lib.nn.Conv1d(1, 2 * c, 80, stride=16), (n, 1, 16 * h * w // 2)),
        "bn1d": lambda lib: (lib.nn.BatchNorm1d(c), signal),
        "maxpool1d": lambda lib: (lib.nn.MaxPool1d(4), signal),
        "layernorm": lambda lib: (lib.nn.LayerNorm(4 * c), tokens),
        "gelu": lambda lib: (lib.nn.GELU(), tokens),
        "leaky_relu": lambda lib: (lib.nn.LeakyReLU(0.2), shape),
        "leaky_relu_": lambda lib: (after_scale(lib, lib.nn.LeakyReLU(0.2, inplace=True)), shape),
        "max_dim": lambda lib: (max_over(lib, 2), points),
        "cross_entropy_ls": lambda lib: (loss_against(lib, lib.nn.CrossEntropyLoss(label_smoothing=0.1),
                                                      np.arange(logits[0]) * 7 % logits[1]), logits),
        "cross_entropy_w": lambda lib: (loss_against(lib, lib.nn.CrossEntropyLoss(
            lib.tensor(np.linspace(0.5, 2, logits[1], dtype=np.float32)), ignore_index=3, reduction="sum"),
            np.arange(logits[0]) * 7 % logits[1]), logits),
        "smooth_l1": lambda lib: (loss_against(lib, lib.nn.SmoothL1Loss(beta=0.5), fixed_normal(shape, 1)), shape),
        "huber": lambda lib: (loss_against(lib, lib.nn.HuberLoss(delta=0.5), fixed_normal(shape, 1)), shape),
        "conv_gn_pool": lambda lib: (lib.nn.Sequential(lib.nn.Conv2d(c, 2 * c, 3, padding=1, bias=False),
                                                      lib.nn.GroupNorm(8, 2 * c), lib.nn.ReLU(), lib.nn.MaxPool2d(2),
                                                      lib.nn.Conv2d(2 * c, c, 3, padding=1)), shape),
        "conv_avgpool": lambda lib: (lib.nn.Sequential(lib.nn.Conv2d(c, 2 * c, 3, padding=1, bias=False),
                                                      lib.nn.AvgPool2d(2), lib.nn.Conv2d(2 * c, c, 3, padding=1,
                                                                                         bias=False),
                                                      lib.nn.AdaptiveAvgPool2d(1)), shape),
        "index_add": lambda lib: (message_passing(lib, h * w * 2), (h * w * 2, 1, 4 * c)),
        "groupnorm": lambda lib: (lib.nn.GroupNorm(8, c), shape),
        "instancenorm": lambda lib: (lib.nn.InstanceNorm2d(c, affine=True), shape),
        "embedding": lambda lib: (embedded(lib, VOCAB, tokens), tokens),
        "pixel_shuffle": lambda lib: (lib.nn.PixelShuffle(2), shape),
        "unfold": lambda lib: (applied(lib, lambda x: lib.nn.functional.unfold(x, 3, padding=1)), shape),
        "fold": lambda lib: (applied(lib, lambda x: lib.nn.functional.fold(x, (h, w), 3, padding=1)),
                             (max(n // 4, 1), 9 * c, h * w)),
        "pad_reflect": lambda lib: (applied(lib, lambda x: lib.nn.functional.pad(x, (2, 2, 2, 2), mode="reflect")), shape),
        "pad_replicate": lambda lib: (applied(lib, lambda x: lib.nn.functional.pad(x, (2, 2, 2, 2), mode="replicate")),
                                      shape),
        "pad_circular": lambda lib: (applied(lib, lambda x: lib.nn.functional.pad(x, (2, 2, 2, 2), mode="circular")),
                                     shape),
        "gelu_tanh": lambda lib: (lib.nn.GELU(approximate="tanh"), tokens),
        "silu": lambda lib: (lib.nn.SiLU(), shape),
        "softplus": lambda lib: (lib.nn.Softplus(), shape),
        "softmax": lambda lib: (lib.nn.Softmax(-1), logits),
        "log_softmax_nll": lambda lib: (loss_against(lib, lambda x, t: lib.nn.functional.nll_loss(
            lib.nn.functional.log_softmax(x, 1), t), np.arange(logits[0]) * 7 % logits[1]), logits),
        "cumsum": lambda lib: (applied(lib, lambda x: x.cumsum(-1)), logits),
        "gather": lambda lib: (gathered(lib, logits), logits),
        "masked_fill": lambda lib: (masked(lib, shape), shape),
        "conv3d": lambda lib: (lib.nn.Conv3d(c, c, 3, padding=1, bias=False), volume),
        "bn3d": lambda lib: (lib.nn.BatchNorm3d(c), volume),
        "maxpool3d": lambda lib: (lib.nn.MaxPool3d(2), volume),
        "avgpool3d": lambda lib: (lib.nn.AvgPool3d(2), volume),
        "resnet_step": lambda lib: (small_resnet(lib.nn), shape),
        "lstm": lambda lib: (output_of(lib.nn, lib.nn.LSTM(4 * c, 4 * c)), sequence),
        "lstm_2l_bi": lambda lib: (output_of(lib.nn, lib.nn.LSTM(4 * c, 4 * c, 2, bidirectional=True)), sequence),
        "gru": lambda lib: (output_of(lib.nn, lib.nn.GRU(4 * c, 4 * c)), sequence),
        "lstm_lm_step": lambda lib: (lstm_language_model(lib.nn), (35, n)),
        "resnet_bneck_step": lambda lib: (bottleneck_resnet(lib.nn), (n // 2, 3, h, w)),
        "lstm_lm_tied_step": lambda lib: (lstm_language_model(lib.nn, width=400, vocab=2 * VOCAB, dropout=0.5, tied=True),
                                          (35, 20)),
        "gpt2_step": lambda lib: (Gpt2LMHead(lib, Gpt2Config()), (n // 4, 64)),
    }


VOCAB = 1000


def fixed_normal(shape, seed):
    """A standard normal float32 array of `shape`, the same on every call with `seed`."""
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float32)


def after_scale(lib, layer):
    """`layer` (an in-place one) on 2 x: as a GAN's activation follows a convolution, it
    writes a temporary, not the leaf input."""

    class Scaled(lib.nn.Module):
        def __init__(self):
            super().__init__()
            self.layer = layer

        def forward(self, x):
            return self.layer(x * 2.0)

    return Scaled()


def max_over(lib, dim):
    """The values of lib.max(x, dim, keepdim=True), PointNet's global feature."""

    class MaxOver(lib.nn.Module):
        def forward(self, x):
            return lib.max(x, dim, keepdim=True)[0]

    return MaxOver()


def loss_against(lib, loss, target):
    """loss(x, target) for a fixed target (numpy; integers: class indices) against the input x:
    a loss layer's forward and backward to its input."""

    class Loss(lib.nn.Module):
        def __init__(self):
            super().__init__()
            self.loss = loss
            self.target = lib.tensor(target)

        def forward(self, x):
            return self.loss(x, self.target)

    return Loss()


def applied(lib, f):
    """A module whose forward is f(x): a functional op as a layer."""

    class Applied(lib.nn.Module):
        def forward(self, x):
            return f(x)

    return Applied()


def embedded(lib, vocab, shape):
    """x plus an Embedding(vocab, shape[-1]) of fixed token ids of shape[:-1]: the embedding's
    backward (its weight's gradient, rows summed by token) beside x's."""

    class Embedded(lib.nn.Module):
        def __init__(self):
            super().__init__()
            self.embed = lib.nn.Embedding(vocab, shape[-1])
            self.register_buffer("ids", lib.tensor(np.random.default_rng(0).integers(0, vocab, shape[:-1])))

        def forward(self, x):
            return self.embed(self.ids) + x

    return Embedded()


def gathered(lib, shape, picks=100):
    """x.gather(1, ids) of `picks` fixed random columns per row of x [rows, columns]."""

    class Gathered(lib.nn.Module):
        def __init__(self):
            super().__init__()
            ids = np.random.default_rng(0).integers(0, shape[1], (shape[0], picks))
            self.register_buffer("ids", lib.tensor(ids))

        def forward(self, x):
            return x.gather(1, self.ids)

    return Gathered()


def masked(lib, shape):
    """x.masked_fill(mask, 0) for a fixed random mask of half the elements (dropout's
    pattern written as a mask)."""

    class Masked(lib.nn.Module):
        def __init__(self):
            super().__init__()
            self.register_buffer("mask", lib.tensor(np.random.default_rng(0).random(shape) < 0.5))

        def forward(self, x):
            return x.masked_fill(self.mask, 0.0)

    return Masked()


def output_of(nn, rnn):
    """A recurrent layer's output alone (it returns the output and the final state)."""

    class Output(nn.Module):
        def __init__(self):
            super().__init__()
            self.rnn = rnn

        def forward(self, x):
            return self.rnn(x)[0]

    return Output()


def lstm_language_model(nn, width=200, vocab=VOCAB, dropout=0.2, tied=False, rnn="LSTM"):
    """PyTorch's word_language_model example: an embedding, a two-layer LSTM (or `rnn`: its
    GRU) with dropout around it, a linear decoder over the vocabulary (sharing the embedding's weight when
    `tied`), and the cross-entropy of its logits."""

    class LanguageModel(nn.Module):
        def __init__(self):
            super().__init__()
            self.drop = nn.Dropout(dropout)
            self.embed = nn.Embedding(vocab, width)
            self.rnn = getattr(nn, rnn)(width, width, num_layers=2, dropout=dropout)
            self.decoder = nn.Linear(width, vocab)
            if tied:
                self.decoder.weight = self.embed.weight

        def forward(self, tokens, target):
            output = self.drop(self.rnn(self.drop(self.embed(tokens)))[0])
            return nn.functional.cross_entropy(self.decoder(output).reshape(-1, vocab), target)

    model = LanguageModel()
    model.classes = vocab
    return model


def message_passing(lib, nodes, degree=8):
    """A graph network's message passing over `nodes` nodes and degree x nodes random edges:
    each edge's source row picked by index_select, summed at its target by index_add_."""

    class MessagePassing(lib.nn.Module):
        def __init__(self):
            super().__init__()
            edges = np.random.default_rng(0).integers(0, nodes, (2, degree * nodes))
            self.register_buffer("source", lib.tensor(edges[0]))
            self.register_buffer("target", lib.tensor(edges[1]))

        def forward(self, x):
            return lib.zeros_like(x).index_add_(0, self.target, x.index_select(0, self.source))

    return MessagePassing()


def channels_norm(nn, channels):
    """LayerNorm over the channels of an NCHW image as ConvNeXt writes it: permuted to
    channels-last, normalized, permuted back."""

    class ChannelsNorm(nn.LayerNorm):
        def forward(self, x):
            return super().forward(x.permute(0, 2, 3, 1)).permute(0, 3, 1, 2)

    return ChannelsNorm(channels)


def classifier(nn, net, classes=10):
    """A module whose forward(x, target) is the cross-entropy of net's logits."""

    class WithLoss(nn.Module):
        def __init__(self):
            super().__init__()
            self.net = net

        def forward(self, x, target):
            return nn.functional.cross_entropy(self.net(x), target)

    model = WithLoss()
    model.classes = classes
    return model


def small_resnet(nn, widths=(16, 32, 64), blocks=(1, 1, 1), in_channels=16):
    """A ResNet-style CNN: a 3x3 stem, stages of residual blocks (two 3x3 convs with batch
    norm; the first block of each stage after the first halves the size, with a strided 1x1
    conv and batch norm as its shortcut), global average pooling and a linear head. The
    defaults: one block in each of three stages on 16-channel inputs; widths (64, 128, 256,
    512), blocks (2, 2, 2, 2) and in_channels 3 make a CIFAR ResNet-18."""

    class Block(nn.Module):
        def __init__(self, cin, cout, stride):
            super().__init__()
            self.conv1 = nn.Conv2d(cin, cout, 3, stride=stride, padding=1, bias=False)
            self.bn1 = nn.BatchNorm2d(cout)
            self.conv2 = nn.Conv2d(cout, cout, 3, padding=1, bias=False)
            self.bn2 = nn.BatchNorm2d(cout)
            self.relu = nn.ReLU()
            self.skip = None if stride == 1 and cin == cout else nn.Sequential(
                nn.Conv2d(cin, cout, 1, stride=stride, bias=False), nn.BatchNorm2d(cout))

        def forward(self, x):
            y = self.relu(self.bn1(self.conv1(x)))
            y = self.bn2(self.conv2(y))
            return self.relu(y + (x if self.skip is None else self.skip(x)))

    layers = [nn.Conv2d(in_channels, widths[0], 3, padding=1, bias=False), nn.BatchNorm2d(widths[0]), nn.ReLU()]
    cin = widths[0]
    for stage, (width, count) in enumerate(zip(widths, blocks)):
        for i in range(count):
            layers.append(Block(cin, width, 2 if stage > 0 and i == 0 else 1))
            cin = width
    layers += [nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(cin, 10)]
    return classifier(nn, nn.Sequential(*layers))


def bottleneck_resnet(nn, blocks=(2, 2, 2), width=16):
    """torchvision's ResNet with Bottleneck blocks (1x1, 3x3, 1x1 convs, expansion 4, ReLU in
    place, a strided 1x1 conv with batch norm as the shortcut where shapes change), on 3-channel
    images: a 3x3 stem, three stages, adaptive average pooling and a linear head."""

    class Bottleneck(nn.Module):
        def __init__(self, cin, planes, stride):
            super().__init__()
            cout = planes * 4
            self.conv1 = nn.Conv2d(cin, planes, 1, bias=False)
            self.bn1 = nn.BatchNorm2d(planes)
            self.conv2 = nn.Conv2d(planes, planes, 3, stride=stride, padding=1, bias=False)
            self.bn2 = nn.BatchNorm2d(planes)
            self.conv3 = nn.Conv2d(planes, cout, 1, bias=False)
            self.bn3 = nn.BatchNorm2d(cout)
            self.relu = nn.ReLU(inplace=True)
            self.downsample = None if stride == 1 and cin == cout else nn.Sequential(
                nn.Conv2d(cin, cout, 1, stride=stride, bias=False), nn.BatchNorm2d(cout))

        def forward(self, x):
            identity = x if self.downsample is None else self.downsample(x)
            out = self.relu(self.bn1(self.conv1(x)))
            out = self.relu(self.bn2(self.conv2(out)))
            out = self.bn3(self.conv3(out))
            out += identity
            return self.relu(out)

    layers = [nn.Conv2d(3, width, 3, padding=1, bias=False), nn.BatchNorm2d(width), nn.ReLU(inplace=True)]
    cin = width
    for stage, count in enumerate(blocks):
        planes = width * 2 ** stage
        for i in range(count):
            layers.append(Bottleneck(cin, planes, 2 if stage > 0 and i == 0 else 1))
            cin = planes * 4
    layers += [nn.AdaptiveAvgPool2d((1, 1)), nn.Flatten(), nn.Linear(cin, 10)]
    return classifier(nn, nn.Sequential(*layers))


class Gpt2Config:
    """A small GPT-2 (Hugging Face's defaults for dropout and epsilon)."""
    vocab_size = VOCAB
    n_positions = 128
    n_embd = 128
    n_layer = 4
    n_head = 4
    pdrop = 0.1
    layer_norm_epsilon = 1e-5


def Gpt2LMHead(lib, config):  # noqa: N802 (a class factory over lib)
    """Hugging Face's GPT2LMHeadModel written as transformers writes it in eager mode: Conv1D
    projections (addmm on a view), heads by view and permute, a causal mask as a bool buffer
    applied by where with finfo's min, the tanh GELU written out, a lm_head tied to wte, and
    the cross-entropy of shifted labels."""
    nn = lib.nn

    class Conv1D(nn.Module):
        def __init__(self, nf, nx):
            super().__init__()
            self.nf = nf
            self.weight = nn.Parameter(lib.empty(nx, nf))
            self.bias = nn.Parameter(lib.zeros(nf))
            nn.init.normal_(self.weight, std=0.02)

        def forward(self, x):
            size_out = x.size()[:-1] + (self.nf,)
            x = lib.addmm(self.bias, x.view(-1, x.size(-1)), self.weight)
            return x.view(size_out)

    class NewGELUActivation(nn.Module):
        def forward(self, x):
            return 0.5 * x * (1.0 + lib.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * lib.pow(x, 3.0))))

    class GPT2Attention(nn.Module):
        def __init__(self):
            super().__init__()
            n = config.n_positions
            self.register_buffer("bias", lib.tril(lib.ones((n, n), dtype=lib.bool)).view(1, 1, n, n),
                                 persistent=False)
            self.embed_dim = config.n_embd
            self.num_heads = config.n_head
            self.head_dim = self.embed_dim // self.num_heads
            self.split_size = self.embed_dim
            self.c_attn = Conv1D(3 * self.embed_dim, self.embed_dim)
            self.c_proj = Conv1D(self.embed_dim, self.embed_dim)
            self.attn_dropout = nn.Dropout(config.pdrop)
            self.resid_dropout = nn.Dropout(config.pdrop)

        def _attn(self, query, key, value):
            attn_weights = lib.matmul(query, key.transpose(-1, -2))
            attn_weights = attn_weights / lib.full([], value.size(-1) ** 0.5, dtype=attn_weights.dtype,
                                                   device=attn_weights.device)
            query_length, key_length = query.size(-2), key.size(-2)
            causal_mask = self.bias[:, :, key_length - query_length:key_length, :key_length]
            mask_value = lib.full([], lib.finfo(attn_weights.dtype).min, dtype=attn_weights.dtype,
                                  device=attn_weights.device)
            attn_weights = lib.where(causal_mask, attn_weights.to(attn_weights.dtype), mask_value)
            attn_weights = nn.functional.softmax(attn_weights, dim=-1)
            attn_weights = self.attn_dropout(attn_weights.type(value.dtype))
            return lib.matmul(attn_weights, value)

        def _split_heads(self, tensor):
            return tensor.view(tensor.size()[:-1] + (self.num_heads, self.head_dim)).permute(0, 2, 1, 3)

        def _merge_heads(self, tensor):
            tensor = tensor.permute(0, 2, 1, 3).contiguous()
            return tensor.view(tensor.size()[:-2] + (self.num_heads * self.head_dim,))

        def forward(self, hidden_states):
            query, key, value = self.c_attn(hidden_states).split(self.split_size, dim=2)
            attn_output = self._attn(self._split_heads(query), self._split_heads(key), self._split_heads(value))
            return self.resid_dropout(self.c_proj(self._merge_heads(attn_output)))

    class GPT2MLP(nn.Module):
        def __init__(self):
            super().__init__()
            self.c_fc = Conv1D(4 * config.n_embd, config.n_embd)
            self.c_proj = Conv1D(config.n_embd, 4 * config.n_embd)
            self.act = NewGELUActivation()
            self.dropout = nn.Dropout(config.pdrop)

        def forward(self, hidden_states):
            return self.dropout(self.c_proj(self.act(self.c_fc(hidden_states))))

    class GPT2Block(nn.Module):
        def __init__(self):
            super().__init__()
            self.ln_1 = nn.LayerNorm(config.n_embd, eps=config.layer_norm_epsilon)
            self.attn = GPT2Attention()
            self.ln_2 = nn.LayerNorm(config.n_embd, eps=config.layer_norm_epsilon)
            self.mlp = GPT2MLP()

        def forward(self, hidden_states):
            hidden_states = self.attn(self.ln_1(hidden_states)) + hidden_states
            return hidden_states + self.mlp(self.ln_2(hidden_states))

    class GPT2LMHeadModel(nn.Module):
        def __init__(self):
            super().__init__()
            self.wte = nn.Embedding(config.vocab_size, config.n_embd)
            self.wpe = nn.Embedding(config.n_positions, config.n_embd)
            self.drop = nn.Dropout(config.pdrop)
            self.h = nn.ModuleList([GPT2Block() for _ in range(config.n_layer)])
            self.ln_f = nn.LayerNorm(config.n_embd, eps=config.layer_norm_epsilon)
            self.lm_head = nn.Linear(config.n_embd, config.vocab_size, bias=False)
            self.lm_head.weight = self.wte.weight

        def forward(self, input_ids, labels):
            position_ids = lib.arange(0, input_ids.size(-1), dtype=lib.long, device=input_ids.device).unsqueeze(0)
            hidden_states = self.drop(self.wte(input_ids) + self.wpe(position_ids))
            for block in self.h:
                hidden_states = block(hidden_states)
            lm_logits = self.lm_head(self.ln_f(hidden_states))
            shift_logits = lm_logits[..., :-1, :].contiguous()
            shift_labels = labels[..., 1:].contiguous()
            return nn.CrossEntropyLoss()(shift_logits.view(-1, shift_logits.size(-1)), shift_labels.view(-1))

    model = GPT2LMHeadModel()
    model.optimizer = "adamw"
    return model


def step_of(lib, name, module, x_np, compiled=False):
    """One call of the case: forward, a sum as the loss and backward; for the *_step models
    forward to the loss, backward and an optimizer step (SGD with momentum, or AdamW where the
    model asks). `compiled` runs the module under torch.compile (torch only)."""
    is_torch = lib is torch
    training = name.endswith("_step")
    x = lib.tensor(x_np, requires_grad=not training and x_np.dtype != np.int64)
    run = torch.compile(module) if compiled else module
    if training:
        if name.startswith("gpt2"):
            target = x
        else:
            count = x_np.size if x_np.ndim == 2 else x_np.shape[0]
            target = lib.tensor(np.arange(count) % module.classes)
        if getattr(module, "optimizer", "sgd") == "adamw":
            opt = lib.optim.AdamW(module.parameters(), lr=1e-4, weight_decay=0.01)
        else:
            opt = lib.optim.SGD(module.parameters(), lr=0.01, momentum=0.9)

        def step():
            opt.zero_grad()
            run(x, target).backward()
            opt.step()
            if not is_torch:
                mf.synchronize()
        return step

    def step():
        x.grad = None
        run(x).sum().backward()
        if not is_torch:
            mf.synchronize()
    return step


def child(args):
    threads = child_threads(args, mf, torch)
    rng = np.random.default_rng(0)
    wanted = args.only.split(",") if args.only else None
    for name, build in cases(args.shape).items():
        if wanted and name not in wanted:
            continue
        mf.manual_seed(0)
        module, shape = build(mf)
        tokens = len(shape) == 2 and name.endswith("_step")
        x = rng.integers(0, VOCAB, shape) if tokens else rng.standard_normal(shape).astype(np.float32)

        def make_step(label):
            if label == "meshflow":
                return step_of(mf, name, module, x)
            torch.manual_seed(0)
            if label == "compile":
                return compiled_or_none(name, lambda: step_of(torch, name, build(torch)[0], x, compiled=True))
            return step_of(torch, name, build(torch)[0], x)

        time_sides(name, threads, make_step, torch is not None, args.compile and name.endswith("_step"), args.repeat)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--repeat", type=int, default=10)
    parser.add_argument("--shape", type=int, nargs=4, default=[32, 16, 32, 32], help="N C H W")
    parser.add_argument("--only", default="", help="comma-separated case names")
    parser.add_argument("--compile", action="store_true",
                        help="also time each *_step model under torch.compile; ratio against the best of both")
    parser.add_argument("--together", action="store_true", help="time both libraries in one process")
    parser.add_argument("--rounds", type=int, default=2, help="turns of each library's process, apart")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args)
        return
    print(f"layers_bench: shape {args.shape}, best of {args.repeat}, torch "
          f"{torch.__version__ if torch is not None else 'not installed'}, "
          f"{'in one process' if args.together else 'each library in its own process'}", flush=True)
    child_args = ["--repeat", str(args.repeat), "--shape", *map(str, args.shape), "--only", args.only,
                  *(["--compile"] if args.compile else [])]
    run_parent(__file__, args, child_args, torch is not None)


if __name__ == "__main__":
    main()
