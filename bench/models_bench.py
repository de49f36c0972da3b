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
cross-entropy), and the layouts users commonly train written as they write them: a timm-style ViT
on F.scaled_dot_product_attention, a BERT masked-LM, a ConvNeXt (7x7 depthwise convs,
LayerNorm by permutes), an EfficientNet (SiLU, squeeze-excitation), a DenseNet (cat-heavy), a
GRU encoder-decoder with attention looping in Python, a DLRM (EmbeddingBag sums, pairwise dots,
BCEWithLogits), a 3-d CNN, a LLaMA-style decoder (RMSNorm, rotary embeddings, SwiGLU, causal
attention), a DCGAN (ConvTranspose2d generator, LeakyReLU discriminator, two Adams) and a
PointNet (1x1 Conv1d over points, max over them, bmm by T-Nets); and layers those leave out: a
WaveNet (dilated causal Conv1d sliced, gated tanh * sigmoid, residual and skip sums), a GCN on a
random graph (index_select, index_add_, scatter_add), a Swin Transformer (windows by view and
permute, torch.roll shifts, a relative position bias table indexed by a buffer), a T5-like
translator on nn.Transformer (padding and causal masks, ignore_index), a char-RNN on nn.RNN(tanh),
an autoencoder upsampling by nn.Upsample (nearest, bilinear) and PixelShuffle, a Conformer (GLU,
depthwise Conv1d, SiLU, nn.MultiheadAttention), a keyword-spotting CNN (InstanceNorm2d,
GroupNorm) and a Siamese net (cosine_similarity, triplet_margin_loss). Each thread count runs in a child process (bench/thread_runs.py); per model
the best of --repeat steps after a few warmup ones (with --compile the warmup compiles, so
compiling is not timed). The first step's loss of each is printed beside its time, a check
that both compute the same thing (dropout draws differ). ratio = the best of torch's times /
meshflow's (> 1: meshflow faster). The machine is shared: compare only within one run.

By default each library is timed in a process of its own, the two processes taking turns
for --rounds rounds, best of all (why: bench/thread_runs.py). --together times both in one
process, their steps taking turns.
"""
import argparse
import os

import numpy as np

from thread_runs import SIDE, child_threads, child_report, compiled_or_none, import_torch, run_parent, timed_together

torch = import_torch()

import meshflow as mf  # noqa: E402
from layers_bench import Gpt2Config, Gpt2LMHead, VOCAB, lstm_language_model, small_resnet  # noqa: E402


class Model:
    """A model to train: build(lib) -> a module whose forward(*inputs) is the loss (or which
    makes its own step: make_step, below); the inputs as NumPy arrays; the optimizer ('sgd'
    with momentum, 'sgd_wd' with momentum and weight decay 5e-4, 'adam', 'adamw', 'adagrad'
    or 'adadelta');
    `channels_last`: the module's weights and its 4-d float inputs in that memory format."""

    def __init__(self, build, inputs, optimizer="sgd", channels_last=False):
        self.build, self.inputs, self.optimizer, self.channels_last = build, inputs, optimizer, channels_last


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


