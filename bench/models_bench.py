"""Training steps of whole models as users write them, meshflow beside PyTorch eager and
torch.compile in the same run (when torch imports), at 2 and 1 threads: forward to the loss,
backward and an optimizer step, both libraries starting from the same weights (torch's
model loads meshflow's state_dict) on the same inputs.

    PYTHONPATH=build/python /usr/bin/python3 bench/models_bench.py          # meshflow alone
    PYTHONPATH=build/python /root/tv/bin/python bench/models_bench.py       # and torch eager
    ... bench/models_bench.py --compile --threads 2 --only resnet,vit      # and torch.compile

The models: an MLP, the ResNet-style CNN with batch norm (and ResNet-18's layout at half its
widths on 32x32 and 64x64 images, half and a quarter of the batch), the Hugging Face-style
GPT-2 and PyTorch's LSTM language model of bench/layers_bench.py, the same language model on a GRU,
a small ViT (patches by a strided conv, nn.TransformerEncoder with pre-norm and GELU), a
Conv1d text classifier over embeddings, and a UNet-like segmenter (max pooling down, one
ConvTranspose2d and one bilinear interpolate up, skip connections by cat, a per-pixel
cross-entropy), and models none of the others resemble: a MobileNetV2 (depthwise and
pointwise convs, ReLU6), an MLP-Mixer, a text classifier on nn.TransformerEncoder with a
padding mask, a bidirectional GRU text classifier, torchaudio's M5 on raw waveforms (Conv1d,
BatchNorm1d, MaxPool1d) and a convolutional VAE (ConvTranspose2d, a nearest interpolate, binary
cross-entropy). Each thread count runs in a child process (bench/thread_runs.py); per model
the best of --repeat steps after a few warmup ones (with --compile the warmup compiles, so
compiling is not timed). The first step's loss of each is printed beside its time, a check
that both compute the same thing (dropout draws differ). ratio = the best of torch's times /
meshflow's (> 1: meshflow faster). The machine is shared: compare only within one run.

By default each library is timed in a process of its own, the two processes taking turns
for --rounds rounds, best of all (why: bench/thread_runs.py). --together times both in one
process, their steps taking turns.
"""
import argparse

import numpy as np

from thread_runs import SIDE, child_report, compiled_or_none, import_torch, run_apart, run_children, timed_together

torch = import_torch()

import meshflow as mf  # noqa: E402
from layers_bench import Gpt2Config, Gpt2LMHead, VOCAB, lstm_language_model, small_resnet  # noqa: E402


class Model:
    """A model to train: build(lib) -> a module whose forward(*inputs) is the loss; the inputs
    as NumPy arrays; the optimizer ('sgd' with momentum or 'adamw')."""

    def __init__(self, build, inputs, optimizer="sgd"):
        self.build, self.inputs, self.optimizer = build, inputs, optimizer


def with_loss(nn, net, loss=None):
    """A module whose forward(x, target) is loss(net(x), target), cross-entropy by default."""

    class WithLoss(nn.Module):
        def __init__(self):
            super().__init__()
            self.net = net

        def forward(self, x, target):
            return (loss or nn.functional.cross_entropy)(self.net(x), target)

    return WithLoss()


def mlp(nn):
    return with_loss(nn, nn.Sequential(nn.Flatten(), nn.Linear(784, 512), nn.ReLU(), nn.Linear(512, 512), nn.ReLU(),
                                       nn.Linear(512, 10)))


