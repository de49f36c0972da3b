"""More training steps of models as users write them, none of which bench/models_bench.py's
resemble, timed as that bench times them (its options, its processes; meshflow beside PyTorch
eager and torch.compile, the same weights and inputs):

    PYTHONPATH=build/python:$(echo /root/tv/lib/python3*/site-packages) /usr/bin/python3 \\
        bench/zoo_bench.py --compile --threads 2 1 --rounds 1 [--only tcn,moe]

The models: a TCN (Bai et al.: weight-normed dilated causal Conv1d, padded and chomped, with
dropout and 1x1 downsampling residuals) classifying sequential MNIST-like pixel rows; a
ShuffleNetV2 (channel split by chunk, channel shuffle by view/transpose, depthwise stride-2
convs, cat); a SqueezeNet (Fire modules: a 1x1 squeeze, 1x1 and 3x3 expands concatenated,
max pooling with ceil_mode, a convolutional classifier); a GoogLeNet-style Inception net
(four branches of BasicConv2d (conv, batch norm eps 1e-3, ReLU), one through a stride-1 3x3
max pool, concatenated); a Mixtral-style mixture-of-experts transformer (a router's softmax,
top-2 by topk, the tokens of each expert found by where and summed back by index_add_, an
auxiliary load-balancing loss); a RealNVP flow on 64-d vectors (affine couplings under
alternating masks, tanh-bounded log-scales, the Gaussian log-likelihood with the
log-determinant); a CLIP-style dual encoder (a CNN for images, a causal transformer for text
pooled at each caption's last token by advanced indexing, F.normalize, a learned
logit_scale.exp(), the symmetric contrastive cross-entropy); and a DeepLabV3-style segmenter
(a dilated-conv backbone at stride 4, ASPP's 1x1, dilated 3x3 and image-pooling branches
concatenated, bilinear upsampling to the input, cross-entropy with ignore_index=255).
"""
import numpy as np

from layers_bench import VOCAB
from models_bench import Model, main, with_loss


def tcn(lib, channels=(32,) * 6, kernel=5, length=256, classes=10, dropout=0.05):
    """locuslab's TCN: TemporalBlocks of two weight-normed dilated causal Conv1d (padding
    (kernel - 1) * dilation both sides, the right end chomped off), each with ReLU and dropout,
    a residual (by a 1x1 Conv1d where the widths differ), dilations doubling, the last step's
    features to a linear head."""
    nn = lib.nn
    weight_norm = nn.utils.parametrizations.weight_norm

    class TemporalBlock(nn.Module):
        def __init__(self, cin, cout, dilation):
            super().__init__()
            self.chomp = (kernel - 1) * dilation
            self.conv1 = weight_norm(nn.Conv1d(cin, cout, kernel, padding=self.chomp, dilation=dilation))
            self.conv2 = weight_norm(nn.Conv1d(cout, cout, kernel, padding=self.chomp, dilation=dilation))
            self.drop = nn.Dropout(dropout)
            self.downsample = nn.Conv1d(cin, cout, 1) if cin != cout else None

        def forward(self, x):
            y = self.drop(nn.functional.relu(self.conv1(x)[:, :, :-self.chomp].contiguous()))
            y = self.drop(nn.functional.relu(self.conv2(y)[:, :, :-self.chomp].contiguous()))
            return nn.functional.relu(y + (x if self.downsample is None else self.downsample(x)))

    class Tcn(nn.Module):
        def __init__(self):
            super().__init__()
            widths = (1, *channels)
            self.blocks = nn.Sequential(*[TemporalBlock(cin, cout, 2 ** i)
                                          for i, (cin, cout) in enumerate(zip(widths, widths[1:]))])
            self.head = nn.Linear(channels[-1], classes)

        def forward(self, x):
            return self.head(self.blocks(x)[:, :, -1])

    return with_loss(nn, Tcn())


