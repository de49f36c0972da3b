"""A sweep of the ResNet-style CNNs with batch norm that users train, meshflow beside PyTorch
eager and torch.compile in the same run: training steps as bench/models_bench.py times them
(its options, its processes; --batch scales every case's batch, 32 giving the ones below).

    PYTHONPATH=build/python:$(echo /root/tv/lib/python3*/site-packages) /usr/bin/python3 \\
        bench/cnn_bench.py --compile --threads 2 1 --rounds 2 --repeat 5 [--only resnet20,resnet20_cl]

The cases: CIFAR's ResNet-20 and ResNet-56 (widths 16-32-64, 3 and 9 basic blocks a stage,
32x32 images, a 1x1 conv with batch norm as each downsampling shortcut, torchvision's
BasicBlock) at batches 16, 32 and 128; ResNet-18's layout at half its widths on 32x32 and
64x64 images; torchvision's Bottleneck blocks (bench/layers_bench.py's bottleneck_resnet); each
row-major and channels-last (_cl); SGD with momentum and weight decay 5e-4, ResNet-20 with
Adam too; cross-entropy over 10 labels.
"""
import numpy as np

from models_bench import RESNET18, Model, main
from layers_bench import bottleneck_resnet, small_resnet

RESNET20 = ((16, 32, 64), (3, 3, 3), 3)
RESNET56 = ((16, 32, 64), (9, 9, 9), 3)


def models(batch):
    """name -> Model for the sweep, batches as multiples of `batch` / 32."""
    rng = np.random.default_rng(0)

    def data(n, size):
        n = max(n * batch // 32, 2)
        return rng.standard_normal((n, 3, size, size)).astype(np.float32), rng.integers(0, 10, n)

    table = {}
    for name, build, n, size, optimizer in (
            ("resnet20", lambda lib: small_resnet(lib.nn, *RESNET20), 32, 32, "sgd_wd"),
            ("resnet20_b16", lambda lib: small_resnet(lib.nn, *RESNET20), 16, 32, "sgd_wd"),
            ("resnet20_b128", lambda lib: small_resnet(lib.nn, *RESNET20), 128, 32, "sgd_wd"),
            ("resnet20_adam", lambda lib: small_resnet(lib.nn, *RESNET20), 32, 32, "adam"),
            ("resnet56_b16", lambda lib: small_resnet(lib.nn, *RESNET56), 16, 32, "sgd_wd"),
            ("resnet18_32", lambda lib: small_resnet(lib.nn, *RESNET18), 16, 32, "sgd_wd"),
            ("resnet18_64", lambda lib: small_resnet(lib.nn, *RESNET18), 16, 64, "sgd_wd"),
            ("bottleneck", lambda lib: bottleneck_resnet(lib.nn), 32, 32, "sgd_wd")):
        inputs = data(n, size)
        table[name] = Model(build, inputs, optimizer)
        table[name + "_cl"] = Model(build, inputs, optimizer, channels_last=True)
    return table


if __name__ == "__main__":
    main(__doc__, __file__, models)