def vit(lib, image=32, patch=4, dim=128, depth=4, heads=4, classes=10):
    """A small Vision Transformer: patches embedded by a strided conv, a class token and
    learned positions, pre-norm encoder layers with GELU, the class token's head."""
    nn = lib.nn

    class ViT(nn.Module):
        def __init__(self):
            super().__init__()
            self.patches = nn.Conv2d(3, dim, patch, stride=patch)
            self.cls = nn.Parameter(lib.zeros(1, 1, dim))
            self.pos = nn.Parameter(lib.randn(1, (image // patch) ** 2 + 1, dim) * 0.02)
            layer = nn.TransformerEncoderLayer(dim, heads, 2 * dim, dropout=0.1, activation="gelu", batch_first=True,
                                               norm_first=True)
            self.encoder = nn.TransformerEncoder(layer, depth, enable_nested_tensor=False)  # torch warns otherwise
            self.norm = nn.LayerNorm(dim)
            self.head = nn.Linear(dim, classes)

        def forward(self, x):
            x = self.patches(x).flatten(2).transpose(1, 2)
            x = lib.cat([self.cls.expand(x.shape[0], -1, -1), x], dim=1) + self.pos
            return self.head(self.norm(self.encoder(x))[:, 0])

    return with_loss(nn, ViT())


def conv1d_text(nn, vocab=VOCAB, width=128, classes=4):
    """A text classifier: embeddings, two Conv1d + ReLU layers over time, max over time, a
    linear head."""

    class TextCNN(nn.Module):
        def __init__(self):
            super().__init__()
            self.embed = nn.Embedding(vocab, width)
            self.convs = nn.Sequential(nn.Conv1d(width, width, 5, padding=2), nn.ReLU(),
                                       nn.Conv1d(width, width, 3, padding=1), nn.ReLU())
            self.drop = nn.Dropout(0.2)
            self.head = nn.Linear(width, classes)

        def forward(self, tokens):
            x = self.convs(self.embed(tokens).transpose(1, 2))
            return self.head(self.drop(x.amax(dim=2)))

    return with_loss(nn, TextCNN())


def unet(lib, width=16, classes=4):
    """A two-level UNet: double 3x3 conv blocks with batch norm, max pooling down, a
    ConvTranspose2d up from the middle and a bilinear interpolate up to the top, each
    concatenated with its skip, a 1x1 conv to per-pixel classes."""
    nn = lib.nn

    def conv_bn_relu(cin, cout):
        return [nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True)]

    def block(cin, cout):
        return nn.Sequential(*conv_bn_relu(cin, cout), *conv_bn_relu(cout, cout))

    class UNet(nn.Module):
        def __init__(self):
            super().__init__()
            self.down1, self.down2 = block(3, width), block(width, 2 * width)
            self.middle = block(2 * width, 4 * width)
            self.up2 = nn.ConvTranspose2d(4 * width, 2 * width, 2, stride=2)
            self.dec2 = block(4 * width, 2 * width)
            self.dec1 = block(3 * width, width)
            self.out = nn.Conv2d(width, classes, 1)
            self.pool = nn.MaxPool2d(2)

        def forward(self, x):
            s1 = self.down1(x)
            s2 = self.down2(self.pool(s1))
            y = self.dec2(lib.cat([self.up2(self.middle(self.pool(s2))), s2], 1))
            y = nn.functional.interpolate(y, scale_factor=2, mode="bilinear", align_corners=False)
            return self.out(self.dec1(lib.cat([y, s1], 1)))

    return with_loss(nn, UNet())


def mobilenet_v2(lib, stages=((1, 16, 1, 1), (6, 24, 2, 2), (6, 32, 2, 2), (6, 64, 2, 2)), last=256, classes=10):
    """torchvision's MobileNetV2 narrowed for 32x32 images: a 3x3 stem, inverted residual
    blocks (stages of (expansion, width, count, stride): a 1x1 expanding conv, a 3x3 depthwise
    conv, a 1x1 projecting conv, each with batch norm, ReLU6 after the first two, the input
    added where the shapes match), a 1x1 conv to `last` channels, global average pooling,
    dropout and a linear head."""
    nn = lib.nn

    def conv_bn(cin, cout, kernel=1, stride=1, groups=1, act=True):
        layers = [nn.Conv2d(cin, cout, kernel, stride, kernel // 2, groups=groups, bias=False), nn.BatchNorm2d(cout)]
        return layers + [nn.ReLU6(inplace=True)] if act else layers

    class InvertedResidual(nn.Module):
        def __init__(self, cin, cout, stride, expansion):
            super().__init__()
            hidden = cin * expansion
            layers = conv_bn(cin, hidden) if expansion != 1 else []
            self.conv = nn.Sequential(*layers, *conv_bn(hidden, hidden, 3, stride, hidden), *conv_bn(hidden, cout, act=False))
            self.residual = stride == 1 and cin == cout

        def forward(self, x):
            return x + self.conv(x) if self.residual else self.conv(x)

    layers, cin = conv_bn(3, 32, 3), 32
    for expansion, width, count, stride in stages:
        for i in range(count):
            layers.append(InvertedResidual(cin, width, stride if i == 0 else 1, expansion))
            cin = width
    layers += [*conv_bn(cin, last), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Dropout(0.2), nn.Linear(last, classes)]
    return with_loss(nn, nn.Sequential(*layers))


def mlp_mixer(lib, image=32, patch=4, dim=128, depth=4, classes=10):
    """An MLP-Mixer: patches embedded by a strided conv, blocks of a token-mixing MLP (across
    patches, by transposes) and a channel-mixing MLP, each pre-norm with GELU and a residual,
    a final LayerNorm, the mean over patches and a linear head."""
    nn = lib.nn
    tokens = (image // patch) ** 2

    def mlp(width, hidden):
        return nn.Sequential(nn.Linear(width, hidden), nn.GELU(), nn.Linear(hidden, width))

    class MixerBlock(nn.Module):
        def __init__(self):
            super().__init__()
            self.norm1, self.tokens = nn.LayerNorm(dim), mlp(tokens, tokens // 2)
            self.norm2, self.channels = nn.LayerNorm(dim), mlp(dim, 4 * dim)

        def forward(self, x):
            x = x + self.tokens(self.norm1(x).transpose(1, 2)).transpose(1, 2)
            return x + self.channels(self.norm2(x))

    class Mixer(nn.Module):
        def __init__(self):
            super().__init__()
            self.patches = nn.Conv2d(3, dim, patch, stride=patch)
            self.blocks = nn.Sequential(*[MixerBlock() for _ in range(depth)])
            self.norm = nn.LayerNorm(dim)
            self.head = nn.Linear(dim, classes)

        def forward(self, x):
            x = self.blocks(self.patches(x).flatten(2).transpose(1, 2))
            return self.head(self.norm(x).mean(dim=1))

    return with_loss(nn, Mixer())


def transformer_text(lib, vocab=VOCAB, length=64, dim=128, depth=2, heads=4, classes=4):
    """A text classifier on nn.TransformerEncoder (post-norm, ReLU, as its defaults) over
    token and learned position embeddings, padded positions masked by src_key_padding_mask,
    the mean over the unpadded positions and a linear head."""
    nn = lib.nn

    class TransformerText(nn.Module):
        def __init__(self):
            super().__init__()
            self.embed = nn.Embedding(vocab, dim)
            self.pos = nn.Parameter(lib.randn(1, length, dim) * 0.02)
            layer = nn.TransformerEncoderLayer(dim, heads, 4 * dim, dropout=0.1, batch_first=True)
            self.encoder = nn.TransformerEncoder(layer, depth, enable_nested_tensor=False)
            self.head = nn.Linear(dim, classes)

        def forward(self, tokens, padding, target):
            x = self.encoder(self.embed(tokens) + self.pos, src_key_padding_mask=padding)
            keep = (~padding).unsqueeze(-1).to(x.dtype)
            pooled = (x * keep).sum(dim=1) / keep.sum(dim=1)
            return nn.functional.cross_entropy(self.head(pooled), target)

    return TransformerText()


def gru_text(nn, vocab=VOCAB, width=128, classes=4):
    """A text classifier: embeddings, a bidirectional GRU over them (batch first), its two
    final hidden states concatenated, dropout and a linear head."""

    class GruText(nn.Module):
        def __init__(self):
            super().__init__()
            self.embed = nn.Embedding(vocab, width)
            self.gru = nn.GRU(width, width, batch_first=True, bidirectional=True)
            self.drop = nn.Dropout(0.2)
            self.head = nn.Linear(2 * width, classes)

        def forward(self, tokens):
            _, h = self.gru(self.embed(tokens))
            return self.head(self.drop(nn.functional.relu(h.transpose(0, 1).flatten(1))))

    return with_loss(nn, GruText())


def audio_m5(nn, width=32, classes=10):
    """torchaudio's tutorial M5 on raw 8 kHz waveforms: a wide strided Conv1d, then 3-tap
    Conv1d layers, each with BatchNorm1d, ReLU and MaxPool1d(4), global average pooling and a
    linear head."""

    def block(cin, cout, kernel, stride=1):
        return [nn.Conv1d(cin, cout, kernel, stride), nn.BatchNorm1d(cout), nn.ReLU(), nn.MaxPool1d(4)]

    return with_loss(nn, nn.Sequential(*block(1, width, 80, 16), *block(width, width, 3), *block(width, 2 * width, 3),
                                       *block(2 * width, 2 * width, 3), nn.AdaptiveAvgPool1d(1), nn.Flatten(),
                                       nn.Linear(2 * width, classes)))


def vae(lib, latent=32):
    """A convolutional VAE on 32x32 images in [0, 1]: two strided convs and a linear layer to
    the mean and log-variance, a sample by the reparameterization trick, a linear layer, a
    ConvTranspose2d and a nearest interpolate up, a 3x3 conv and a sigmoid; the loss binary
    cross-entropy plus the KL divergence, per image."""
    nn = lib.nn
    F = nn.functional

    class Vae(nn.Module):
        def __init__(self):
            super().__init__()
            self.encoder = nn.Sequential(nn.Conv2d(3, 32, 4, 2, 1), nn.ReLU(), nn.Conv2d(32, 64, 4, 2, 1), nn.ReLU(),
                                         nn.Flatten(), nn.Linear(64 * 8 * 8, 2 * latent))
            self.expand = nn.Linear(latent, 64 * 8 * 8)
            self.up = nn.ConvTranspose2d(64, 32, 4, 2, 1)
            self.out = nn.Conv2d(32, 3, 3, padding=1)

        def forward(self, x):
            mean, log_var = self.encoder(x).chunk(2, dim=1)
            z = mean + lib.randn_like(mean) * lib.exp(0.5 * log_var)
            y = F.relu(self.up(F.relu(self.expand(z)).view(-1, 64, 8, 8)))
            y = lib.sigmoid(self.out(F.interpolate(y, scale_factor=2, mode="nearest")))
            kl = -0.5 * lib.sum(1 + log_var - mean.pow(2) - log_var.exp())
            return (F.binary_cross_entropy(y, x, reduction="sum") + kl) / x.shape[0]

    return Vae()


# A CIFAR ResNet-18's layout (two basic blocks in each of four stages) at half its widths,
# which keeps a step within a second on two cores: widths, blocks, input channels.
RESNET18 = ((32, 64, 128, 256), (2, 2, 2, 2), 3)


def models(batch):
    """name -> Model, sized by the batch."""
    rng = np.random.default_rng(0)
    images = lambda n, c, s: rng.standard_normal((n, c, s, s)).astype(np.float32)  # noqa: E731
    labels = lambda shape, classes: rng.integers(0, classes, shape)  # noqa: E731
    tokens = labels((35, batch // 2), VOCAB)
    gpt = labels((batch // 4, 64), VOCAB)
    text = labels((batch, 64), VOCAB)
    # transformer_text's lengths (positions past one are padding), from a generator of their own so
    # that the models before them keep their inputs
    lengths = np.random.default_rng(1).integers(16, 65, batch)
    return {
        "mlp": Model(lambda lib: mlp(lib.nn), (images(2 * batch, 1, 28), labels(2 * batch, 10))),
        "resnet": Model(lambda lib: small_resnet(lib.nn), (images(batch, 16, 32), labels(batch, 10))),
        "resnet18": Model(lambda lib: small_resnet(lib.nn, *RESNET18),
                          (images(batch // 2, 3, 32), labels(batch // 2, 10))),
        "resnet18_64": Model(lambda lib: small_resnet(lib.nn, *RESNET18),
                             (images(batch // 4, 3, 64), labels(batch // 4, 10))),
        "gpt2": Model(lambda lib: Gpt2LMHead(lib, Gpt2Config()), (gpt, gpt), "adamw"),
        "lstm_lm": Model(lambda lib: lstm_language_model(lib.nn), (tokens, labels(tokens.size, VOCAB))),
        "gru_lm": Model(lambda lib: lstm_language_model(lib.nn, rnn="GRU"), (tokens, labels(tokens.size, VOCAB))),
        "vit": Model(lambda lib: vit(lib), (images(batch // 2, 3, 32), labels(batch // 2, 10)), "adamw"),
        "conv1d_text": Model(lambda lib: conv1d_text(lib.nn), (text, labels(batch, 4))),
        "unet": Model(lambda lib: unet(lib), (images(batch // 4, 3, 32), labels((batch // 4, 32, 32), 4))),
        "mobilenet_v2": Model(lambda lib: mobilenet_v2(lib), (images(batch // 2, 3, 32), labels(batch // 2, 10))),
        "mlp_mixer": Model(lambda lib: mlp_mixer(lib), (images(batch // 2, 3, 32), labels(batch // 2, 10)), "adamw"),
        "transformer_text": Model(lambda lib: transformer_text(lib), (text, np.arange(64) >= lengths[:, None],
                                                                     labels(batch, 4)), "adamw"),
        "gru_text": Model(lambda lib: gru_text(lib.nn), (text, labels(batch, 4)), "adamw"),
        "audio_m5": Model(lambda lib: audio_m5(lib.nn), (rng.standard_normal((batch, 1, 8000)).astype(np.float32),
                                                         labels(batch, 10))),
        "vae": Model(lambda lib: vae(lib), (rng.random((batch, 3, 32, 32)).astype(np.float32),), "adamw"),
    }


def training_step(lib, module, model, compiled=False):
    """One step's closure (forward to the loss, backward, the optimizer's step; meshflow's
    waits for its queued work) and a list that gets the first step's loss; `compiled` runs
    the module under torch.compile."""
    inputs = [lib.tensor(a) for a in model.inputs]
    if model.optimizer == "adamw":
        opt = lib.optim.AdamW(module.parameters(), lr=1e-4, weight_decay=0.01)
    else:
        opt = lib.optim.SGD(module.parameters(), lr=0.01, momentum=0.9)
    run = torch.compile(module) if compiled else module
    losses = []

    def step():
        opt.zero_grad()
        loss = run(*inputs)
        loss.backward()
        opt.step()
        if lib is mf:
            mf.synchronize()
        if not losses:
            losses.append(float(loss.item()))
    return step, losses


def torch_twin(model, ours):
    """The model built in torch holding meshflow module `ours`'s weights and buffers."""
    twin = model.build(torch)
    state = ours.state_dict()
    twin.load_state_dict({name: torch.from_numpy(np.array(t.detach().numpy())) for name, t in state.items()})
    return twin


def child(args):
    threads = args.threads[0]
    # torch's process of a run apart builds meshflow's weights on one thread (no OpenMP team).
    mf.set_num_threads(1 if SIDE == "torch" else threads)
    if torch is not None:
        torch.set_num_threads(threads)
    wanted = args.only.split(",") if args.only else None
    for name, model in models(args.batch).items():
        if wanted and name not in wanted:
            continue
        mf.manual_seed(0)
        module = model.build(mf)
        sides = [] if SIDE == "torch" else [("meshflow", training_step(mf, module, model))]
        if torch is not None:  # the twins take meshflow's weights before its first step
            torch.manual_seed(0)
            sides.append(("torch", training_step(torch, torch_twin(model, module), model)))
            if args.compile:
                step, losses = training_step(torch, torch_twin(model, module), model, compiled=True)
                sides.append(("compile", (step, losses) if compiled_or_none(name, lambda: step) else None))
        timed = [(label, side[0]) for label, side in sides if side]
        times = dict(zip([label for label, _ in timed], timed_together([step for _, step in timed], args.repeat)))
        results = {label: side and (times[label], side[1][0] if side[1] else None) for label, side in sides}
        child_report(name, threads, results)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--threads", type=int, nargs="+", default=[2, 1])
    parser.add_argument("--repeat", type=int, default=10)
    parser.add_argument("--batch", type=int, default=32)
    parser.add_argument("--only", default="", help="comma-separated model names")
    parser.add_argument("--compile", action="store_true", help="also time torch.compile; ratio against torch's best")
    parser.add_argument("--together", action="store_true", help="time both libraries in one process")
    parser.add_argument("--rounds", type=int, default=2, help="turns of each library's process, apart")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args)
        return
    print(f"models_bench: batch {args.batch}, best of {args.repeat}, torch "
          f"{torch.__version__ if torch is not None else 'not installed'}, "
          f"{'in one process' if args.together else 'each library in its own process'}", flush=True)
    child_args = ["--repeat", str(args.repeat), "--batch", str(args.batch), "--only", args.only,
                  *(["--compile"] if args.compile else [])]
    if args.together:
        run_children(__file__, args.threads, child_args)
    else:
        run_apart(__file__, args.threads, child_args, args.rounds, torch is not None)


if __name__ == "__main__":
    main()