def shufflenet_v2(lib, stages=(48, 96, 192), repeats=(2, 3, 2), last=512, classes=10):
    """torchvision's ShuffleNetV2 narrowed for 32x32 images (a 3x3 stem without the max pool):
    InvertedResidual units splitting the channels in two by chunk (stride 1) or running both
    branches on the whole input (stride 2: a 3x3 depthwise stride-2 conv and a 1x1 conv), the
    halves concatenated and shuffled (view, transpose, contiguous, view), batch norm and ReLU
    after each conv but the depthwise ones; a 1x1 conv to `last`, the mean over pixels, a
    linear head."""
    nn = lib.nn

    def shuffle(x):
        b, c, h, w = x.shape
        return x.view(b, 2, c // 2, h, w).transpose(1, 2).contiguous().view(b, c, h, w)

    def depthwise(width, stride):
        return [nn.Conv2d(width, width, 3, stride, 1, groups=width, bias=False), nn.BatchNorm2d(width)]

    def pointwise(cin, cout):
        return [nn.Conv2d(cin, cout, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True)]

    class InvertedResidual(nn.Module):
        def __init__(self, cin, cout, stride):
            super().__init__()
            self.stride, half = stride, cout // 2
            self.branch1 = nn.Sequential(*depthwise(cin, 2), *pointwise(cin, half)) if stride == 2 else None
            self.branch2 = nn.Sequential(*pointwise(cin if stride == 2 else half, half), *depthwise(half, stride),
                                         *pointwise(half, half))

        def forward(self, x):
            if self.stride == 1:
                x1, x2 = x.chunk(2, dim=1)
                out = lib.cat((x1, self.branch2(x2)), dim=1)
            else:
                out = lib.cat((self.branch1(x), self.branch2(x)), dim=1)
            return shuffle(out)

    layers, cin = [nn.Conv2d(3, 24, 3, 1, 1, bias=False), nn.BatchNorm2d(24), nn.ReLU(inplace=True)], 24
    for width, count in zip(stages, repeats):
        layers += [InvertedResidual(cin, width, 2)] + [InvertedResidual(width, width, 1) for _ in range(count - 1)]
        cin = width
    layers += [*pointwise(cin, last), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(last, classes)]
    return with_loss(nn, nn.Sequential(*layers))


def squeezenet(lib, classes=10):
    """torchvision's SqueezeNet 1.1 narrowed for 32x32 images: a 3x3 stem, Fire modules (a 1x1
    squeeze conv and ReLU, then 1x1 and 3x3 expand convs with ReLU, concatenated) between
    3x3 stride-2 max pools with ceil_mode, dropout, a 1x1 conv to the classes with ReLU and
    global average pooling."""
    nn = lib.nn

    class Fire(nn.Module):
        def __init__(self, cin, squeeze, expand):
            super().__init__()
            self.squeeze = nn.Sequential(nn.Conv2d(cin, squeeze, 1), nn.ReLU(inplace=True))
            self.expand1 = nn.Sequential(nn.Conv2d(squeeze, expand, 1), nn.ReLU(inplace=True))
            self.expand3 = nn.Sequential(nn.Conv2d(squeeze, expand, 3, padding=1), nn.ReLU(inplace=True))

        def forward(self, x):
            x = self.squeeze(x)
            return lib.cat([self.expand1(x), self.expand3(x)], 1)

    pool = lambda: nn.MaxPool2d(3, 2, ceil_mode=True)  # noqa: E731
    return with_loss(nn, nn.Sequential(
        nn.Conv2d(3, 64, 3, padding=1), nn.ReLU(inplace=True), pool(),
        Fire(64, 16, 64), Fire(128, 16, 64), pool(),
        Fire(128, 32, 128), Fire(256, 32, 128), pool(),
        Fire(256, 48, 192), Fire(384, 48, 192),
        nn.Dropout(0.5), nn.Conv2d(384, classes, 1), nn.ReLU(inplace=True), nn.AdaptiveAvgPool2d(1), nn.Flatten()))


def inception(lib, classes=10):
    """A GoogLeNet-style net for 32x32 images: torchvision's BasicConv2d (conv without bias,
    batch norm with eps 1e-3, ReLU) as a stem, Inception modules of four branches (1x1; 1x1
    then 3x3; 1x1 then 3x3 (torchvision's 5x5 branch); a stride-1 3x3 max pool then 1x1)
    concatenated, a max pool between the two stages, dropout and a linear head on the mean."""
    nn = lib.nn

    def basic(cin, cout, kernel=1, **kwargs):
        return nn.Sequential(nn.Conv2d(cin, cout, kernel, bias=False, **kwargs), nn.BatchNorm2d(cout, eps=0.001),
                             nn.ReLU(inplace=True))

    class Inception(nn.Module):
        def __init__(self, cin, one, three_reduce, three, five_reduce, five, pool):
            super().__init__()
            self.branch1 = basic(cin, one)
            self.branch2 = nn.Sequential(basic(cin, three_reduce), basic(three_reduce, three, 3, padding=1))
            self.branch3 = nn.Sequential(basic(cin, five_reduce), basic(five_reduce, five, 3, padding=1))
            self.branch4 = nn.Sequential(nn.MaxPool2d(3, 1, 1, ceil_mode=True), basic(cin, pool))

        def forward(self, x):
            return lib.cat([self.branch1(x), self.branch2(x), self.branch3(x), self.branch4(x)], 1)

    return with_loss(nn, nn.Sequential(
        basic(3, 64, 3, padding=1), nn.MaxPool2d(2),
        Inception(64, 32, 48, 64, 8, 16, 16), Inception(128, 64, 64, 96, 16, 48, 32), nn.MaxPool2d(3, 2, 1),
        Inception(240, 96, 48, 104, 8, 24, 32), Inception(256, 80, 56, 112, 12, 32, 32),
        nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Dropout(0.2), nn.Linear(256, classes)))


def moe_transformer(lib, vocab=VOCAB, dim=128, depth=2, heads=4, experts=4, top=2, hidden=256, balance=0.01):
    """A decoder-only language model with Mixtral-style sparse MoE feed-forward layers: pre-norm
    blocks of causal attention (F.scaled_dot_product_attention) and a router whose softmax's
    top-2 (topk, renormalized) picks SwiGLU experts; each expert runs on its tokens (found by
    where on the one-hot of the picks), its weighted output summed back by index_add_;
    cross-entropy plus Switch's load-balancing loss."""
    nn = lib.nn
    F = nn.functional

    class Expert(nn.Module):
        def __init__(self):
            super().__init__()
            self.w1, self.w2, self.w3 = (nn.Linear(dim, hidden, bias=False), nn.Linear(hidden, dim, bias=False),
                                         nn.Linear(dim, hidden, bias=False))

        def forward(self, x):
            return self.w2(F.silu(self.w1(x)) * self.w3(x))

    class SparseMoe(nn.Module):
        def __init__(self):
            super().__init__()
            self.router = nn.Linear(dim, experts, bias=False)
            self.experts = nn.ModuleList([Expert() for _ in range(experts)])

        def forward(self, x):
            b, n, c = x.shape
            x = x.view(-1, c)
            probs = F.softmax(self.router(x), dim=-1)
            weights, picks = lib.topk(probs, top, dim=-1)
            weights = weights / weights.sum(dim=-1, keepdim=True)
            out = lib.zeros_like(x)
            mask = F.one_hot(picks, experts).permute(2, 1, 0)  # [experts, top, tokens]
            for e, expert in enumerate(self.experts):
                slot, token = lib.where(mask[e])
                if token.numel():
                    y = expert(x[token]) * weights[token, slot, None]
                    out.index_add_(0, token, y.to(x.dtype))
            share = mask.sum(dim=1).float().mean(dim=1) / top
            return out.view(b, n, c), experts * (share * probs.mean(dim=0)).sum()

    class Block(nn.Module):
        def __init__(self):
            super().__init__()
            self.norm1, self.qkv, self.proj = nn.LayerNorm(dim), nn.Linear(dim, 3 * dim), nn.Linear(dim, dim)
            self.norm2, self.moe = nn.LayerNorm(dim), SparseMoe()

        def forward(self, x):
            b, n, c = x.shape
            q, k, v = self.qkv(self.norm1(x)).view(b, n, 3, heads, c // heads).permute(2, 0, 3, 1, 4).unbind(0)
            x = x + self.proj(F.scaled_dot_product_attention(q, k, v, is_causal=True).transpose(1, 2).reshape(b, n, c))
            y, aux = self.moe(self.norm2(x))
            return x + y, aux

    class MoeLm(nn.Module):
        def __init__(self):
            super().__init__()
            self.embed = nn.Embedding(vocab, dim)
            self.pos = nn.Parameter(lib.randn(1, 64, dim) * 0.02)
            self.blocks = nn.ModuleList([Block() for _ in range(depth)])
            self.norm, self.head = nn.LayerNorm(dim), nn.Linear(dim, vocab, bias=False)

        def forward(self, tokens, target):
            x = self.embed(tokens) + self.pos[:, :tokens.shape[1]]
            aux = 0
            for block in self.blocks:
                x, a = block(x)
                aux = aux + a
            logits = self.head(self.norm(x))
            return F.cross_entropy(logits.view(-1, vocab), target.reshape(-1)) + balance * aux

    return MoeLm()


def realnvp(lib, features=64, hidden=256, couplings=6):
    """A RealNVP flow on vectors: affine couplings under alternating checkerboard masks, each
    an MLP (Linear, ReLU) to a log-scale (tanh-bounded) and a shift of the unmasked half; the
    loss the negative log-likelihood under a standard normal plus the log-determinant (the
    log-scales' sum)."""
    nn = lib.nn
    import math

    class Coupling(nn.Module):
        def __init__(self, parity):
            super().__init__()
            self.register_buffer("mask", (lib.arange(features) % 2 == parity).float())
            self.net = nn.Sequential(nn.Linear(features, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU(),
                                     nn.Linear(hidden, 2 * features))

        def forward(self, x):
            s, t = self.net(x * self.mask).chunk(2, dim=1)
            s = lib.tanh(s) * (1 - self.mask)
            t = t * (1 - self.mask)
            return x * lib.exp(s) + t, s.sum(dim=1)

    class RealNvp(nn.Module):
        def __init__(self):
            super().__init__()
            self.couplings = nn.ModuleList([Coupling(i % 2) for i in range(couplings)])

        def forward(self, x):
            log_det = 0
            for coupling in self.couplings:
                x, ld = coupling(x)
                log_det = log_det + ld
            log_prob = -0.5 * (x ** 2).sum(dim=1) - 0.5 * features * math.log(2 * math.pi)
            return -(log_prob + log_det).mean()

    return RealNvp()


def clip(lib, vocab=VOCAB, length=32, dim=128, embed=64, heads=4, depth=2):
    """A CLIP-style dual encoder: images through a small CNN (conv, batch norm, ReLU, strided
    down, mean over pixels, a projection), captions through token and position embeddings and a
    causal pre-norm nn.TransformerEncoder, pooled at each caption's last token
    (x[arange(B), lengths - 1]) and projected; both F.normalize'd, their cosine similarities
    times logit_scale.exp() (initialized to log(1 / 0.07)), the mean of the cross-entropies of
    the rows and of the columns against the diagonal."""
    nn = lib.nn
    F = nn.functional
    import math

    def conv(cin, cout, stride):
        return [nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True)]

    class Clip(nn.Module):
        def __init__(self):
            super().__init__()
            self.image = nn.Sequential(*conv(3, 32, 1), *conv(32, 64, 2), *conv(64, 128, 2), *conv(128, 128, 2))
            self.image_proj = nn.Linear(128, embed, bias=False)
            self.words, self.positions = nn.Embedding(vocab, dim), nn.Parameter(lib.randn(length, dim) * 0.01)
            layer = nn.TransformerEncoderLayer(dim, heads, 4 * dim, dropout=0.0, activation="gelu", batch_first=True,
                                               norm_first=True)
            self.text = nn.TransformerEncoder(layer, depth, enable_nested_tensor=False)
            self.text_norm, self.text_proj = nn.LayerNorm(dim), nn.Linear(dim, embed, bias=False)
            self.register_buffer("causal", nn.Transformer.generate_square_subsequent_mask(length))
            self.logit_scale = nn.Parameter(lib.ones([]) * math.log(1 / 0.07))

        def forward(self, images, tokens, lengths):
            image = self.image_proj(self.image(images).mean(dim=(2, 3)))
            x = self.text(self.words(tokens) + self.positions, mask=self.causal, is_causal=True)
            text = self.text_proj(self.text_norm(x)[lib.arange(x.shape[0]), lengths - 1])
            image, text = F.normalize(image, dim=-1), F.normalize(text, dim=-1)
            logits = self.logit_scale.exp() * image @ text.t()
            target = lib.arange(logits.shape[0])
            return (F.cross_entropy(logits, target) + F.cross_entropy(logits.t(), target)) / 2

    return Clip()


def deeplab(lib, classes=6, width=32, rates=(2, 4, 6)):
    """A DeepLabV3-style segmenter on 64x64 images: a ResNet-like backbone of conv, batch norm
    and ReLU down to stride 4, then residual blocks of dilated 3x3 convs (dilation 2) instead of
    further striding; ASPP: a 1x1 conv, 3x3 convs at `rates`, and the image's mean (adaptive
    average pooling, a 1x1 conv, a bilinear interpolate back), each with batch norm and ReLU,
    concatenated, projected by a 1x1 conv (dropout 0.5); a 1x1 conv to classes, a bilinear
    interpolate to the input's size, cross-entropy ignoring label 255."""
    nn = lib.nn
    F = nn.functional

    def conv_bn(cin, cout, kernel=3, stride=1, dilation=1):
        return nn.Sequential(nn.Conv2d(cin, cout, kernel, stride, dilation * (kernel // 2), dilation, bias=False),
                             nn.BatchNorm2d(cout), nn.ReLU(inplace=True))

    class DilatedBlock(nn.Module):
        def __init__(self, channels):
            super().__init__()
            self.conv1, self.conv2 = conv_bn(channels, channels, dilation=2), conv_bn(channels, channels, dilation=2)

        def forward(self, x):
            return F.relu(x + self.conv2(self.conv1(x)))

    class Aspp(nn.Module):
        def __init__(self, cin, cout):
            super().__init__()
            self.branches = nn.ModuleList([conv_bn(cin, cout, 1)] + [conv_bn(cin, cout, dilation=r) for r in rates])
            self.pooled = nn.Sequential(nn.AdaptiveAvgPool2d(1), nn.Conv2d(cin, cout, 1, bias=False), nn.ReLU())
            self.project = nn.Sequential(conv_bn(cout * (len(rates) + 2), cout, 1), nn.Dropout(0.5))

        def forward(self, x):
            pooled = F.interpolate(self.pooled(x), size=x.shape[-2:], mode="bilinear", align_corners=False)
            return self.project(lib.cat([branch(x) for branch in self.branches] + [pooled], dim=1))

    class DeepLab(nn.Module):
        def __init__(self):
            super().__init__()
            self.backbone = nn.Sequential(conv_bn(3, width, stride=2), conv_bn(width, 2 * width),
                                          conv_bn(2 * width, 4 * width, stride=2), DilatedBlock(4 * width),
                                          DilatedBlock(4 * width))
            self.aspp = Aspp(4 * width, 4 * width)
            self.classifier = nn.Conv2d(4 * width, classes, 1)

        def forward(self, images, target):
            logits = self.classifier(self.aspp(self.backbone(images)))
            logits = F.interpolate(logits, size=images.shape[-2:], mode="bilinear", align_corners=False)
            return F.cross_entropy(logits, target, ignore_index=255)

    return DeepLab()


def models(batch):
    """name -> Model, sized by the batch."""
    rng = np.random.default_rng(0)
    images = lambda n, c, s: rng.standard_normal((n, c, s, s)).astype(np.float32)  # noqa: E731
    labels = lambda shape, classes: rng.integers(0, classes, shape)  # noqa: E731
    tokens = labels((batch // 2, 64), VOCAB)
    captions = labels((batch, 32), VOCAB)
    segments = labels((batch // 4, 64, 64), 6)
    segments[rng.random(segments.shape) < 0.05] = 255  # unlabelled pixels
    return {
        "tcn": Model(lambda lib: tcn(lib), (rng.standard_normal((batch // 2, 1, 256)).astype(np.float32),
                                           labels(batch // 2, 10)), "adam"),
        "shufflenet_v2": Model(lambda lib: shufflenet_v2(lib), (images(batch // 4, 3, 32), labels(batch // 4, 10)),
                               "sgd_wd"),
        "squeezenet": Model(lambda lib: squeezenet(lib), (images(batch // 2, 3, 32), labels(batch // 2, 10)), "sgd_wd"),
        "inception": Model(lambda lib: inception(lib), (images(batch // 4, 3, 32), labels(batch // 4, 10)), "sgd_wd"),
        "moe": Model(lambda lib: moe_transformer(lib), (tokens, np.roll(tokens, -1, axis=1)), "adamw"),
        "realnvp": Model(lambda lib: realnvp(lib), (rng.standard_normal((8 * batch, 64)).astype(np.float32),), "adam"),
        "clip": Model(lambda lib: clip(lib), (images(batch, 3, 32), captions, rng.integers(8, 33, batch)), "adamw"),
        "deeplab": Model(lambda lib: deeplab(lib), (images(batch // 4, 3, 64), segments), "sgd_wd"),
    }


if __name__ == "__main__":
    main(__doc__, __file__, models)
