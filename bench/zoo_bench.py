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
And variants of kinds models_bench.py has, written as other code bases write them: a
DeiT-Tiny-wide ViT on nn.MultiheadAttention; a three-level U-Net with GroupNorm, SiLU and
ConvTranspose2d at every level (BCEWithLogits plus a soft Dice loss); ResMLP (Affine layers,
LayerScale); ConvNeXt as its authors' code writes it (a channels-first LayerNorm by hand,
stochastic depth); PyTorch's translation tutorial on a sequence-first nn.Transformer
(sinusoidal positions, label smoothing); a two-layer bidirectional GRU part-of-speech tagger;
a DeepFM click-through model (one Embedding over all fields, an EmbeddingBag mean, the FM's
pairwise term, BatchNorm1d); a QuartzNet-style keyword spotter (time-channel separable
Conv1d); and PyTorch's examples/vae on MNIST-sized vectors.
And models users commonly train that neither bench had: a DDPM noise-prediction U-Net
(sinusoidal time embedding, GroupNorm and SiLU residual blocks with the time added,
self-attention by bmm at the lowest resolution, MSE on the noise); a T5 encoder-decoder
(relative position bias buckets, the RMS T5LayerNorm, gated-GELU feed-forwards); a masked
autoencoder (random masking by argsort and gather, the encoder on the visible patches, a light
decoder); a GAT (per-edge attention, the softmax over each node's edges by scatter_reduce amax
and index_add_); a NeRF (sin/cos encodings, a skip concat, volume rendering by cumprod); a
PixelCNN (convolutions masked by a weight mask); BYOL (two views, a predictor, stop-gradient,
an EMA target); and a ResNet-50-style net of bottleneck blocks narrowed for 32x32 images.
And more that users commonly train: a Perceiver (learned latents cross-attending to pixels
with Fourier position features, then latent self-attention); Wide & Deep on tabular data (a
wide EmbeddingBag of hashed crosses, a deep MLP over per-field embeddings, Adagrad); a
character-level GRU language model; PyTorch's examples/mnist CNN (log_softmax, nll_loss,
Adadelta); NeuMF collaborative filtering (GMF and MLP branches over user and item
embeddings); a MobileNetV3-Small (Hardswish, hardsigmoid squeeze-excitation, 5x5 depthwise
convs); a ResNeXt (grouped 3x3 convs); an N-BEATS forecaster (MLP blocks with backcasts
subtracted and forecasts summed, MSE); a BiLSTM-CRF tagger (the CRF's forward algorithm looped
in Python: logsumexp, where, a float times a bool mask); word2vec's skip-gram with negative
sampling (bmm, logsigmoid); and a DQN update (gather of the taken actions, a target network
under no_grad, smooth_l1_loss).
"""
import numpy as np

from layers_bench import VOCAB
from models_bench import Model, graph_inputs, main, padded, with_loss


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


def vit_mha(lib, image=32, patch=4, dim=192, depth=4, heads=3, classes=10):
    """A DeiT-Tiny-width ViT whose blocks users write on nn.MultiheadAttention (batch first,
    need_weights=False): pre-norm, attention and a 4x GELU MLP with dropout, each with a
    residual; no class token, the mean over patches to a linear head."""
    nn = lib.nn

    class Block(nn.Module):
        def __init__(self):
            super().__init__()
            self.norm1, self.attn = nn.LayerNorm(dim), nn.MultiheadAttention(dim, heads, dropout=0.1, batch_first=True)
            self.norm2 = nn.LayerNorm(dim)
            self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Dropout(0.1), nn.Linear(4 * dim, dim))

        def forward(self, x):
            y = self.norm1(x)
            x = x + self.attn(y, y, y, need_weights=False)[0]
            return x + self.mlp(self.norm2(x))

    class VitMha(nn.Module):
        def __init__(self):
            super().__init__()
            self.patches = nn.Conv2d(3, dim, patch, stride=patch)
            self.pos = nn.Parameter(lib.randn(1, (image // patch) ** 2, dim) * 0.02)
            self.blocks = nn.Sequential(*[Block() for _ in range(depth)])
            self.norm, self.head = nn.LayerNorm(dim), nn.Linear(dim, classes)

        def forward(self, x):
            x = self.blocks(self.patches(x).flatten(2).transpose(1, 2) + self.pos)
            return self.head(self.norm(x).mean(dim=1))

    return with_loss(nn, VitMha())


def unet_gn(lib, width=16, levels=3):
    """A U-Net for binary masks as diffusion and medical-imaging code writes it: blocks of two
    3x3 convs with GroupNorm(8) and SiLU, max pooling down, a ConvTranspose2d (2x2, stride 2)
    up at every level, cat with the skip; a 1x1 conv to one logit per pixel; the loss
    BCEWithLogits plus the soft Dice loss of the sigmoid."""
    nn = lib.nn
    F = nn.functional

    def block(cin, cout):
        return nn.Sequential(nn.Conv2d(cin, cout, 3, padding=1), nn.GroupNorm(8, cout), nn.SiLU(),
                             nn.Conv2d(cout, cout, 3, padding=1), nn.GroupNorm(8, cout), nn.SiLU())

    class UNetGn(nn.Module):
        def __init__(self):
            super().__init__()
            widths = [width * 2 ** i for i in range(levels + 1)]
            self.down = nn.ModuleList([block(cin, cout) for cin, cout in zip([3] + widths[:-2], widths[:-1])])
            self.middle = block(widths[-2], widths[-1])
            self.up = nn.ModuleList([nn.ConvTranspose2d(w * 2, w, 2, stride=2) for w in reversed(widths[:-1])])
            self.dec = nn.ModuleList([block(w * 2, w) for w in reversed(widths[:-1])])
            self.out = nn.Conv2d(width, 1, 1)

        def forward(self, x, mask):
            skips = []
            for down in self.down:
                x = down(x)
                skips.append(x)
                x = F.max_pool2d(x, 2)
            x = self.middle(x)
            for up, dec in zip(self.up, self.dec):
                x = dec(lib.cat([up(x), skips.pop()], dim=1))
            logits = self.out(x)
            probs = lib.sigmoid(logits)
            dice = 1 - (2 * (probs * mask).sum() + 1) / (probs.sum() + mask.sum() + 1)
            return F.binary_cross_entropy_with_logits(logits, mask) + dice

    return UNetGn()


def resmlp(lib, image=32, patch=4, dim=128, depth=4, classes=10):
    """ResMLP (Touvron et al.), the MLP-Mixer without LayerNorm: Affine layers (a learned
    per-channel scale and shift), a linear token-mixing layer across patches (by transposes),
    a 4x GELU channel MLP, both residual branches scaled by a learned LayerScale; the mean
    over patches to a linear head."""
    nn = lib.nn
    tokens = (image // patch) ** 2

    class Affine(nn.Module):
        def __init__(self):
            super().__init__()
            self.alpha, self.beta = nn.Parameter(lib.ones(dim)), nn.Parameter(lib.zeros(dim))

        def forward(self, x):
            return self.alpha * x + self.beta

    class Block(nn.Module):
        def __init__(self):
            super().__init__()
            self.norm1, self.tokens, self.norm2 = Affine(), nn.Linear(tokens, tokens), Affine()
            self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))
            self.scale1, self.scale2 = nn.Parameter(lib.full((dim,), 0.1)), nn.Parameter(lib.full((dim,), 0.1))

        def forward(self, x):
            x = x + self.scale1 * self.tokens(self.norm1(x).transpose(1, 2)).transpose(1, 2)
            return x + self.scale2 * self.mlp(self.norm2(x))

    class ResMlp(nn.Module):
        def __init__(self):
            super().__init__()
            self.patches = nn.Conv2d(3, dim, patch, stride=patch)
            self.blocks = nn.Sequential(*[Block() for _ in range(depth)])
            self.norm, self.head = Affine(), nn.Linear(dim, classes)

        def forward(self, x):
            x = self.blocks(self.patches(x).flatten(2).transpose(1, 2))
            return self.head(self.norm(x).mean(dim=1))

    return with_loss(nn, ResMlp())


def convnext_official(lib, widths=(48, 96, 192), depths=(2, 2, 2), classes=10, drop_path=0.1):
    """ConvNeXt as facebookresearch/ConvNeXt writes it, narrowed for 32x32 images: its
    LayerNorm class (F.layer_norm channels-last; channels-first by mean, pow, sqrt by hand) in
    the stem and the downsampling layers, blocks of a 7x7 depthwise conv, a permute to
    channels-last, LayerNorm, Linear 4x, GELU, Linear, the gamma layer scale, a permute back
    and stochastic depth (a per-sample Bernoulli mask) on the residual."""
    nn = lib.nn
    F = nn.functional

    class LayerNorm(nn.Module):
        def __init__(self, width, channels_first=False):
            super().__init__()
            self.weight, self.bias = nn.Parameter(lib.ones(width)), nn.Parameter(lib.zeros(width))
            self.width, self.channels_first = width, channels_first

        def forward(self, x):
            if not self.channels_first:
                return F.layer_norm(x, (self.width,), self.weight, self.bias, 1e-6)
            u = x.mean(1, keepdim=True)
            s = (x - u).pow(2).mean(1, keepdim=True)
            x = (x - u) / lib.sqrt(s + 1e-6)
            return self.weight[:, None, None] * x + self.bias[:, None, None]

    class Block(nn.Module):
        def __init__(self, width, drop):
            super().__init__()
            self.dwconv = nn.Conv2d(width, width, 7, padding=3, groups=width)
            self.norm = LayerNorm(width)
            self.pwconv1, self.act, self.pwconv2 = nn.Linear(width, 4 * width), nn.GELU(), nn.Linear(4 * width, width)
            self.gamma = nn.Parameter(1e-6 * lib.ones(width))
            self.drop = drop

        def forward(self, x):
            y = self.dwconv(x).permute(0, 2, 3, 1)
            y = (self.gamma * self.pwconv2(self.act(self.pwconv1(self.norm(y))))).permute(0, 3, 1, 2)
            if self.training and self.drop > 0:
                keep = x.new_empty((x.shape[0], 1, 1, 1)).bernoulli_(1 - self.drop)
                y = y * keep / (1 - self.drop)
            return x + y

    class ConvNeXt(nn.Module):
        def __init__(self):
            super().__init__()
            rates = [drop_path * i / (sum(depths) - 1) for i in range(sum(depths))]
            layers = [nn.Conv2d(3, widths[0], 2, stride=2), LayerNorm(widths[0], channels_first=True)]
            for i, (width, depth) in enumerate(zip(widths, depths)):
                if i:
                    layers += [LayerNorm(widths[i - 1], channels_first=True),
                               nn.Conv2d(widths[i - 1], width, 2, stride=2)]
                layers += [Block(width, rates.pop(0)) for _ in range(depth)]
            self.features = nn.Sequential(*layers)
            self.norm, self.head = nn.LayerNorm(widths[-1], eps=1e-6), nn.Linear(widths[-1], classes)

        def forward(self, x):
            return self.head(self.norm(self.features(x).mean([-2, -1])))

    return with_loss(nn, ConvNeXt())


def transformer_tutorial(lib, vocab=VOCAB, dim=128, heads=4, layers=2, pad=0):
    """A translation model as PyTorch's tutorial writes it: nn.Transformer sequence-first (its
    default), token embeddings times sqrt(dim) plus a sinusoidal PositionalEncoding buffer
    with dropout, the decoder under generate_square_subsequent_mask, padding masks of both
    sides, a generator Linear, cross-entropy with ignore_index and label smoothing 0.1."""
    nn = lib.nn
    import math

    class PositionalEncoding(nn.Module):
        def __init__(self, length=128):
            super().__init__()
            position = lib.arange(length).unsqueeze(1).float()
            scale = lib.exp(lib.arange(0, dim, 2).float() * (-math.log(10000.0) / dim))
            table = lib.zeros(length, 1, dim)
            table[:, 0, 0::2] = lib.sin(position * scale)
            table[:, 0, 1::2] = lib.cos(position * scale)
            self.register_buffer("table", table)
            self.drop = nn.Dropout(0.1)

        def forward(self, x):
            return self.drop(x + self.table[:x.shape[0]])

    class Translator(nn.Module):
        def __init__(self):
            super().__init__()
            self.src_embed, self.tgt_embed = nn.Embedding(vocab, dim), nn.Embedding(vocab, dim)
            self.positions = PositionalEncoding()
            self.transformer = nn.Transformer(dim, heads, layers, layers, 4 * dim, dropout=0.1)
            self.generator = nn.Linear(dim, vocab)
            self.loss = nn.CrossEntropyLoss(ignore_index=pad, label_smoothing=0.1)

        def forward(self, src, tgt):
            src, tgt = src.t(), tgt.t()  # [length, batch]
            tgt_in, tgt_out = tgt[:-1], tgt[1:]
            mask = nn.Transformer.generate_square_subsequent_mask(tgt_in.shape[0])
            src_padding, tgt_padding = (src == pad).t(), (tgt_in == pad).t()
            x = self.transformer(self.positions(self.src_embed(src) * math.sqrt(dim)),
                                 self.positions(self.tgt_embed(tgt_in) * math.sqrt(dim)), tgt_mask=mask,
                                 src_key_padding_mask=src_padding, tgt_key_padding_mask=tgt_padding,
                                 memory_key_padding_mask=src_padding)
            logits = self.generator(x)
            return self.loss(logits.reshape(-1, vocab), tgt_out.reshape(-1))

    return Translator()


def gru_tagger(nn, vocab=VOCAB, width=100, hidden=128, tags=17):
    """A part-of-speech tagger: word embeddings with dropout, a two-layer bidirectional GRU
    (batch first, dropout between the layers), a Linear per token to the tags, cross-entropy
    over the unpadded tokens (ignore_index -100)."""

    class GruTagger(nn.Module):
        def __init__(self):
            super().__init__()
            self.embed, self.drop = nn.Embedding(vocab, width, padding_idx=0), nn.Dropout(0.25)
            self.gru = nn.GRU(width, hidden, num_layers=2, batch_first=True, bidirectional=True, dropout=0.25)
            self.head = nn.Linear(2 * hidden, tags)

        def forward(self, tokens, target):
            x, _ = self.gru(self.drop(self.embed(tokens)))
            logits = self.head(self.drop(x))
            return nn.functional.cross_entropy(logits.reshape(-1, logits.shape[-1]), target.reshape(-1))

    return GruTagger()


def deepfm(lib, fields=(1000, 800, 500, 300, 200, 100, 50, 20, 10, 5), tags=2000, dim=16, dense=8):
    """A DeepFM click-through model: one nn.Embedding over all categorical fields (each
    field's ids offset into it) and a multi-hot field (tags, nn.EmbeddingBag mean over
    offsets); the factorization machine's pairwise term ((sum v)^2 - sum v^2) / 2 and its
    first-order weights (an Embedding of width 1); a deep MLP with BatchNorm1d, ReLU and
    dropout on the flattened vectors and the dense features; BCEWithLogits on the sum."""
    nn = lib.nn
    starts = np.concatenate([[0], np.cumsum(fields)[:-1]])

    class DeepFm(nn.Module):
        def __init__(self):
            super().__init__()
            self.embed, self.linear = nn.Embedding(sum(fields), dim), nn.Embedding(sum(fields), 1)
            self.tags = nn.EmbeddingBag(tags, dim, mode="mean")
            self.dense = nn.Linear(dense, dim)
            self.register_buffer("starts", lib.tensor(starts))
            width = (len(fields) + 2) * dim

            def layer(cin, cout):
                return [nn.Linear(cin, cout), nn.BatchNorm1d(cout), nn.ReLU(), nn.Dropout(0.1)]
            self.mlp = nn.Sequential(*layer(width, 256), *layer(256, 128), nn.Linear(128, 1))
            self.bias = nn.Parameter(lib.zeros(1))

        def forward(self, features, ids, tag_ids, tag_offsets, clicks):
            ids = ids + self.starts
            vectors = lib.cat([self.embed(ids), self.tags(tag_ids, tag_offsets).unsqueeze(1),
                               self.dense(features).unsqueeze(1)], dim=1)  # [batch, fields + 2, dim]
            pairwise = 0.5 * (vectors.sum(dim=1).pow(2) - vectors.pow(2).sum(dim=1)).sum(dim=1)
            first = self.linear(ids).sum(dim=(1, 2)) + self.bias
            logit = first + pairwise + self.mlp(vectors.flatten(1)).squeeze(1)
            return nn.functional.binary_cross_entropy_with_logits(logit, clicks)

    return DeepFm()


def deepfm_inputs(rng, batch, tags=2000, per=4):
    """deepfm's batch: dense features, each field's id [batch, fields], the tag ids (`per`
    per sample) and their offsets, the clicks."""
    fields = deepfm.__defaults__[0]
    ids = np.stack([rng.integers(0, n, batch) for n in fields], axis=1)
    return (rng.standard_normal((batch, 8)).astype(np.float32), ids, rng.integers(0, tags, batch * per),
            np.arange(0, batch * per, per), (rng.random(batch) < 0.3).astype(np.float32))


def quartznet(lib, mels=64, width=128, kernels=(11, 13, 15, 17), classes=35):
    """A QuartzNet/MatchboxNet-style keyword spotter on log-mel frames [B, mels, frames]: a
    prologue Conv1d, residual blocks of two time-channel separable convs (a depthwise Conv1d,
    then a pointwise one, BatchNorm1d, ReLU, dropout), the residual through a 1x1 Conv1d and
    BatchNorm1d, an epilogue conv, the mean over time (AdaptiveAvgPool1d), a linear head."""
    nn = lib.nn

    def separable(cin, cout, kernel, last=False):
        layers = [nn.Conv1d(cin, cin, kernel, padding=kernel // 2, groups=cin, bias=False),
                  nn.Conv1d(cin, cout, 1, bias=False), nn.BatchNorm1d(cout)]
        return layers if last else layers + [nn.ReLU(), nn.Dropout(0.1)]

    class Block(nn.Module):
        def __init__(self, kernel):
            super().__init__()
            self.body = nn.Sequential(*separable(width, width, kernel), *separable(width, width, kernel, last=True))
            self.residual = nn.Sequential(nn.Conv1d(width, width, 1, bias=False), nn.BatchNorm1d(width))

        def forward(self, x):
            return nn.functional.relu(self.body(x) + self.residual(x))

    return with_loss(nn, nn.Sequential(
        *separable(mels, width, 11), *[Block(k) for k in kernels], *separable(width, width, 29),
        nn.Conv1d(width, width, 1), nn.BatchNorm1d(width), nn.ReLU(), nn.AdaptiveAvgPool1d(1), nn.Flatten(),
        nn.Linear(width, classes)))


def mlp_vae(lib, hidden=400, latent=20):
    """PyTorch's examples/vae on flattened 28x28 images in [0, 1]: Linear 784 -> 400 and ReLU
    to the mean and log-variance (two Linears), a sample by reparameterization, Linear, ReLU,
    Linear and a sigmoid back; binary cross-entropy summed plus the KL divergence."""
    nn = lib.nn
    F = nn.functional

    class Vae(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc1 = nn.Linear(784, hidden)
            self.fc21, self.fc22 = nn.Linear(hidden, latent), nn.Linear(hidden, latent)
            self.fc3, self.fc4 = nn.Linear(latent, hidden), nn.Linear(hidden, 784)

        def forward(self, x):
            x = x.view(-1, 784)
            h = F.relu(self.fc1(x))
            mu, log_var = self.fc21(h), self.fc22(h)
            z = mu + lib.randn_like(mu) * lib.exp(0.5 * log_var)
            recon = lib.sigmoid(self.fc4(F.relu(self.fc3(z))))
            kl = -0.5 * lib.sum(1 + log_var - mu.pow(2) - log_var.exp())
            return F.binary_cross_entropy(recon, x, reduction="sum") + kl

    return Vae()


def ddpm_unet(lib, width=32, mults=(1, 2, 2), steps=1000, groups=8, dropout=0.1):
    """A DDPM noise-prediction U-Net (Ho et al., as their PyTorch ports write it) on 32x32
    images: the noised image x_t = sqrt(alpha_bar_t) x_0 + sqrt(1 - alpha_bar_t) noise under a
    linear beta schedule; a sinusoidal time embedding through Linear, SiLU, Linear; residual
    blocks of GroupNorm, SiLU and 3x3 convs with the time embedding's projection added between
    them; self-attention (1x1 convs to q, k, v, softmax of q^T k by bmm) at the lowest
    resolution; strided convs down, nearest upsampling and a conv up, skips by cat; the MSE
    between the predicted and the true noise."""
    nn = lib.nn
    F = nn.functional
    import math
    temb_dim = 4 * width

    class ResBlock(nn.Module):
        def __init__(self, cin, cout):
            super().__init__()
            self.norm1, self.conv1 = nn.GroupNorm(groups, cin), nn.Conv2d(cin, cout, 3, padding=1)
            self.temb = nn.Linear(temb_dim, cout)
            self.norm2, self.drop = nn.GroupNorm(groups, cout), nn.Dropout(dropout)
            self.conv2 = nn.Conv2d(cout, cout, 3, padding=1)
            self.skip = nn.Conv2d(cin, cout, 1) if cin != cout else nn.Identity()

        def forward(self, x, temb):
            h = self.conv1(F.silu(self.norm1(x)))
            h = h + self.temb(F.silu(temb))[:, :, None, None]
            h = self.conv2(self.drop(F.silu(self.norm2(h))))
            return self.skip(x) + h

    class Attention(nn.Module):
        def __init__(self, channels):
            super().__init__()
            self.norm = nn.GroupNorm(groups, channels)
            self.q, self.k, self.v, self.out = (nn.Conv2d(channels, channels, 1) for _ in range(4))

        def forward(self, x):
            b, c, h, w = x.shape
            y = self.norm(x)
            q = self.q(y).reshape(b, c, h * w).permute(0, 2, 1)
            k = self.k(y).reshape(b, c, h * w)
            weights = F.softmax(lib.bmm(q, k) * c ** -0.5, dim=2)
            v = self.v(y).reshape(b, c, h * w)
            y = lib.bmm(v, weights.permute(0, 2, 1)).reshape(b, c, h, w)
            return x + self.out(y)

    class UNet(nn.Module):
        def __init__(self):
            super().__init__()
            betas = lib.linspace(1e-4, 0.02, steps)
            self.register_buffer("alpha_bar", lib.cumprod(1 - betas, dim=0))
            self.temb = nn.Sequential(nn.Linear(width, temb_dim), nn.SiLU(), nn.Linear(temb_dim, temb_dim))
            self.stem = nn.Conv2d(3, width, 3, padding=1)
            widths = [width * m for m in mults]
            self.down, self.downsample, cin, skips = nn.ModuleList(), nn.ModuleList(), width, [width]
            for i, w in enumerate(widths):
                self.down.append(ResBlock(cin, w))
                cin = w
                skips.append(w)
                if i + 1 < len(widths):
                    self.downsample.append(nn.Conv2d(w, w, 3, stride=2, padding=1))
                    skips.append(w)
            self.mid1, self.mid_attn, self.mid2 = ResBlock(cin, cin), Attention(cin), ResBlock(cin, cin)
            self.up, self.upsample = nn.ModuleList(), nn.ModuleList()
            for i, w in reversed(list(enumerate(widths))):
                for _ in range(2):
                    self.up.append(ResBlock(cin + skips.pop(), w))
                    cin = w
                if i:
                    self.upsample.append(nn.Conv2d(w, w, 3, padding=1))
            self.norm, self.out = nn.GroupNorm(groups, width), nn.Conv2d(width, 3, 3, padding=1)

        def embed_time(self, t):
            half = width // 2
            freqs = lib.exp(-math.log(10000) * lib.arange(half).float() / half)
            args = t.float()[:, None] * freqs[None]
            return self.temb(lib.cat([lib.sin(args), lib.cos(args)], dim=1))

        def forward(self, x0, t, noise):
            a = self.alpha_bar[t][:, None, None, None]
            x = a.sqrt() * x0 + (1 - a).sqrt() * noise
            temb = self.embed_time(t)
            hs = [self.stem(x)]
            for i, block in enumerate(self.down):
                hs.append(block(hs[-1], temb))
                if i < len(self.downsample):
                    hs.append(self.downsample[i](hs[-1]))
            h = self.mid2(self.mid_attn(self.mid1(hs[-1], temb)), temb)
            ups = iter(self.upsample)
            for i, block in enumerate(self.up):
                h = block(lib.cat([h, hs.pop()], dim=1), temb)
                if i % 2 == 1 and i // 2 < len(self.upsample):
                    h = next(ups)(F.interpolate(h, scale_factor=2.0, mode="nearest"))
            return F.mse_loss(self.out(F.silu(self.norm(h))), noise)

    return UNet()


def t5(lib, vocab=VOCAB, dim=128, heads=4, depth=2, hidden=256, buckets=32, max_distance=128, pad=0):
    """A T5 v1.1-style encoder-decoder as Hugging Face's modeling_t5 writes it: T5LayerNorm (an
    RMS norm, no bias, no mean), attention without the 1/sqrt(d) scale plus a relative position
    bias (the relative positions' log-spaced buckets, bidirectional in the encoder and causal in
    the decoder, computed each forward, an Embedding per stack in its first layer, shared by the
    others), padding and causal masks added as large negatives, gated-GELU feed-forwards
    (gelu tanh of wi_0 times wi_1), dropout, an untied LM head on the decoder's output scaled
    by dim^-0.5, cross-entropy ignoring -100."""
    nn = lib.nn
    F = nn.functional
    import math
    inner = dim // heads

    class T5LayerNorm(nn.Module):
        def __init__(self):
            super().__init__()
            self.weight = nn.Parameter(lib.ones(dim))

        def forward(self, x):
            return self.weight * (x * lib.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6))

    def bucket(relative, bidirectional):
        n, out = buckets, 0
        if bidirectional:
            n //= 2
            out = (relative > 0).long() * n
            relative = lib.abs(relative)
        else:
            relative = -lib.min(relative, lib.zeros_like(relative))
        exact = n // 2
        large = exact + (lib.log(relative.float().clamp(min=1) / exact) / math.log(max_distance / exact)
                         * (n - exact)).long()
        large = lib.min(large, lib.full_like(large, n - 1))
        return out + lib.where(relative < exact, relative, large)

    class Attention(nn.Module):
        def __init__(self, bias=False, bidirectional=True):
            super().__init__()
            self.q, self.k, self.v, self.o = (nn.Linear(dim, dim, bias=False) for _ in range(4))
            self.bias = nn.Embedding(buckets, heads) if bias else None
            self.bidirectional = bidirectional

        def position_bias(self, queries, keys):
            relative = lib.arange(keys)[None, :] - lib.arange(queries)[:, None]
            return self.bias(bucket(relative, self.bidirectional)).permute(2, 0, 1).unsqueeze(0)

        def forward(self, x, memory, bias):
            b, n, _ = x.shape
            q = self.q(x).view(b, n, heads, inner).transpose(1, 2)
            k = self.k(memory).view(b, -1, heads, inner).transpose(1, 2)
            v = self.v(memory).view(b, -1, heads, inner).transpose(1, 2)
            scores = q @ k.transpose(2, 3) + bias
            weights = F.dropout(F.softmax(scores.float(), dim=-1).type_as(scores), 0.1, self.training)
            return self.o((weights @ v).transpose(1, 2).reshape(b, n, dim))

    class FeedForward(nn.Module):
        def __init__(self):
            super().__init__()
            self.wi_0, self.wi_1 = nn.Linear(dim, hidden, bias=False), nn.Linear(dim, hidden, bias=False)
            self.wo, self.drop = nn.Linear(hidden, dim, bias=False), nn.Dropout(0.1)

        def forward(self, x):
            return self.wo(self.drop(F.gelu(self.wi_0(x), approximate="tanh") * self.wi_1(x)))

    class Layer(nn.Module):
        def __init__(self, decoder, first):
            super().__init__()
            self.norm1, self.attn = T5LayerNorm(), Attention(first, not decoder)
            self.norm2, self.cross = (T5LayerNorm(), Attention()) if decoder else (None, None)
            self.norm3, self.ff, self.drop = T5LayerNorm(), FeedForward(), nn.Dropout(0.1)

        def forward(self, x, bias, memory=None, memory_bias=None):
            y = self.norm1(x)
            x = x + self.drop(self.attn(y, y, bias))
            if self.cross is not None:
                x = x + self.drop(self.cross(self.norm2(x), memory, memory_bias))
            return x + self.drop(self.ff(self.norm3(x)))

    class Stack(nn.Module):
        def __init__(self, decoder):
            super().__init__()
            self.layers = nn.ModuleList([Layer(decoder, i == 0) for i in range(depth)])
            self.norm, self.drop = T5LayerNorm(), nn.Dropout(0.1)

        def forward(self, x, mask, memory=None, memory_bias=None):
            bias = self.layers[0].attn.position_bias(x.shape[1], x.shape[1]) + mask
            x = self.drop(x)
            for layer in self.layers:
                x = layer(x, bias, memory, memory_bias)
            return self.drop(self.norm(x))

    class T5(nn.Module):
        def __init__(self):
            super().__init__()
            self.shared = nn.Embedding(vocab, dim)
            self.encoder, self.decoder = Stack(False), Stack(True)
            self.lm_head = nn.Linear(dim, vocab, bias=False)

        def forward(self, src, tgt):
            negative = -1e9
            src_mask = (src == pad)[:, None, None, :].float() * negative
            inputs, labels = tgt[:, :-1], tgt[:, 1:].masked_fill(tgt[:, 1:] == pad, -100)
            n = inputs.shape[1]
            causal = lib.triu(lib.ones(n, n), diagonal=1)[None, None] * negative
            memory = self.encoder(self.shared(src), src_mask)
            x = self.decoder(self.shared(inputs), causal, memory, src_mask)
            logits = self.lm_head(x * dim ** -0.5)
            return F.cross_entropy(logits.reshape(-1, vocab), labels.reshape(-1), ignore_index=-100)

    return T5()


def mae(lib, image=32, patch=4, dim=128, depth=4, heads=4, decoder_dim=64, decoder_depth=1, ratio=0.75):
    """A masked autoencoder (He et al., facebookresearch/mae's code): patches by a strided conv
    plus positions, a class token; random masking per sample by argsort of noise (the noise an
    input, as torch.rand in the step), the visible patches kept by gather, the restoring order
    by a second argsort; timm-style pre-norm blocks (one qkv Linear,
    F.scaled_dot_product_attention) on the visible patches; a light decoder (a Linear down,
    mask tokens appended, unshuffled by gather, its own positions and block); the loss the
    MSE to the per-patch-normalized pixels (patchified by reshape and einsum) over the masked
    patches only."""
    nn = lib.nn
    F = nn.functional
    count = (image // patch) ** 2

    class Block(nn.Module):
        def __init__(self, width, heads):
            super().__init__()
            self.heads = heads
            self.norm1, self.qkv, self.proj = nn.LayerNorm(width), nn.Linear(width, 3 * width), nn.Linear(width, width)
            self.norm2 = nn.LayerNorm(width)
            self.mlp = nn.Sequential(nn.Linear(width, 4 * width), nn.GELU(), nn.Linear(4 * width, width))

        def forward(self, x):
            b, n, c = x.shape
            q, k, v = self.qkv(self.norm1(x)).reshape(b, n, 3, self.heads, c // self.heads).permute(2, 0, 3, 1, 4)
            x = x + self.proj(F.scaled_dot_product_attention(q, k, v).transpose(1, 2).reshape(b, n, c))
            return x + self.mlp(self.norm2(x))

    class Mae(nn.Module):
        def __init__(self):
            super().__init__()
            self.patches = nn.Conv2d(3, dim, patch, stride=patch)
            self.cls = nn.Parameter(lib.randn(1, 1, dim) * 0.02)
            self.pos = nn.Parameter(lib.randn(1, count + 1, dim) * 0.02)
            self.blocks = nn.ModuleList([Block(dim, heads) for _ in range(depth)])
            self.norm = nn.LayerNorm(dim)
            self.decoder_embed = nn.Linear(dim, decoder_dim)
            self.mask_token = nn.Parameter(lib.randn(1, 1, decoder_dim) * 0.02)
            self.decoder_pos = nn.Parameter(lib.randn(1, count + 1, decoder_dim) * 0.02)
            self.decoder_blocks = nn.ModuleList([Block(decoder_dim, heads) for _ in range(decoder_depth)])
            self.decoder_norm, self.decoder_pred = nn.LayerNorm(decoder_dim), nn.Linear(decoder_dim, patch * patch * 3)

        def patchify(self, images):
            b, h = images.shape[0], image // patch
            x = images.reshape(b, 3, h, patch, h, patch)
            return lib.einsum("nchpwq->nhwpqc", x).reshape(b, count, patch * patch * 3)

        def forward(self, images, noise):
            x = self.patches(images).flatten(2).transpose(1, 2) + self.pos[:, 1:]
            b, n, c = x.shape
            keep = int(n * (1 - ratio))
            shuffle = lib.argsort(noise, dim=1)
            restore = lib.argsort(shuffle, dim=1)
            x = lib.gather(x, 1, shuffle[:, :keep].unsqueeze(-1).repeat(1, 1, c))
            mask = lib.ones(b, n)
            mask[:, :keep] = 0
            mask = lib.gather(mask, 1, restore)
            x = lib.cat([(self.cls + self.pos[:, :1]).expand(b, -1, -1), x], dim=1)
            for block in self.blocks:
                x = block(x)
            x = self.decoder_embed(self.norm(x))
            tokens = lib.cat([x[:, 1:], self.mask_token.repeat(b, n + 1 - x.shape[1], 1)], dim=1)
            tokens = lib.gather(tokens, 1, restore.unsqueeze(-1).repeat(1, 1, x.shape[2]))
            x = lib.cat([x[:, :1], tokens], dim=1) + self.decoder_pos
            for block in self.decoder_blocks:
                x = block(x)
            pred = self.decoder_pred(self.decoder_norm(x))[:, 1:]
            target = self.patchify(images)
            mean, var = target.mean(dim=-1, keepdim=True), target.var(dim=-1, keepdim=True)
            target = (target - mean) / (var + 1e-6) ** 0.5
            loss = ((pred - target) ** 2).mean(dim=-1)
            return (loss * mask).sum() / mask.sum()

    return Mae()


def gat(lib, features=64, hidden=8, heads=8, classes=8, slope=0.2, dropout=0.6):
    """A graph attention network (Velickovic et al.) on models_bench.py's random graph, as users
    write it without a graph library: per layer a Linear to heads x hidden, each head's
    attention logits of an edge the sum of its ends' scores (index_select), LeakyReLU, the
    softmax over each node's incoming edges (the maximum by scatter_reduce amax, exp, the sums
    by index_add_), dropout on the coefficients, the messages weighted and summed at the
    targets by index_add_; ELU between layers, the heads concatenated (averaged in the last),
    cross-entropy over the training nodes."""
    nn = lib.nn
    F = nn.functional

    class GatLayer(nn.Module):
        def __init__(self, cin, cout, heads, concat):
            super().__init__()
            self.heads, self.cout, self.concat = heads, cout, concat
            self.linear = nn.Linear(cin, heads * cout, bias=False)
            self.att_src = nn.Parameter(lib.randn(1, heads, cout) * 0.1)
            self.att_dst = nn.Parameter(lib.randn(1, heads, cout) * 0.1)
            self.bias = nn.Parameter(lib.zeros(heads * cout if concat else cout))

        def forward(self, x, source, target):
            n = x.shape[0]
            h = self.linear(F.dropout(x, dropout, self.training)).view(n, self.heads, self.cout)
            score_src, score_dst = (h * self.att_src).sum(-1), (h * self.att_dst).sum(-1)  # [nodes, heads]
            e = F.leaky_relu(score_src.index_select(0, source) + score_dst.index_select(0, target), slope)
            index = target.unsqueeze(1).expand(-1, self.heads)
            top = lib.zeros(n, self.heads).scatter_reduce(0, index, e, reduce="amax", include_self=False)
            e = (e - top.index_select(0, target)).exp()
            total = lib.zeros(n, self.heads).index_add_(0, target, e)
            alpha = F.dropout(e / (total.index_select(0, target) + 1e-16), dropout, self.training)
            out = lib.zeros_like(h).index_add_(0, target, h.index_select(0, source) * alpha.unsqueeze(-1))
            out = out.reshape(n, -1) if self.concat else out.mean(dim=1)
            return out + self.bias

    class Gat(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv1 = GatLayer(features, hidden, heads, True)
            self.conv2 = GatLayer(hidden * heads, classes, 1, False)

        def forward(self, x, edges, labels, train):
            loops = lib.arange(x.shape[0])
            source, target = lib.cat([edges[0], loops]), lib.cat([edges[1], loops])
            x = self.conv2(F.dropout(F.elu(self.conv1(x, source, target)), dropout, self.training), source, target)
            return F.cross_entropy(x[train], labels[train])

    return Gat()


def nerf(lib, width=128, depth=8, skip=4, position_freqs=10, direction_freqs=4, near=2.0, far=6.0):
    """A NeRF (Mildenhall et al., as nerf-pytorch writes it) rendering rays: points sampled
    evenly along each ray (with a jitter, an input), sin/cos positional encodings of the
    points (10 frequencies) and view directions (4); an MLP of `depth` ReLU Linears with the
    encoded point concatenated back at layer `skip`, a density head, a feature Linear and,
    with the encoded direction, a colour head (sigmoid); volume rendering (alpha from
    density and spacing, transmittance by an exclusive cumprod, weights, the colour's
    weighted sum); the MSE to the rays' true colours."""
    nn = lib.nn
    F = nn.functional

    def encode(x, freqs):
        scales = 2.0 ** lib.arange(freqs).float()
        angles = (x[..., None] * scales).flatten(-2)
        return lib.cat([x, lib.sin(angles), lib.cos(angles)], dim=-1)

    class Nerf(nn.Module):
        def __init__(self):
            super().__init__()
            cin, dirs = 3 + 6 * position_freqs, 3 + 6 * direction_freqs
            self.layers = nn.ModuleList([nn.Linear(cin, width)] + [
                nn.Linear(width + (cin if i == skip else 0), width) for i in range(1, depth)])
            self.density, self.feature = nn.Linear(width, 1), nn.Linear(width, width)
            self.views, self.rgb = nn.Linear(width + dirs, width // 2), nn.Linear(width // 2, 3)

        def forward(self, origins, directions, jitter, colours):
            rays, samples = jitter.shape
            t = near + (far - near) * (lib.arange(samples).float() + jitter) / samples  # [rays, samples]
            points = origins[:, None, :] + directions[:, None, :] * t[..., None]
            encoded = encode(points, position_freqs)
            view = F.normalize(directions, dim=-1)[:, None, :].expand(-1, samples, -1)
            h = encoded
            for i, layer in enumerate(self.layers):
                if i == skip:
                    h = lib.cat([encoded, h], dim=-1)
                h = F.relu(layer(h))
            sigma = F.relu(self.density(h)).squeeze(-1)
            h = F.relu(self.views(lib.cat([self.feature(h), encode(view, direction_freqs)], dim=-1)))
            rgb = lib.sigmoid(self.rgb(h))
            deltas = lib.cat([t[:, 1:] - t[:, :-1], lib.full_like(t[:, :1], 1e10)], dim=-1)
            deltas = deltas * directions.norm(dim=-1, keepdim=True)
            alpha = 1 - lib.exp(-sigma * deltas)
            transmittance = lib.cumprod(lib.cat([lib.ones_like(alpha[:, :1]), 1 - alpha + 1e-10], dim=-1), dim=-1)
            weights = alpha * transmittance[:, :-1]
            return F.mse_loss((weights[..., None] * rgb).sum(dim=1), colours)

    return Nerf()


def nerf_inputs(rng, rays, samples=32):
    """nerf's batch: ray origins and directions, the samples' jitter in [0, 1), true colours."""
    return (rng.standard_normal((rays, 3)).astype(np.float32), rng.standard_normal((rays, 3)).astype(np.float32),
            rng.random((rays, samples)).astype(np.float32), rng.random((rays, 3)).astype(np.float32))


def pixelcnn(lib, width=32, layers=6, levels=256):
    """A PixelCNN (van den Oord et al.) on 28x28 grey images as the common PyTorch ports write
    it: MaskedConv2d, an nn.Conv2d subclass whose forward convolves with its weight times a
    mask buffer (type A, the centre excluded, in the first 7x7 layer; type B after), each with
    BatchNorm2d and ReLU; a 1x1 conv to 256 intensities, cross-entropy per pixel against the
    quantized input."""
    nn = lib.nn
    F = nn.functional

    class MaskedConv2d(nn.Conv2d):
        def __init__(self, kind, cin, cout, kernel):
            super().__init__(cin, cout, kernel, padding=kernel // 2, bias=False)
            mask = lib.ones_like(self.weight)
            mask[:, :, kernel // 2, kernel // 2 + (kind == "B"):] = 0
            mask[:, :, kernel // 2 + 1:] = 0
            self.register_buffer("mask", mask)

        def forward(self, x):
            return F.conv2d(x, self.weight * self.mask, self.bias, self.stride, self.padding)

    def masked(kind, cin, kernel):
        return [MaskedConv2d(kind, cin, width, kernel), nn.BatchNorm2d(width), nn.ReLU(True)]

    class PixelCnn(nn.Module):
        def __init__(self):
            super().__init__()
            self.net = nn.Sequential(*masked("A", 1, 7), *[m for _ in range(layers) for m in masked("B", width, 3)],
                                     nn.Conv2d(width, levels, 1))

        def forward(self, images):
            target = (images[:, 0] * (levels - 1)).long()
            return F.cross_entropy(self.net(images), target)

    return PixelCnn()


def byol(lib, width=32, features=128, projection=64, hidden=256, momentum=0.99):
    """BYOL (Grill et al.) on two augmented views of 32x32 images: an online network (a small
    conv-BN-ReLU backbone, a projector MLP with BatchNorm1d) and a predictor; a target network
    (a deep copy of backbone and projector, no gradients) updated by an EMA of the online
    weights after each optimizer step (in-place lerp under no_grad); the loss 2 - 2 cosine of
    the normalized prediction and the target's projection (detached), symmetrized over the
    views. Its step (make_step) is the step of the authors' PyTorch ports."""
    nn = lib.nn
    F = nn.functional
    import copy

    def conv(cin, cout, stride):
        return [nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True)]

    def mlp(cin):
        return nn.Sequential(nn.Linear(cin, hidden), nn.BatchNorm1d(hidden), nn.ReLU(inplace=True),
                             nn.Linear(hidden, projection))

    class Byol(nn.Module):
        def __init__(self):
            super().__init__()
            backbone = nn.Sequential(*conv(3, width, 1), *conv(width, 2 * width, 2), *conv(2 * width, 2 * width, 1),
                                     *conv(2 * width, features, 2), nn.AdaptiveAvgPool2d(1), nn.Flatten())
            self.online = nn.Sequential(backbone, mlp(features))
            self.predictor = mlp(projection)
            self.target = copy.deepcopy(self.online)
            for p in self.target.parameters():
                p.requires_grad_(False)

        def make_step(self, lib, inputs, compile):
            one, two = inputs
            online, predictor, target = compile(self.online), compile(self.predictor), compile(self.target)
            trained = list(self.online.parameters()) + list(self.predictor.parameters())
            opt = lib.optim.Adam(trained, lr=3e-4)

            def regress(x, y):
                return 2 - 2 * (F.normalize(x, dim=-1) * F.normalize(y, dim=-1)).sum(dim=-1)

            def work():
                opt.zero_grad()
                p1, p2 = predictor(online(one)), predictor(online(two))
                with lib.no_grad():
                    z1, z2 = target(one), target(two)
                loss = (regress(p1, z2.detach()) + regress(p2, z1.detach())).mean()
                loss.backward()
                opt.step()
                with lib.no_grad():
                    for t, o in zip(self.target.parameters(), self.online.parameters()):
                        t.mul_(momentum).add_(o, alpha=1 - momentum)
                return loss
            return work

    return Byol()


def bottleneck_resnet(lib, planes=(16, 32, 64, 128), blocks=(2, 2, 2, 2), classes=10):
    """A ResNet-50-style net of torchvision's Bottleneck blocks (1x1 down, 3x3 (strided in a
    stage's first), 1x1 up by 4, batch norm after each, a 1x1 strided projection where the
    shape changes, the last batch norm's weights zero-initialized) narrowed for 32x32 images
    (a 3x3 stem, no max pool), the mean over pixels to a linear head."""
    nn = lib.nn

    class Bottleneck(nn.Module):
        def __init__(self, cin, width, stride):
            super().__init__()
            cout = 4 * width
            self.conv1, self.bn1 = nn.Conv2d(cin, width, 1, bias=False), nn.BatchNorm2d(width)
            self.conv2, self.bn2 = nn.Conv2d(width, width, 3, stride, 1, bias=False), nn.BatchNorm2d(width)
            self.conv3, self.bn3 = nn.Conv2d(width, cout, 1, bias=False), nn.BatchNorm2d(cout)
            nn.init.zeros_(self.bn3.weight)
            self.relu = nn.ReLU(inplace=True)
            self.downsample = (nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False), nn.BatchNorm2d(cout))
                               if stride != 1 or cin != cout else None)

        def forward(self, x):
            identity = x if self.downsample is None else self.downsample(x)
            out = self.relu(self.bn1(self.conv1(x)))
            out = self.relu(self.bn2(self.conv2(out)))
            return self.relu(self.bn3(self.conv3(out)) + identity)

    layers, cin = [nn.Conv2d(3, planes[0], 3, 1, 1, bias=False), nn.BatchNorm2d(planes[0]), nn.ReLU(inplace=True)], \
        planes[0]
    for i, (width, count) in enumerate(zip(planes, blocks)):
        for j in range(count):
            layers.append(Bottleneck(cin, width, 2 if i and not j else 1))
            cin = 4 * width
    layers += [nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(cin, classes)]
    return with_loss(nn, nn.Sequential(*layers))


def perceiver(lib, image=32, latents=64, dim=128, heads=4, depth=4, bands=8, classes=10):
    """A Perceiver classifying images as pixel arrays: each pixel's colour with Fourier features
    of its position (sin/cos of bands of frequencies, a buffer) projected to `dim`; learned
    latents cross-attending to the pixels once (pre-norm, one head, queries from the latents),
    then a stack of latent self-attention blocks (F.scaled_dot_product_attention over heads
    split by view/transpose, a GELU MLP), the latents' mean to a linear head."""
    nn = lib.nn
    F = nn.functional
    grid = np.stack(np.meshgrid(np.linspace(-1, 1, image), np.linspace(-1, 1, image), indexing="ij"), -1)
    angles = grid.reshape(-1, 2, 1) * np.pi * np.arange(1, bands + 1)  # [pixels, 2, bands]
    positions = np.concatenate([np.sin(angles), np.cos(angles)], -1).reshape(image * image, -1).astype(np.float32)

    class Attention(nn.Module):
        def __init__(self, count):
            super().__init__()
            self.count = count
            self.query, self.key, self.value, self.out = (nn.Linear(dim, dim) for _ in range(4))

        def forward(self, x, context):
            b = x.shape[0]
            split = lambda t: t.view(b, -1, self.count, dim // self.count).transpose(1, 2)  # noqa: E731
            y = F.scaled_dot_product_attention(split(self.query(x)), split(self.key(context)),
                                               split(self.value(context)))
            return self.out(y.transpose(1, 2).reshape(b, -1, dim))

    class Block(nn.Module):
        def __init__(self, count):
            super().__init__()
            self.norm, self.context_norm, self.mlp_norm = nn.LayerNorm(dim), nn.LayerNorm(dim), nn.LayerNorm(dim)
            self.attention = Attention(count)
            self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))

        def forward(self, x, context=None):
            x = x + self.attention(self.norm(x), self.norm(x) if context is None else self.context_norm(context))
            return x + self.mlp(self.mlp_norm(x))

    class Perceiver(nn.Module):
        def __init__(self):
            super().__init__()
            self.register_buffer("positions", lib.tensor(positions))
            self.embed = nn.Linear(3 + positions.shape[1], dim)
            self.latents = nn.Parameter(lib.randn(latents, dim) * 0.02)
            self.cross = Block(1)
            self.blocks = nn.ModuleList([Block(heads) for _ in range(depth)])
            self.norm, self.head = nn.LayerNorm(dim), nn.Linear(dim, classes)

        def forward(self, x):
            b = x.shape[0]
            pixels = lib.cat([x.flatten(2).transpose(1, 2), self.positions.expand(b, -1, -1)], dim=2)
            z = self.cross(self.latents.expand(b, -1, -1), self.embed(pixels))
            for block in self.blocks:
                z = block(z)
            return self.head(self.norm(z.mean(dim=1)))

    return with_loss(nn, Perceiver())