def vit(lib, image=32, patch=4, dim=128, depth=4, heads=4, classes=10, blocks=None):
    """A small Vision Transformer: patches embedded by a strided conv, a class token and
    learned positions, pre-norm encoder layers with GELU (nn.TransformerEncoder, or the
    module blocks() makes), the class token's head."""
    nn = lib.nn

    def encoder():
        layer = nn.TransformerEncoderLayer(dim, heads, 2 * dim, dropout=0.1, activation="gelu", batch_first=True,
                                           norm_first=True)
        return nn.TransformerEncoder(layer, depth, enable_nested_tensor=False)  # torch warns otherwise

    class ViT(nn.Module):
        def __init__(self):
            super().__init__()
            self.patches = nn.Conv2d(3, dim, patch, stride=patch)
            self.cls = nn.Parameter(lib.zeros(1, 1, dim))
            self.pos = nn.Parameter(lib.randn(1, (image // patch) ** 2 + 1, dim) * 0.02)
            self.encoder = (blocks or encoder)()
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
    return inverted_residual_net(lib, stages, last, classes, lib.nn.ReLU6)


def inverted_residual_net(lib, stages, last, classes, activation, squeeze=False):
    """MobileNetV2's layout (above) with `activation`, and with squeeze_excitation after the
    depthwise conv where `squeeze` (EfficientNet's MBConv)."""
    nn = lib.nn

    def conv_bn(cin, cout, kernel=1, stride=1, groups=1, act=True):
        layers = [nn.Conv2d(cin, cout, kernel, stride, kernel // 2, groups=groups, bias=False), nn.BatchNorm2d(cout)]
        return layers + [activation(inplace=True)] if act else layers

    class InvertedResidual(nn.Module):
        def __init__(self, cin, cout, stride, expansion):
            super().__init__()
            hidden = cin * expansion
            layers = conv_bn(cin, hidden) if expansion != 1 else []
            excite = [squeeze_excitation(lib, hidden, max(1, cin // 4))] if squeeze else []
            self.conv = nn.Sequential(*layers, *conv_bn(hidden, hidden, 3, stride, hidden), *excite,
                                      *conv_bn(hidden, cout, act=False))
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


def vit_sdpa(lib, image=32, patch=4, dim=128, depth=4, heads=4, classes=10):
    """vit's layout with its blocks as timm writes them: pre-norm, one qkv Linear,
    F.scaled_dot_product_attention and a GELU MLP of 4 x dim, each with a residual."""
    nn = lib.nn
    F = nn.functional

    class Attention(nn.Module):
        def __init__(self):
            super().__init__()
            self.qkv, self.proj = nn.Linear(dim, 3 * dim), nn.Linear(dim, dim)

        def forward(self, x):
            b, n, c = x.shape
            q, k, v = self.qkv(x).reshape(b, n, 3, heads, c // heads).permute(2, 0, 3, 1, 4).unbind(0)
            return self.proj(F.scaled_dot_product_attention(q, k, v).transpose(1, 2).reshape(b, n, c))

    class Block(nn.Module):
        def __init__(self):
            super().__init__()
            self.norm1, self.attn = nn.LayerNorm(dim), Attention()
            self.norm2 = nn.LayerNorm(dim)
            self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))

        def forward(self, x):
            x = x + self.attn(self.norm1(x))
            return x + self.mlp(self.norm2(x))

    return vit(lib, image, patch, dim, depth, heads, classes, lambda: nn.Sequential(*[Block() for _ in range(depth)]))


def bert_mlm(lib, vocab=VOCAB, length=64, dim=128, depth=2, heads=4):
    """A BERT encoder with its masked-LM head, as Hugging Face's: word, position and token-type
    embeddings summed, LayerNorm and dropout, post-norm layers (separate query, key and value
    Linears, attention under an additive padding mask, GELU feed-forward), the head a Linear,
    GELU and LayerNorm before the vocabulary's Linear, cross-entropy over the masked tokens
    (the others' labels -100)."""
    nn = lib.nn
    F = nn.functional

    class Layer(nn.Module):
        def __init__(self):
            super().__init__()
            self.query, self.key, self.value = nn.Linear(dim, dim), nn.Linear(dim, dim), nn.Linear(dim, dim)
            self.out, self.norm1 = nn.Linear(dim, dim), nn.LayerNorm(dim, eps=1e-12)
            self.up, self.down = nn.Linear(dim, 4 * dim), nn.Linear(4 * dim, dim)
            self.norm2 = nn.LayerNorm(dim, eps=1e-12)
            self.drop = nn.Dropout(0.1)

        def heads(self, x):
            return x.view(x.shape[0], x.shape[1], heads, dim // heads).transpose(1, 2)

        def forward(self, x, mask):
            q, k, v = self.heads(self.query(x)), self.heads(self.key(x)), self.heads(self.value(x))
            scores = q @ k.transpose(-1, -2) / (dim // heads) ** 0.5 + mask
            context = (self.drop(scores.softmax(dim=-1)) @ v).transpose(1, 2).reshape(x.shape)
            x = self.norm1(x + self.drop(self.out(context)))
            return self.norm2(x + self.drop(self.down(F.gelu(self.up(x)))))

    class Bert(nn.Module):
        def __init__(self):
            super().__init__()
            self.words, self.positions = nn.Embedding(vocab, dim), nn.Embedding(length, dim)
            self.types = nn.Embedding(2, dim)
            self.norm, self.drop = nn.LayerNorm(dim, eps=1e-12), nn.Dropout(0.1)
            self.layers = nn.ModuleList([Layer() for _ in range(depth)])
            self.transform, self.head_norm = nn.Linear(dim, dim), nn.LayerNorm(dim, eps=1e-12)
            self.decoder = nn.Linear(dim, vocab)

        def forward(self, tokens, types, attention, labels):
            positions = lib.arange(tokens.shape[1]).unsqueeze(0)
            x = self.drop(self.norm(self.words(tokens) + self.positions(positions) + self.types(types)))
            mask = (1.0 - attention[:, None, None, :].to(x.dtype)) * -10000.0
            for layer in self.layers:
                x = layer(x, mask)
            logits = self.decoder(self.head_norm(F.gelu(self.transform(x))))
            return F.cross_entropy(logits.view(-1, vocab), labels.view(-1), ignore_index=-100)

    return Bert()


def convnext(lib, widths=(32, 64, 128), depths=(2, 2, 2), classes=10):
    """A ConvNeXt narrowed for 32x32 images: a 2x2 strided stem, blocks of a 7x7 depthwise
    conv, LayerNorm over channels by permuting to channels-last, a 4x inverted MLP with GELU,
    a layer scale and a residual (stochastic depth off); between stages a channels LayerNorm
    (by permutes) and a 2x2 strided conv; the mean over pixels, LayerNorm and a linear head."""
    nn = lib.nn

    class ChannelsNorm(nn.LayerNorm):
        def forward(self, x):
            return super().forward(x.permute(0, 2, 3, 1)).permute(0, 3, 1, 2)

    class Block(nn.Module):
        def __init__(self, width):
            super().__init__()
            self.dwconv = nn.Conv2d(width, width, 7, padding=3, groups=width)
            self.norm = nn.LayerNorm(width, eps=1e-6)
            self.mlp = nn.Sequential(nn.Linear(width, 4 * width), nn.GELU(), nn.Linear(4 * width, width))
            self.gamma = nn.Parameter(lib.full((width,), 0.1))

        def forward(self, x):
            y = self.norm(self.dwconv(x).permute(0, 2, 3, 1))
            return x + (self.gamma * self.mlp(y)).permute(0, 3, 1, 2)

    layers = [nn.Conv2d(3, widths[0], 2, stride=2), ChannelsNorm(widths[0], eps=1e-6)]
    for i, (width, depth) in enumerate(zip(widths, depths)):
        if i:
            layers += [ChannelsNorm(widths[i - 1], eps=1e-6), nn.Conv2d(widths[i - 1], width, 2, stride=2)]
        layers += [Block(width) for _ in range(depth)]

    class ConvNeXt(nn.Module):
        def __init__(self):
            super().__init__()
            self.features = nn.Sequential(*layers)
            self.norm, self.head = nn.LayerNorm(widths[-1], eps=1e-6), nn.Linear(widths[-1], classes)

        def forward(self, x):
            return self.head(self.norm(self.features(x).mean(dim=(2, 3))))

    return with_loss(nn, ConvNeXt())


def squeeze_excitation(lib, width, squeezed):
    """Squeeze-excitation: the image's channels gated by a sigmoid of two 1x1 convs (SiLU
    between) on their averages."""
    nn = lib.nn

    class SqueezeExcitation(nn.Module):
        def __init__(self):
            super().__init__()
            self.reduce, self.expand = nn.Conv2d(width, squeezed, 1), nn.Conv2d(squeezed, width, 1)

        def forward(self, x):
            scale = nn.functional.adaptive_avg_pool2d(x, 1)
            return x * lib.sigmoid(self.expand(nn.functional.silu(self.reduce(scale))))

    return SqueezeExcitation()


def efficientnet(lib, stages=((1, 16, 1, 1), (4, 24, 2, 2), (4, 40, 2, 2), (4, 80, 2, 2)), last=320, classes=10):
    """An EfficientNet-B0-style CNN for 32x32 images: MobileNetV2's layout with SiLU and
    squeeze-excitation after each depthwise conv (MBConv blocks; stochastic depth off)."""
    return inverted_residual_net(lib, stages, last, classes, lib.nn.SiLU, squeeze=True)


def densenet(lib, growth=12, blocks=(4, 4, 4), classes=10):
    """A DenseNet-BC for 32x32 images: a 3x3 stem, dense blocks whose layers (batch norm,
    ReLU, a 1x1 bottleneck conv to 4 x growth, batch norm, ReLU, a 3x3 conv to `growth`)
    each see the cat of every earlier output, transitions (batch norm, ReLU, a 1x1 conv halving
    the channels, 2x2 average pooling), then batch norm, ReLU, pooling and a linear head."""
    nn = lib.nn

    class DenseLayer(nn.Module):
        def __init__(self, cin):
            super().__init__()
            self.net = nn.Sequential(nn.BatchNorm2d(cin), nn.ReLU(inplace=True),
                                     nn.Conv2d(cin, 4 * growth, 1, bias=False),
                                     nn.BatchNorm2d(4 * growth), nn.ReLU(inplace=True),
                                     nn.Conv2d(4 * growth, growth, 3, padding=1, bias=False))

        def forward(self, features):
            return self.net(lib.cat(features, 1))

    class DenseBlock(nn.Module):
        def __init__(self, cin, count):
            super().__init__()
            self.layers = nn.ModuleList([DenseLayer(cin + i * growth) for i in range(count)])

        def forward(self, x):
            features = [x]
            for layer in self.layers:
                features.append(layer(features))
            return lib.cat(features, 1)

    layers, cin = [nn.Conv2d(3, 2 * growth, 3, padding=1, bias=False)], 2 * growth
    for i, count in enumerate(blocks):
        layers.append(DenseBlock(cin, count))
        cin += count * growth
        if i + 1 < len(blocks):
            layers += [nn.BatchNorm2d(cin), nn.ReLU(inplace=True), nn.Conv2d(cin, cin // 2, 1, bias=False),
                       nn.AvgPool2d(2)]
            cin //= 2
    layers += [nn.BatchNorm2d(cin), nn.ReLU(inplace=True), nn.AdaptiveAvgPool2d(1), nn.Flatten(),
               nn.Linear(cin, classes)]
    return with_loss(nn, nn.Sequential(*layers))


def seq2seq(lib, vocab=VOCAB, width=128):
    """A translation model as PyTorch's tutorial writes it: a GRU encoder over source
    embeddings, a decoder looping in Python over the target's steps with teacher forcing (a
    GRUCell on the previous target token's embedding and the attention context, dot-product
    attention over the encoder's outputs by bmm and softmax), a Linear to the vocabulary,
    cross-entropy over every step."""
    nn = lib.nn
    F = nn.functional

    class Seq2Seq(nn.Module):
        def __init__(self):
            super().__init__()
            self.source_embed, self.target_embed = nn.Embedding(vocab, width), nn.Embedding(vocab, width)
            self.encoder = nn.GRU(width, width, batch_first=True)
            self.cell = nn.GRUCell(2 * width, width)
            self.attend = nn.Linear(width, width, bias=False)
            self.out = nn.Linear(2 * width, vocab)

        def forward(self, source, target):
            memory, h = self.encoder(self.source_embed(source))
            h, context = h[0], lib.zeros(source.shape[0], width)
            keys = self.attend(memory)
            logits = []
            for t in range(target.shape[1] - 1):
                h = self.cell(lib.cat([self.target_embed(target[:, t]), context], 1), h)
                weights = F.softmax(lib.bmm(keys, h.unsqueeze(2)).squeeze(2), dim=1)
                context = lib.bmm(weights.unsqueeze(1), memory).squeeze(1)
                logits.append(self.out(lib.cat([h, context], 1)))
            return F.cross_entropy(lib.stack(logits, 1).reshape(-1, vocab), target[:, 1:].reshape(-1))

    return Seq2Seq()


def dlrm(lib, tables=(1000, 500, 200, 100, 50, 20, 10, 5), dim=16, dense=13):
    """A DLRM for click-through: a bottom MLP on the dense features, one EmbeddingBag (sum)
    per sparse feature over its bags of ids (given as flat ids and offsets), the pairwise dot
    products of all these vectors (bmm, the upper triangle by index), a top MLP to one logit,
    BCEWithLogitsLoss."""
    nn = lib.nn
    count = len(tables) + 1
    rows, cols = np.triu_indices(count, 1)

    class Dlrm(nn.Module):
        def __init__(self):
            super().__init__()
            self.bottom = nn.Sequential(nn.Linear(dense, 64), nn.ReLU(), nn.Linear(64, dim), nn.ReLU())
            self.bags = nn.ModuleList([nn.EmbeddingBag(n, dim, mode="sum") for n in tables])
            self.top = nn.Sequential(nn.Linear(dim + len(rows), 128), nn.ReLU(), nn.Linear(128, 64), nn.ReLU(),
                                     nn.Linear(64, 1))
            self.loss = nn.BCEWithLogitsLoss()

        def forward(self, features, ids, offsets, clicks):
            x = self.bottom(features)
            vectors = lib.stack([x] + [bag(ids[i], offsets) for i, bag in enumerate(self.bags)], 1)
            pairs = lib.bmm(vectors, vectors.transpose(1, 2))[:, lib.tensor(rows), lib.tensor(cols)]
            return self.loss(self.top(lib.cat([x, pairs], 1)).squeeze(1), clicks)

    return Dlrm()


def cnn3d(lib, width=16, classes=10):
    """A 3-d CNN on short video clips (C3D-like): Conv3d, BatchNorm3d and ReLU blocks with
    MaxPool3d between them (the first pooling spatial only), global average pooling and a
    linear head."""
    nn = lib.nn

    def block(cin, cout):
        return [nn.Conv3d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm3d(cout), nn.ReLU(inplace=True)]

    return with_loss(nn, nn.Sequential(*block(3, width), nn.MaxPool3d((1, 2, 2)), *block(width, 2 * width),
                                       nn.MaxPool3d(2), *block(2 * width, 4 * width), nn.MaxPool3d(2),
                                       nn.AdaptiveAvgPool3d(1), nn.Flatten(), nn.Linear(4 * width, classes)))


def llama(lib, vocab=VOCAB, dim=128, depth=2, heads=4, hidden=352):
    """A small LLaMA-style decoder: RMSNorm (no bias, computed in the forward), rotary position
    embeddings built in the forward from arange and outer, attention by causal
    F.scaled_dot_product_attention, a SwiGLU feed-forward, pre-norm residuals, untied head."""
    nn = lib.nn
    F = nn.functional
    head_dim = dim // heads

    class RMSNorm(nn.Module):
        def __init__(self):
            super().__init__()
            self.weight = nn.Parameter(lib.ones(dim))

        def forward(self, x):
            return x * lib.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6) * self.weight

    def rotate(x, cos, sin):
        half = x.shape[-1] // 2
        return x * cos + lib.cat([-x[..., half:], x[..., :half]], -1) * sin

    class Block(nn.Module):
        def __init__(self):
            super().__init__()
            self.attn_norm, self.mlp_norm = RMSNorm(), RMSNorm()
            self.wq, self.wk = nn.Linear(dim, dim, bias=False), nn.Linear(dim, dim, bias=False)
            self.wv, self.wo = nn.Linear(dim, dim, bias=False), nn.Linear(dim, dim, bias=False)
            self.gate, self.up = nn.Linear(dim, hidden, bias=False), nn.Linear(dim, hidden, bias=False)
            self.down = nn.Linear(hidden, dim, bias=False)

        def forward(self, x, cos, sin):
            b, n, _ = x.shape
            y = self.attn_norm(x)
            q, k, v = (w(y).view(b, n, heads, head_dim).transpose(1, 2) for w in (self.wq, self.wk, self.wv))
            y = F.scaled_dot_product_attention(rotate(q, cos, sin), rotate(k, cos, sin), v, is_causal=True)
            x = x + self.wo(y.transpose(1, 2).reshape(b, n, dim))
            y = self.mlp_norm(x)
            return x + self.down(F.silu(self.gate(y)) * self.up(y))

    class Llama(nn.Module):
        def __init__(self):
            super().__init__()
            self.embed = nn.Embedding(vocab, dim)
            self.blocks = nn.ModuleList([Block() for _ in range(depth)])
            self.norm, self.head = RMSNorm(), nn.Linear(dim, vocab, bias=False)

        def forward(self, tokens, target):
            inverse = 1.0 / 10000.0 ** (lib.arange(0, head_dim, 2).float() / head_dim)
            angles = lib.outer(lib.arange(tokens.shape[1]).float(), inverse)
            angles = lib.cat([angles, angles], -1)
            cos, sin = angles.cos(), angles.sin()
            x = self.embed(tokens)
            for block in self.blocks:
                x = block(x, cos, sin)
            return F.cross_entropy(self.head(self.norm(x)).view(-1, vocab), target.view(-1))

    return Llama()


def dcgan(lib, latent=64, width=32, channels=3):
    """PyTorch's DCGAN example on 32x32 images: a generator of ConvTranspose2d, BatchNorm2d
    and ReLU up from a latent vector (Tanh at the end), a discriminator of strided convs,
    BatchNorm2d and LeakyReLU down to one logit, BCEWithLogitsLoss and an Adam for each. Its
    step (make_step) trains the discriminator on real and detached fake images, then the
    generator through the discriminator, as the example's loop does."""
    nn = lib.nn

    def up(cin, cout, stride, padding):
        return [nn.ConvTranspose2d(cin, cout, 4, stride, padding, bias=False), nn.BatchNorm2d(cout), nn.ReLU(True)]

    def down(cin, cout, norm=True):
        return [nn.Conv2d(cin, cout, 4, 2, 1, bias=False), *([nn.BatchNorm2d(cout)] if norm else []),
                nn.LeakyReLU(0.2, inplace=True)]

    class Dcgan(nn.Module):
        def __init__(self):
            super().__init__()
            self.generator = nn.Sequential(*up(latent, 4 * width, 1, 0), *up(4 * width, 2 * width, 2, 1),
                                           *up(2 * width, width, 2, 1),
                                           nn.ConvTranspose2d(width, channels, 4, 2, 1, bias=False), nn.Tanh())
            self.discriminator = nn.Sequential(*down(channels, width, norm=False), *down(width, 2 * width),
                                               *down(2 * width, 4 * width), nn.Conv2d(4 * width, 1, 4, 1, 0, bias=False),
                                               nn.Flatten())
            self.loss = nn.BCEWithLogitsLoss()

        def make_step(self, lib, inputs, compile):
            noise, real = inputs
            generator, discriminator = compile(self.generator), compile(self.discriminator)
            opt_g, opt_d = (lib.optim.Adam(m.parameters(), lr=2e-4, betas=(0.5, 0.999))
                            for m in (self.generator, self.discriminator))
            ones, zeros = lib.ones(real.shape[0], 1), lib.zeros(real.shape[0], 1)

            def work():
                opt_d.zero_grad()
                fake = generator(noise)
                loss_d = self.loss(discriminator(real), ones) + self.loss(discriminator(fake.detach()), zeros)
                loss_d.backward()
                opt_d.step()
                opt_g.zero_grad()
                loss_g = self.loss(discriminator(fake), ones)
                loss_g.backward()
                opt_g.step()
                return loss_d + loss_g
            return work

    return Dcgan()


def pointnet(lib, classes=10, width=64, features=256):
    """PointNet's classifier on point clouds [B, 3, points]: an input T-Net (a 3x3 transform
    applied by bmm), shared per-point MLPs as 1x1 Conv1d with BatchNorm1d and ReLU, a feature
    T-Net (width x width) with its orthogonality term, max over the points, and a head of
    Linear, BatchNorm1d, ReLU and dropout to cross-entropy (features: the widest point
    feature, 1024 in the paper)."""
    nn = lib.nn

    def shared(*widths):
        return [layer for cin, cout in zip(widths, widths[1:])
                for layer in (nn.Conv1d(cin, cout, 1), nn.BatchNorm1d(cout), nn.ReLU())]

    def head(*widths):
        return [layer for cin, cout in zip(widths, widths[1:])
                for layer in (nn.Linear(cin, cout), nn.BatchNorm1d(cout), nn.ReLU())]

    class TNet(nn.Module):
        def __init__(self, k):
            super().__init__()
            self.k = k
            self.points = nn.Sequential(*shared(k, width, 2 * width, features))
            self.out = nn.Sequential(*head(features, features // 2, features // 4), nn.Linear(features // 4, k * k))

        def forward(self, x):
            t = self.out(self.points(x).max(2)[0]).view(-1, self.k, self.k)
            return t + lib.eye(self.k)

    class PointNet(nn.Module):
        def __init__(self):
            super().__init__()
            self.input_transform, self.feature_transform = TNet(3), TNet(width)
            self.first = nn.Sequential(*shared(3, width))
            self.second = nn.Sequential(*shared(width, 2 * width), nn.Conv1d(2 * width, features, 1),
                                        nn.BatchNorm1d(features))
            self.head = nn.Sequential(*head(features, features // 2), nn.Dropout(0.3), nn.Linear(features // 2, classes))

        def forward(self, points, target):
            x = lib.bmm(points.transpose(1, 2), self.input_transform(points)).transpose(1, 2)
            x = self.first(x)
            t = self.feature_transform(x)
            x = lib.bmm(x.transpose(1, 2), t).transpose(1, 2)
            logits = self.head(self.second(x).max(2)[0])
            regularizer = (lib.bmm(t, t.transpose(1, 2)) - lib.eye(width)).pow(2).sum((1, 2)).sqrt().mean()
            return nn.functional.cross_entropy(logits, target) + 0.001 * regularizer

    return PointNet()


def wavenet(lib, classes=256, residual=32, skip=64, dilations=(1, 2, 4, 8, 16, 32, 64, 128)):
    """A WaveNet on mu-law samples: embedded classes, layers of a dilated causal Conv1d (padded
    both sides, the future sliced off), a gated tanh * sigmoid unit, 1x1 convs to a residual
    sum and a skip sum, ReLU and 1x1 convs to each next sample's class, cross-entropy."""
    nn = lib.nn

    class Layer(nn.Module):
        def __init__(self, dilation):
            super().__init__()
            self.dilation = dilation
            self.conv = nn.Conv1d(residual, 2 * residual, 2, dilation=dilation, padding=dilation)
            self.residual, self.skip = nn.Conv1d(residual, residual, 1), nn.Conv1d(residual, skip, 1)

        def forward(self, x):
            filtered, gate = self.conv(x)[..., :-self.dilation].chunk(2, dim=1)
            y = lib.tanh(filtered) * lib.sigmoid(gate)
            return x + self.residual(y), self.skip(y)

    class WaveNet(nn.Module):
        def __init__(self):
            super().__init__()
            self.embed = nn.Embedding(classes, residual)
            self.layers = nn.ModuleList([Layer(d) for d in dilations])
            self.out = nn.Sequential(nn.ReLU(), nn.Conv1d(skip, skip, 1), nn.ReLU(), nn.Conv1d(skip, classes, 1))

        def forward(self, samples):
            x = self.embed(samples[:, :-1]).transpose(1, 2)
            skips = 0
            for layer in self.layers:
                x, s = layer(x)
                skips = skips + s
            return nn.functional.cross_entropy(self.out(skips), samples[:, 1:])

    return WaveNet()


def gcn(lib, features=64, hidden=64, classes=8):
    """A graph convolutional network (Kipf and Welling) on one random graph, as users write it
    without a graph library: each layer's Linear, then messages gathered at the edges' sources
    by index_select, scaled by the symmetric degree norm and summed at their targets by
    index_add_ (degrees by scatter_add); ReLU and dropout between layers, cross-entropy over the
    training nodes."""
    nn = lib.nn
    F = nn.functional

    class GraphConv(nn.Module):
        def __init__(self, cin, cout):
            super().__init__()
            self.linear = nn.Linear(cin, cout)

        def forward(self, x, source, target, norm):
            h = self.linear(x)
            messages = h.index_select(0, source) * norm.unsqueeze(1)
            return lib.zeros_like(h).index_add_(0, target, messages)

    class Gcn(nn.Module):
        def __init__(self):
            super().__init__()
            self.convs = nn.ModuleList([GraphConv(features, hidden), GraphConv(hidden, hidden),
                                        GraphConv(hidden, classes)])

        def forward(self, x, edges, labels, train):
            loops = lib.arange(x.shape[0])
            source, target = lib.cat([edges[0], loops]), lib.cat([edges[1], loops])
            degree = lib.zeros(x.shape[0]).scatter_add(0, target, lib.ones(target.shape[0]))
            norm = degree.rsqrt()[source] * degree.rsqrt()[target]
            for i, conv in enumerate(self.convs):
                x = conv(x, source, target, norm)
                if i + 1 < len(self.convs):
                    x = F.dropout(F.relu(x), 0.5, self.training)
            return F.cross_entropy(x[train], labels[train])

    return Gcn()


def swin(lib, image=32, patch=2, dims=(48, 96), depths=(2, 2), heads=(3, 6), window=4, classes=10):
    """A Swin Transformer narrowed for 32x32 images: patches by a strided conv, stages of
    blocks whose attention runs within windows (partitioned by view and permute), every second
    block's windows shifted by torch.roll under a mask, a relative position bias table indexed
    by a buffer, pre-norm residuals and GELU MLPs; patch merging (a 2x2 neighbourhood's cat,
    LayerNorm, Linear) between stages; the mean over tokens, LayerNorm and a linear head."""
    nn = lib.nn
    F = nn.functional
    area = window * window

    def partition(x):  # [B, H, W, C] -> [B * windows, area, C]
        b, h, w, c = x.shape
        x = x.view(b, h // window, window, w // window, window, c).permute(0, 1, 3, 2, 4, 5)
        return x.reshape(-1, area, c)

    def merge(windows, b, h, w):
        x = windows.view(b, h // window, w // window, window, window, -1).permute(0, 1, 3, 2, 4, 5)
        return x.reshape(b, h, w, -1)

    coords = np.stack(np.meshgrid(np.arange(window), np.arange(window), indexing="ij")).reshape(2, -1)
    relative = (coords[:, :, None] - coords[:, None, :]).transpose(1, 2, 0) + window - 1
    relative_index = relative[..., 0] * (2 * window - 1) + relative[..., 1]

    def shift_mask(size, shift):
        regions = np.zeros((size, size))
        bounds = (slice(0, -window), slice(-window, -shift), slice(-shift, None))
        for i, (hs, ws) in enumerate((hs, ws) for hs in bounds for ws in bounds):
            regions[hs, ws] = i
        ids = regions.reshape(size // window, window, size // window, window).transpose(0, 2, 1, 3).reshape(-1, area)
        return np.where(ids[:, :, None] != ids[:, None, :], -100.0, 0.0).astype(np.float32)

    class WindowAttention(nn.Module):
        def __init__(self, dim, count):
            super().__init__()
            self.count, self.scale = count, (dim // count) ** -0.5
            self.qkv, self.proj = nn.Linear(dim, 3 * dim), nn.Linear(dim, dim)
            self.bias_table = nn.Parameter(lib.randn((2 * window - 1) ** 2, count) * 0.02)
            self.register_buffer("relative_index", lib.tensor(relative_index.reshape(-1)))

        def forward(self, x, mask):
            n, length, c = x.shape
            q, k, v = self.qkv(x).reshape(n, length, 3, self.count, c // self.count).permute(2, 0, 3, 1, 4)
            scores = (q * self.scale) @ k.transpose(-2, -1)
            bias = self.bias_table[self.relative_index].view(area, area, -1).permute(2, 0, 1)
            scores = scores + bias.unsqueeze(0)
            if mask is not None:
                windows = mask.shape[0]
                scores = scores.view(n // windows, windows, self.count, area, area) + mask.unsqueeze(1).unsqueeze(0)
                scores = scores.view(-1, self.count, area, area)
            y = (scores.softmax(dim=-1) @ v).transpose(1, 2).reshape(n, length, c)
            return self.proj(y)

    class Block(nn.Module):
        def __init__(self, dim, count, size, shift):
            super().__init__()
            self.size, self.shift = size, shift
            self.norm1, self.attn = nn.LayerNorm(dim), WindowAttention(dim, count)
            self.norm2 = nn.LayerNorm(dim)
            self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))
            self.register_buffer("mask", lib.tensor(shift_mask(size, shift)) if shift else None)

        def forward(self, x):
            b, length, c = x.shape
            y = self.norm1(x).view(b, self.size, self.size, c)
            if self.shift:
                y = lib.roll(y, shifts=(-self.shift, -self.shift), dims=(1, 2))
            y = merge(self.attn(partition(y), self.mask), b, self.size, self.size)
            if self.shift:
                y = lib.roll(y, shifts=(self.shift, self.shift), dims=(1, 2))
            x = x + y.reshape(b, length, c)
            return x + self.mlp(self.norm2(x))

    class PatchMerging(nn.Module):
        def __init__(self, dim, size):
            super().__init__()
            self.size = size
            self.norm, self.reduce = nn.LayerNorm(4 * dim), nn.Linear(4 * dim, 2 * dim, bias=False)

        def forward(self, x):
            b, _, c = x.shape
            x = x.view(b, self.size, self.size, c)
            x = lib.cat([x[:, 0::2, 0::2], x[:, 1::2, 0::2], x[:, 0::2, 1::2], x[:, 1::2, 1::2]], -1)
            return self.reduce(self.norm(x.view(b, -1, 4 * c)))

    layers, size = [], image // patch
    for i, (dim, depth, count) in enumerate(zip(dims, depths, heads)):
        if i:
            layers.append(PatchMerging(dims[i - 1], size))
            size //= 2
        layers += [Block(dim, count, size, window // 2 if j % 2 else 0) for j in range(depth)]

    class Swin(nn.Module):
        def __init__(self):
            super().__init__()
            self.patches = nn.Conv2d(3, dims[0], patch, stride=patch)
            self.stages = nn.Sequential(*layers)
            self.norm, self.head = nn.LayerNorm(dims[-1]), nn.Linear(dims[-1], classes)

        def forward(self, x):
            x = self.stages(self.patches(x).flatten(2).transpose(1, 2))
            return self.head(self.norm(x).mean(dim=1))

    return with_loss(nn, Swin())


def seq2seq_transformer(lib, vocab=VOCAB, dim=128, heads=4, layers=2, pad=0):
    """A T5-like translation model on nn.Transformer (batch first): shared token embeddings
    scaled by sqrt(dim) plus sinusoidal positions, source and target padding masks, the causal
    target mask from generate_square_subsequent_mask, the next token's cross-entropy with the
    padding's labels ignored (ignore_index)."""
    nn = lib.nn

    class Translator(nn.Module):
        def __init__(self):
            super().__init__()
            self.embed = nn.Embedding(vocab, dim, padding_idx=pad)
            self.transformer = nn.Transformer(dim, heads, layers, layers, 2 * dim, dropout=0.1, batch_first=True)
            self.out = nn.Linear(dim, vocab)
            position = np.arange(64)[:, None] / 10000 ** (np.arange(0, dim, 2) / dim)
            table = np.stack([np.sin(position), np.cos(position)], -1).reshape(64, dim).astype(np.float32)
            self.register_buffer("positions", lib.tensor(table))

        def embedded(self, tokens):
            return self.embed(tokens) * dim ** 0.5 + self.positions[:tokens.shape[1]]

        def forward(self, source, target):
            inputs, labels = target[:, :-1], target[:, 1:]
            causal = nn.Transformer.generate_square_subsequent_mask(inputs.shape[1])
            y = self.transformer(self.embedded(source), self.embedded(inputs), tgt_mask=causal,
                                 src_key_padding_mask=source == pad, tgt_key_padding_mask=inputs == pad,
                                 memory_key_padding_mask=source == pad)
            return nn.functional.cross_entropy(self.out(y).reshape(-1, vocab), labels.reshape(-1), ignore_index=pad)

    return Translator()


def padded(rng, batch, length, low, vocab=VOCAB, pad=0):
    """Token rows (ids from 1) of lengths drawn from [low, length], padded with `pad`."""
    tokens = rng.integers(1, vocab, (batch, length))
    return np.where(np.arange(length) < rng.integers(low, length + 1, batch)[:, None], tokens, pad)


def char_rnn(nn, vocab=96, width=128, hidden=256):
    """A character-level language model (Karpathy's char-rnn): embeddings, a two-layer
    nn.RNN with tanh (batch first) and dropout between its layers, a Linear to the next
    character, cross-entropy."""

    class CharRnn(nn.Module):
        def __init__(self):
            super().__init__()
            self.embed = nn.Embedding(vocab, width)
            self.rnn = nn.RNN(width, hidden, num_layers=2, nonlinearity="tanh", batch_first=True, dropout=0.1)
            self.out = nn.Linear(hidden, vocab)

        def forward(self, chars, target):
            y, _ = self.rnn(self.embed(chars))
            return nn.functional.cross_entropy(self.out(y).reshape(-1, vocab), target.reshape(-1))

    return CharRnn()


def upsampling_autoencoder(nn, width=32):
    """A convolutional autoencoder on 32x32 images whose decoder upsamples three ways, as
    users mix them: nn.Upsample nearest and bilinear, each before a 3x3 conv, and a
    sub-pixel conv (a conv to 4x the channels, then PixelShuffle(2)); MSE to the input."""
    return with_loss(nn, nn.Sequential(
        nn.Conv2d(3, width, 3, 2, 1), nn.ReLU(), nn.Conv2d(width, 2 * width, 3, 2, 1), nn.ReLU(),
        nn.Conv2d(2 * width, 4 * width, 3, 2, 1), nn.ReLU(),
        nn.Upsample(scale_factor=2, mode="nearest"), nn.Conv2d(4 * width, 2 * width, 3, padding=1), nn.ReLU(),
        nn.Upsample(scale_factor=2, mode="bilinear", align_corners=False), nn.Conv2d(2 * width, width, 3, padding=1),
        nn.ReLU(), nn.Conv2d(width, 3 * 4, 3, padding=1), nn.PixelShuffle(2), nn.Sigmoid()), nn.functional.mse_loss)


def conformer(lib, features=80, dim=144, heads=4, depth=2, kernel=15, classes=32):
    """A Conformer encoder on log-mel frames: a Linear in, blocks of a half-step feed-forward
    (LayerNorm, Linear, SiLU, Linear), nn.MultiheadAttention, a convolution module (LayerNorm,
    a pointwise Conv1d to 2 x dim, GLU, a depthwise Conv1d, BatchNorm1d, SiLU, a pointwise
    Conv1d) and a second half-step feed-forward, each residual, then LayerNorm; per-frame
    cross-entropy."""
    nn = lib.nn

    def feed_forward():
        return nn.Sequential(nn.LayerNorm(dim), nn.Linear(dim, 4 * dim), nn.SiLU(), nn.Dropout(0.1),
                             nn.Linear(4 * dim, dim), nn.Dropout(0.1))

    class Convolution(nn.Module):
        def __init__(self):
            super().__init__()
            self.norm = nn.LayerNorm(dim)
            self.net = nn.Sequential(nn.Conv1d(dim, 2 * dim, 1), nn.GLU(dim=1),
                                     nn.Conv1d(dim, dim, kernel, padding=kernel // 2, groups=dim), nn.BatchNorm1d(dim),
                                     nn.SiLU(), nn.Conv1d(dim, dim, 1), nn.Dropout(0.1))

        def forward(self, x):
            return self.net(self.norm(x).transpose(1, 2)).transpose(1, 2)

    class Block(nn.Module):
        def __init__(self):
            super().__init__()
            self.ff1, self.ff2 = feed_forward(), feed_forward()
            self.attn_norm = nn.LayerNorm(dim)
            self.attn = nn.MultiheadAttention(dim, heads, dropout=0.1, batch_first=True)
            self.conv, self.norm = Convolution(), nn.LayerNorm(dim)

        def forward(self, x):
            x = x + 0.5 * self.ff1(x)
            y = self.attn_norm(x)
            x = x + self.attn(y, y, y, need_weights=False)[0]
            x = x + self.conv(x)
            return self.norm(x + 0.5 * self.ff2(x))

    class Conformer(nn.Module):
        def __init__(self):
            super().__init__()
            self.input = nn.Linear(features, dim)
            self.blocks = nn.Sequential(*[Block() for _ in range(depth)])
            self.out = nn.Linear(dim, classes)

        def forward(self, frames, target):
            logits = self.out(self.blocks(self.input(frames)))
            return nn.functional.cross_entropy(logits.reshape(-1, classes), target.reshape(-1))

    return Conformer()


def keyword_cnn(nn, width=32, classes=35):
    """A keyword-spotting CNN on log-mel spectrograms [B, 1, 40 mels, 101 frames]:
    InstanceNorm2d on the input, 3x3 conv blocks with GroupNorm and ReLU, max pooling,
    global average pooling and a linear head (Speech Commands' 35 words)."""

    def block(cin, cout):
        return [nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.GroupNorm(8, cout), nn.ReLU()]

    return with_loss(nn, nn.Sequential(
        nn.InstanceNorm2d(1, affine=True), *block(1, width), nn.MaxPool2d(2), *block(width, 2 * width),
        *block(2 * width, 2 * width), nn.MaxPool2d(2), *block(2 * width, 4 * width), nn.AdaptiveAvgPool2d(1),
        nn.Flatten(), nn.Linear(4 * width, classes)))


def siamese(lib, width=32, embedding=64, temperature=0.1):
    """A Siamese embedding net on 28x28 image triplets (anchor, positive, negative): one CNN
    (conv, ReLU, max pooling, a Linear) embeds all three; the loss triplet_margin_loss plus an
    InfoNCE term on the anchors' and positives' cosine_similarity (every pair, by broadcasting)."""
    nn = lib.nn
    F = nn.functional

    class Siamese(nn.Module):
        def __init__(self):
            super().__init__()
            self.embed = nn.Sequential(nn.Conv2d(1, width, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                                       nn.Conv2d(width, 2 * width, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                                       nn.Flatten(), nn.Linear(2 * width * 7 * 7, embedding))

        def forward(self, anchor, positive, negative):
            a, p, n = self.embed(anchor), self.embed(positive), self.embed(negative)
            similarity = F.cosine_similarity(a.unsqueeze(1), p.unsqueeze(0), dim=-1) / temperature
            contrastive = F.cross_entropy(similarity, lib.arange(a.shape[0]))
            return F.triplet_margin_loss(a, p, n, margin=1.0) + contrastive

    return Siamese()


def graph_inputs(rng, nodes=2000, edges=16000, features=64, classes=8):
    """gcn's graph: node features, random directed edges [2, edges] (sources, targets), node
    labels and the training nodes' mask (a fifth)."""
    return (rng.standard_normal((nodes, features)).astype(np.float32), rng.integers(0, nodes, (2, edges)),
            rng.integers(0, classes, nodes), rng.random(nodes) < 0.2)


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
    more = np.random.default_rng(2)  # the inputs of the models after pointnet
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
        "vit_sdpa": Model(lambda lib: vit_sdpa(lib), (images(batch // 2, 3, 32), labels(batch // 2, 10)), "adamw"),
        "bert_mlm": Model(lambda lib: bert_mlm(lib), bert_inputs(rng, batch), "adamw"),
        "convnext": Model(lambda lib: convnext(lib), (images(batch // 2, 3, 32), labels(batch // 2, 10)), "adamw"),
        "efficientnet": Model(lambda lib: efficientnet(lib), (images(batch // 2, 3, 32), labels(batch // 2, 10))),
        "densenet": Model(lambda lib: densenet(lib), (images(batch // 2, 3, 32), labels(batch // 2, 10))),
        "seq2seq": Model(lambda lib: seq2seq(lib), (labels((batch, 20), VOCAB), labels((batch, 16), VOCAB)),
                         "adamw"),
        "dlrm": Model(lambda lib: dlrm(lib), dlrm_inputs(rng, 4 * batch)),
        "cnn3d": Model(lambda lib: cnn3d(lib), (rng.standard_normal((batch // 4, 3, 8, 32, 32)).astype(np.float32),
                                                labels(batch // 4, 10))),
        "llama": Model(lambda lib: llama(lib), (gpt, np.roll(gpt, -1, axis=1)), "adamw"),
        "dcgan": Model(lambda lib: dcgan(lib), (images(batch, 64, 1), np.tanh(images(batch, 3, 32)))),
        "pointnet": Model(lambda lib: pointnet(lib), (rng.standard_normal((batch // 2, 3, 512)).astype(np.float32),
                                                     labels(batch // 2, 10))),
        "wavenet": Model(lambda lib: wavenet(lib), (more.integers(0, 256, (batch // 4, 1025)),), "adam"),
        "gcn": Model(lambda lib: gcn(lib), graph_inputs(more), "adam"),
        "swin": Model(lambda lib: swin(lib), (images(batch // 2, 3, 32), labels(batch // 2, 10)), "adamw"),
        "transformer_seq2seq": Model(lambda lib: seq2seq_transformer(lib),
                                     (padded(more, batch, 32, 12), padded(more, batch, 33, 12)), "adamw"),
        "char_rnn": Model(lambda lib: char_rnn(lib.nn), (more.integers(0, 96, (batch, 64)),
                                                         more.integers(0, 96, (batch, 64))), "adam"),
        "upsample_ae": Model(lambda lib: upsampling_autoencoder(lib.nn),
                             (more.random((batch, 3, 32, 32)).astype(np.float32),) * 2, "adam"),
        "conformer": Model(lambda lib: conformer(lib), (more.standard_normal((batch // 2, 100, 80)).astype(np.float32),
                                                        more.integers(0, 32, (batch // 2, 100))), "adamw"),
        "keyword_cnn": Model(lambda lib: keyword_cnn(lib.nn), (more.standard_normal((batch, 1, 40, 101)).astype(
            np.float32), more.integers(0, 35, batch)), "adam"),
        "siamese": Model(lambda lib: siamese(lib), tuple(more.standard_normal((batch, 1, 28, 28)).astype(np.float32)
                                                         for _ in range(3)), "adam"),
    }


def bert_inputs(rng, batch, length=64, vocab=VOCAB):
    """A masked-LM batch: tokens, token types (a second segment from a random point),
    the attention mask (1 up to each length), labels (the token at 15% of the unpadded
    positions, -100 elsewhere)."""
    tokens = rng.integers(0, vocab, (batch, length))
    positions = np.arange(length)
    types = (positions >= rng.integers(8, length, batch)[:, None]).astype(np.int64)
    attention = (positions < rng.integers(16, length + 1, batch)[:, None]).astype(np.int64)
    labels = np.where((rng.random((batch, length)) < 0.15) & (attention == 1), tokens, -100)
    return tokens, types, attention, labels


def dlrm_inputs(rng, batch, bag=3):
    """A click-through batch for dlrm: dense features, each table's ids (bags of `bag` ids,
    one row per table), the bags' offsets and the clicks (0. or 1.)."""
    tables = dlrm.__defaults__[0]
    ids = np.stack([rng.integers(0, n, batch * bag) for n in tables])
    return (rng.standard_normal((batch, 13)).astype(np.float32), ids, np.arange(0, batch * bag, bag),
            (rng.random(batch) < 0.3).astype(np.float32))


def optimizer(lib, kind, parameters):
    """The optimizer `kind` names (Model's) over `parameters`."""
    if kind == "adamw":
        return lib.optim.AdamW(parameters, lr=1e-4, weight_decay=0.01)
    if kind == "adam":
        return lib.optim.Adam(parameters, lr=1e-3)
    if kind == "adagrad":
        return lib.optim.Adagrad(parameters, lr=0.01)
    if kind == "adadelta":
        return lib.optim.Adadelta(parameters, lr=1.0)
    return lib.optim.SGD(parameters, lr=0.01, momentum=0.9, weight_decay=5e-4 if kind == "sgd_wd" else 0)


def training_step(lib, module, model, compiled=False):
    """One step's closure (forward to the loss, backward, the optimizer's step; meshflow's
    waits for its queued work) and a list that gets the first step's loss; `compiled` runs
    the module under torch.compile. A module with make_step(lib, inputs, compile) makes the
    step's work itself (several optimizers), returning (work: () -> loss)."""
    inputs = [lib.tensor(a) for a in model.inputs]
    if model.channels_last:
        module = module.to(memory_format=lib.channels_last)
        inputs = [t.contiguous(memory_format=lib.channels_last) if t.ndim == 4 and t.is_floating_point() else t
                  for t in inputs]
    if hasattr(module, "make_step"):
        work = module.make_step(lib, inputs, torch.compile if compiled else lambda m: m)
    else:
        opt = optimizer(lib, model.optimizer, module.parameters())
        run = torch.compile(module) if compiled else module

        def work():
            opt.zero_grad()
            loss = run(*inputs)
            loss.backward()
            opt.step()
            return loss
    losses = []

    def step():
        loss = work()
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


def child(args, table):
    threads = child_threads(args, mf, torch)
    wanted = args.only.split(",") if args.only else None
    for name, model in table(args.batch).items():
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


def main(doc=__doc__, script=__file__, table=None):
    """The command line of a bench of training steps: `table(batch)` -> name -> Model (this
    file's models by default), timed as this file's docstring says."""
    table = table or models
    parser = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
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
        child(args, table)
        return
    print(f"{os.path.basename(script)[:-3]}: batch {args.batch}, best of {args.repeat}, torch "
          f"{torch.__version__ if torch is not None else 'not installed'}, "
          f"{'in one process' if args.together else 'each library in its own process'}", flush=True)
    child_args = ["--repeat", str(args.repeat), "--batch", str(args.batch), "--only", args.only,
                  *(["--compile"] if args.compile else [])]
    run_parent(script, args, child_args, torch is not None)


if __name__ == "__main__":
    main()