def wide_deep(lib, fields=(1000, 500, 300, 100, 50, 20, 10, 7), crosses=10000, dim=8, dense=6, hidden=(256, 128, 64)):
    """Wide & Deep (Cheng et al.) on tabular data: the wide part a linear model over hashed
    cross-feature ids (an EmbeddingBag of width 1, sum over each row's crosses) and the dense
    features; the deep part an Embedding per categorical field concatenated with the dense
    features, an MLP of ReLU and dropout to one logit; the two logits summed, BCEWithLogits."""
    nn = lib.nn

    class WideDeep(nn.Module):
        def __init__(self):
            super().__init__()
            self.wide = nn.EmbeddingBag(crosses, 1, mode="sum")
            self.wide_dense = nn.Linear(dense, 1)
            self.embeds = nn.ModuleList([nn.Embedding(n, dim) for n in fields])
            layers, cin = [], len(fields) * dim + dense
            for width in hidden:
                layers += [nn.Linear(cin, width), nn.ReLU(), nn.Dropout(0.1)]
                cin = width
            self.deep = nn.Sequential(*layers, nn.Linear(cin, 1))

        def forward(self, features, ids, cross_ids, cross_offsets, clicks):
            wide = self.wide(cross_ids, cross_offsets) + self.wide_dense(features)
            deep = self.deep(lib.cat([embed(ids[:, i]) for i, embed in enumerate(self.embeds)] + [features], dim=1))
            return nn.functional.binary_cross_entropy_with_logits((wide + deep).squeeze(1), clicks)

    return WideDeep()


def wide_deep_inputs(rng, batch, per=6):
    """wide_deep's batch: dense features, each field's id [batch, fields], the hashed crosses
    (`per` per row, flat) and their offsets, the clicks."""
    fields, crosses = wide_deep.__defaults__[:2]
    ids = np.stack([rng.integers(0, n, batch) for n in fields], axis=1)
    return (rng.standard_normal((batch, 6)).astype(np.float32), ids, rng.integers(0, crosses, batch * per),
            np.arange(0, batch * per, per), (rng.random(batch) < 0.25).astype(np.float32))


def char_gru(nn, vocab=65, width=64, hidden=256, layers=2):
    """A character-level language model on a GRU (tiny-shakespeare's 65 characters):
    embeddings, a two-layer batch-first nn.GRU with dropout between its layers, dropout, a
    Linear to the next character, cross-entropy over every position."""

    class CharGru(nn.Module):
        def __init__(self):
            super().__init__()
            self.embed = nn.Embedding(vocab, width)
            self.rnn = nn.GRU(width, hidden, num_layers=layers, batch_first=True, dropout=0.2)
            self.drop = nn.Dropout(0.2)
            self.out = nn.Linear(hidden, vocab)

        def forward(self, chars, target):
            y, _ = self.rnn(self.embed(chars))
            return nn.functional.cross_entropy(self.out(self.drop(y)).reshape(-1, vocab), target.reshape(-1))

    return CharGru()


def mnist_cnn(nn):
    """PyTorch's examples/mnist Net: two 3x3 convs with ReLU, a 2x2 max pool, dropout, a
    9216-wide Linear with ReLU and dropout, log_softmax and nll_loss (Adadelta, as there)."""
    F = nn.functional

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv1, self.conv2 = nn.Conv2d(1, 32, 3, 1), nn.Conv2d(32, 64, 3, 1)
            self.dropout1, self.dropout2 = nn.Dropout(0.25), nn.Dropout(0.5)
            self.fc1, self.fc2 = nn.Linear(9216, 128), nn.Linear(128, 10)

        def forward(self, x, target):
            x = F.max_pool2d(F.relu(self.conv2(F.relu(self.conv1(x)))), 2)
            x = self.dropout2(F.relu(self.fc1(self.dropout1(x).flatten(1))))
            return F.nll_loss(F.log_softmax(self.fc2(x), dim=1), target)

    return Net()


def ncf(lib, users=6040, items=3706, gmf=32, layers=(128, 64, 32)):
    """Neural collaborative filtering (NeuMF, He et al.) on MovieLens-1M's sizes: a GMF branch
    (the user's and item's embeddings multiplied) and an MLP branch (other embeddings
    concatenated, ReLU layers halving), both concatenated to one logit, BCEWithLogits on
    implicit feedback (a positive and negatives sampled per user)."""
    nn = lib.nn

    class NeuMf(nn.Module):
        def __init__(self):
            super().__init__()
            self.gmf_user, self.gmf_item = nn.Embedding(users, gmf), nn.Embedding(items, gmf)
            self.mlp_user, self.mlp_item = nn.Embedding(users, layers[0] // 2), nn.Embedding(items, layers[0] // 2)
            mlp = []
            for cin, cout in zip(layers, layers[1:]):
                mlp += [nn.Linear(cin, cout), nn.ReLU()]
            self.mlp = nn.Sequential(*mlp)
            self.predict = nn.Linear(gmf + layers[-1], 1)

        def forward(self, user, item, label):
            product = self.gmf_user(user) * self.gmf_item(item)
            deep = self.mlp(lib.cat([self.mlp_user(user), self.mlp_item(item)], dim=1))
            logit = self.predict(lib.cat([product, deep], dim=1)).squeeze(1)
            return nn.functional.binary_cross_entropy_with_logits(logit, label)

    return NeuMf()


def mobilenet_v3(lib, classes=10):
    """torchvision's MobileNetV3-Small narrowed for 32x32 images (a stride-1 stem): inverted
    residual blocks of expand, depthwise (3x3 or 5x5) and project convs with batch norm,
    ReLU or Hardswish, torchvision's SqueezeExcitation (ReLU, hardsigmoid) on some; a
    Hardswish classifier with dropout."""
    nn = lib.nn

    def conv_bn(cin, cout, kernel=1, stride=1, groups=1, act=None):
        layers = [nn.Conv2d(cin, cout, kernel, stride, kernel // 2, groups=groups, bias=False),
                  nn.BatchNorm2d(cout, eps=0.001, momentum=0.01)]
        return layers + [act(inplace=True)] if act else layers

    class SqueezeExcitation(nn.Module):
        def __init__(self, width, squeezed):
            super().__init__()
            self.fc1, self.fc2 = nn.Conv2d(width, squeezed, 1), nn.Conv2d(squeezed, width, 1)

        def forward(self, x):
            scale = self.fc2(nn.functional.relu(self.fc1(nn.functional.adaptive_avg_pool2d(x, 1))))
            return x * nn.functional.hardsigmoid(scale)

    class Block(nn.Module):
        def __init__(self, cin, kernel, hidden, cout, excite, act, stride):
            super().__init__()
            layers = conv_bn(cin, hidden, act=act) if hidden != cin else []
            layers += conv_bn(hidden, hidden, kernel, stride, hidden, act)
            layers += [SqueezeExcitation(hidden, (hidden // 4 + 7) // 8 * 8)] if excite else []
            self.block = nn.Sequential(*layers, *conv_bn(hidden, cout))
            self.residual = stride == 1 and cin == cout

        def forward(self, x):
            return x + self.block(x) if self.residual else self.block(x)

    relu, hswish = nn.ReLU, nn.Hardswish
    settings = ((16, 3, 16, 16, True, relu, 2), (16, 3, 72, 24, False, relu, 2), (24, 3, 88, 24, False, relu, 1),
                (24, 5, 96, 40, True, hswish, 2), (40, 5, 240, 40, True, hswish, 1), (40, 5, 120, 48, True, hswish, 1),
                (48, 5, 144, 48, True, hswish, 1), (48, 5, 288, 96, True, hswish, 2), (96, 5, 576, 96, True, hswish, 1))
    layers = conv_bn(3, 16, 3, 1, act=hswish) + [Block(*s) for s in settings] + conv_bn(96, 576, act=hswish)
    return with_loss(nn, nn.Sequential(*layers, nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(576, 1024),
                                       nn.Hardswish(inplace=True), nn.Dropout(0.2), nn.Linear(1024, classes)))


def resnext(lib, cardinality=8, group_width=8, stages=(64, 128, 256), blocks=(1, 1, 1), classes=10):
    """A ResNeXt-29 narrowed (cardinality 8, 8 channels a group) for 32x32 images: bottleneck
    blocks whose 3x3 conv is grouped (groups=cardinality), widths doubling by stage (strided
    in each stage's first), batch norm and ReLU, 1x1 projections where the shape changes."""
    nn = lib.nn

    class Block(nn.Module):
        def __init__(self, cin, cout, width, stride):
            super().__init__()
            self.body = nn.Sequential(
                nn.Conv2d(cin, width, 1, bias=False), nn.BatchNorm2d(width), nn.ReLU(inplace=True),
                nn.Conv2d(width, width, 3, stride, 1, groups=cardinality, bias=False), nn.BatchNorm2d(width),
                nn.ReLU(inplace=True), nn.Conv2d(width, cout, 1, bias=False), nn.BatchNorm2d(cout))
            self.shortcut = (nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False), nn.BatchNorm2d(cout))
                             if stride != 1 or cin != cout else nn.Identity())

        def forward(self, x):
            return nn.functional.relu(self.body(x) + self.shortcut(x))

    layers, cin, width = [nn.Conv2d(3, 64, 3, 1, 1, bias=False), nn.BatchNorm2d(64), nn.ReLU(inplace=True)], 64, \
        cardinality * group_width
    for i, (cout, count) in enumerate(zip(stages, blocks)):
        for j in range(count):
            layers.append(Block(cin, 4 * cout, width, 2 if i and not j else 1))
            cin = 4 * cout
        width *= 2
    layers += [nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(cin, classes)]
    return with_loss(nn, nn.Sequential(*layers))


def nbeats(lib, horizon=12, lookback=5, width=256, blocks=(3, 3), depth=4):
    """N-BEATS (generic) forecasting `horizon` steps from `lookback` horizons of history:
    stacks of blocks of `depth` ReLU Linear layers, each block's last features to a backcast
    (subtracted from its input) and a forecast (summed over blocks), MSE to the future."""
    nn = lib.nn
    history = lookback * horizon

    class Block(nn.Module):
        def __init__(self):
            super().__init__()
            layers, cin = [], history
            for _ in range(depth):
                layers += [nn.Linear(cin, width), nn.ReLU()]
                cin = width
            self.fc = nn.Sequential(*layers)
            self.backcast, self.forecast = nn.Linear(width, history), nn.Linear(width, horizon)

        def forward(self, x):
            h = self.fc(x)
            return self.backcast(h), self.forecast(h)

    class NBeats(nn.Module):
        def __init__(self):
            super().__init__()
            self.blocks = nn.ModuleList([Block() for _ in range(sum(blocks))])

        def forward(self, x, future):
            forecast = 0
            for block in self.blocks:
                backcast, f = block(x)
                x, forecast = x - backcast, forecast + f
            return nn.functional.mse_loss(forecast, future)

    return NBeats()


def series(rng, batch, horizon=12, lookback=5):
    """nbeats' batch: windows of random walks with a daily-like sine, their next `horizon`."""
    steps = np.arange((lookback + 1) * horizon)
    walks = np.cumsum(rng.standard_normal((batch, steps.size)), 1) * 0.1 + np.sin(
        2 * np.pi * (steps + rng.integers(0, 24, (batch, 1))) / 24)
    walks = walks.astype(np.float32)
    return walks[:, :-horizon], walks[:, -horizon:]


def bilstm_crf(lib, vocab=VOCAB, embed=64, hidden=128, tags=9):
    """A BiLSTM-CRF named-entity tagger (PyTorch's tutorial, batched): embeddings, a
    bidirectional batch-first nn.LSTM, emission scores by a Linear, a linear-chain CRF whose
    negative log-likelihood is the forward algorithm's log-partition (a logsumexp over the
    previous tag at each step, looped in Python, padded steps keeping the previous
    scores by where) minus the gold path's score (transitions gathered by index)."""
    nn = lib.nn

    class BiLstmCrf(nn.Module):
        def __init__(self):
            super().__init__()
            self.embed = nn.Embedding(vocab, embed)
            self.lstm = nn.LSTM(embed, hidden // 2, batch_first=True, bidirectional=True)
            self.emit = nn.Linear(hidden, tags)
            self.transitions = nn.Parameter(lib.randn(tags, tags) * 0.1)
            self.start, self.end = nn.Parameter(lib.zeros(tags)), nn.Parameter(lib.zeros(tags))

        def forward(self, tokens, labels, mask):
            emissions = self.emit(self.lstm(self.embed(tokens))[0])  # [B, T, tags]
            batch, steps = tokens.shape
            rows = lib.arange(batch)
            score = self.start + emissions[:, 0]
            gold = self.start[labels[:, 0]] + emissions[rows, 0, labels[:, 0]]
            for t in range(1, steps):
                step = score.unsqueeze(2) + self.transitions + emissions[:, t].unsqueeze(1)
                score = lib.where(mask[:, t].unsqueeze(1), lib.logsumexp(step, dim=1), score)
                moved = self.transitions[labels[:, t - 1], labels[:, t]] + emissions[rows, t, labels[:, t]]
                gold = gold + moved * mask[:, t]
            last = labels[rows, mask.sum(1) - 1]
            return (lib.logsumexp(score + self.end, dim=1) - gold - self.end[last]).mean()

    return BiLstmCrf()


def entities(rng, batch, length=30, tags=9):
    """bilstm_crf's batch: token rows (0 past lengths in [8, length]), their tags (0 past the
    ends) and the mask of real tokens."""
    tokens = padded(rng, batch, length, 8)
    mask = tokens != 0
    return tokens, np.where(mask, rng.integers(0, tags, tokens.shape), 0), mask


def skipgram(lib, vocab=VOCAB, dim=128):
    """word2vec's skip-gram with negative sampling: center and context embedding tables
    (sparse=False), the center's dot with its context and with K sampled negatives (bmm),
    -logsigmoid of the positives and of the negated negatives."""
    nn = lib.nn
    F = nn.functional

    class SkipGram(nn.Module):
        def __init__(self):
            super().__init__()
            self.center, self.context = nn.Embedding(vocab, dim), nn.Embedding(vocab, dim)
            nn.init.uniform_(self.center.weight, -0.5 / dim, 0.5 / dim)

        def forward(self, centers, contexts, negatives):
            c = self.center(centers)  # [B, dim]
            positive = (c * self.context(contexts)).sum(1)
            negative = lib.bmm(self.context(negatives), c.unsqueeze(2)).squeeze(2)  # [B, K]
            return -(F.logsigmoid(positive) + F.logsigmoid(-negative).sum(1)).mean()

    return SkipGram()


def dqn(lib, observations=8, actions=4, hidden=128, gamma=0.99):
    """A DQN update (Mnih et al., as PyTorch's reinforcement-learning tutorial writes it) on a
    replay batch: the online MLP's Q-values of the taken actions (gather), the target
    network's max over the next state's actions under no_grad, zeroed at terminal states,
    smooth_l1_loss between them; the target a copy of the online network."""
    nn = lib.nn

    def mlp():
        return nn.Sequential(nn.Linear(observations, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU(),
                             nn.Linear(hidden, actions))

    class Dqn(nn.Module):
        def __init__(self):
            super().__init__()
            self.online, self.target = mlp(), mlp()
            self.target.load_state_dict(self.online.state_dict())

        def forward(self, states, taken, rewards, next_states, done):
            q = self.online(states).gather(1, taken.unsqueeze(1)).squeeze(1)
            with lib.no_grad():
                future = self.target(next_states).max(1).values * (1 - done)
            return nn.functional.smooth_l1_loss(q, rewards + gamma * future)

    return Dqn()


def replay(rng, batch, observations=8, actions=4):
    """dqn's replay batch: states, actions taken, rewards, next states, terminal flags."""
    states = rng.standard_normal((batch, observations)).astype(np.float32)
    return (states, rng.integers(0, actions, batch), rng.standard_normal(batch).astype(np.float32),
            (states + 0.1 * rng.standard_normal(states.shape)).astype(np.float32),
            (rng.random(batch) < 0.05).astype(np.float32))


def tagged(rng, batch, length=40, tags=17):
    """gru_tagger's batch: token rows padded with 0 past lengths in [10, length], their tags
    (-100 at the padding)."""
    tokens = padded(rng, batch, length, 10)
    return tokens, np.where(tokens == 0, -100, rng.integers(0, tags, tokens.shape))


def models(batch):
    """name -> Model, sized by the batch."""
    rng = np.random.default_rng(0)
    images = lambda n, c, s: rng.standard_normal((n, c, s, s)).astype(np.float32)  # noqa: E731
    labels = lambda shape, classes: rng.integers(0, classes, shape)  # noqa: E731
    tokens = labels((batch // 2, 64), VOCAB)
    captions = labels((batch, 32), VOCAB)
    segments = labels((batch // 4, 64, 64), 6)
    segments[rng.random(segments.shape) < 0.05] = 255  # unlabelled pixels
    more = np.random.default_rng(1)  # the inputs of the models after deeplab, apart so that those keep theirs
    more_images = lambda n, c, s: more.standard_normal((n, c, s, s)).astype(np.float32)  # noqa: E731
    more_labels = lambda shape, classes: more.integers(0, classes, shape)  # noqa: E731
    newer = np.random.default_rng(2)  # the inputs of the models after mlp_vae
    newer_images = lambda n, c, s: newer.standard_normal((n, c, s, s)).astype(np.float32)  # noqa: E731
    latest = np.random.default_rng(3)  # the inputs of the models after bottleneck_resnet
    latest_images = lambda n, c, s: latest.standard_normal((n, c, s, s)).astype(np.float32)  # noqa: E731
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
        "vit_mha": Model(lambda lib: vit_mha(lib), (more_images(batch // 2, 3, 32), more_labels(batch // 2, 10)),
                         "adamw"),
        "unet_gn": Model(lambda lib: unet_gn(lib), (more_images(batch // 4, 3, 64),
                                                    (more.random((batch // 4, 1, 64, 64)) < 0.3).astype(np.float32)),
                         "adam"),
        "resmlp": Model(lambda lib: resmlp(lib), (more_images(batch // 2, 3, 32), more_labels(batch // 2, 10)),
                        "adamw"),
        "convnext_official": Model(lambda lib: convnext_official(lib),
                                   (more_images(batch // 2, 3, 32), more_labels(batch // 2, 10)), "adamw"),
        "transformer_tutorial": Model(lambda lib: transformer_tutorial(lib),
                                      (padded(more, batch, 32, 12), padded(more, batch, 33, 12)), "adam"),
        "gru_tagger": Model(lambda lib: gru_tagger(lib.nn), tagged(more, batch)),
        "deepfm": Model(lambda lib: deepfm(lib), deepfm_inputs(more, 8 * batch), "adam"),
        "quartznet": Model(lambda lib: quartznet(lib), (more.standard_normal((batch, 64, 101)).astype(np.float32),
                                                        more_labels(batch, 35)), "adamw"),
        "mlp_vae": Model(lambda lib: mlp_vae(lib), (more.random((4 * batch, 1, 28, 28)).astype(np.float32),), "adam"),
        "ddpm_unet": Model(lambda lib: ddpm_unet(lib), (newer_images(batch // 4, 3, 32),
                                                        newer.integers(0, 1000, batch // 4),
                                                        newer_images(batch // 4, 3, 32)), "adam"),
        "t5": Model(lambda lib: t5(lib), (padded(newer, batch, 32, 12), padded(newer, batch, 33, 12)), "adamw"),
        "mae": Model(lambda lib: mae(lib), (newer_images(batch, 3, 32), newer.random((batch, 64)).astype(np.float32)),
                     "adamw"),
        "gat": Model(lambda lib: gat(lib), graph_inputs(newer), "adam"),
        "nerf": Model(lambda lib: nerf(lib), nerf_inputs(newer, 4 * batch), "adam"),
        "pixelcnn": Model(lambda lib: pixelcnn(lib), (newer.random((batch // 4, 1, 28, 28)).astype(np.float32),),
                          "adam"),
        "byol": Model(lambda lib: byol(lib), (newer_images(batch // 2, 3, 32), newer_images(batch // 2, 3, 32))),
        "bottleneck_resnet": Model(lambda lib: bottleneck_resnet(lib),
                                   (newer_images(batch // 2, 3, 32), newer.integers(0, 10, batch // 2)), "sgd_wd"),
        # Drawn from a generator of their own, so that the models above keep their inputs.
        "perceiver": Model(lambda lib: perceiver(lib), (latest_images(batch // 2, 3, 32),
                                                        latest.integers(0, 10, batch // 2)), "adamw"),
        "wide_deep": Model(lambda lib: wide_deep(lib), wide_deep_inputs(latest, 16 * batch), "adagrad"),
        "char_gru": Model(lambda lib: char_gru(lib.nn), (latest.integers(0, 65, (batch, 100)),
                                                         latest.integers(0, 65, (batch, 100))), "adam"),
        "mnist_cnn": Model(lambda lib: mnist_cnn(lib.nn), (latest.standard_normal((2 * batch, 1, 28, 28)).astype(
            np.float32), latest.integers(0, 10, 2 * batch)), "adadelta"),
        "ncf": Model(lambda lib: ncf(lib), (latest.integers(0, 6040, 32 * batch), latest.integers(0, 3706, 32 * batch),
                                            (latest.random(32 * batch) < 0.2).astype(np.float32)), "adam"),
        "mobilenet_v3": Model(lambda lib: mobilenet_v3(lib), (latest_images(batch // 2, 3, 32),
                                                              latest.integers(0, 10, batch // 2)), "sgd_wd"),
        "resnext": Model(lambda lib: resnext(lib), (latest_images(batch // 2, 3, 32),
                                                    latest.integers(0, 10, batch // 2)), "sgd_wd"),
        "nbeats": Model(lambda lib: nbeats(lib), series(latest, 32 * batch), "adam"),
        "bilstm_crf": Model(lambda lib: bilstm_crf(lib), entities(latest, batch), "sgd"),
        "skipgram": Model(lambda lib: skipgram(lib), (latest.integers(0, VOCAB, 32 * batch),
                                                      latest.integers(0, VOCAB, 32 * batch),
                                                      latest.integers(0, VOCAB, (32 * batch, 5))), "adam"),
        "dqn": Model(lambda lib: dqn(lib), replay(latest, 4 * batch), "adam"),
    }


if __name__ == "__main__":
    main(__doc__, __file__, models)
