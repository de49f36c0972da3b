"""Every optimizer against torch.optim bit for bit: 20 float32 steps of each configuration,
compared with the values torch 2.15 (CPU, its single-tensor steps) gave for the same
inputs, stored below (torch is not a dependency). torch computes x.add(y, alpha=a),
x.addcmul(t1, t2, value=v) and x.lerp(y, w) as fused multiply-adds: an update that rounded
twice would differ in a third of the elements after one step (ops/optimizer_math.h).

The parameter has 8 elements: torch's float32 sqrt of longer tensors goes through MKL's,
which is off by an ulp in about 0.7% of elements; meshflow's sqrt is correctly rounded, as
torch's is on shorter ones. `python3 test_optim_torch_bits.py` with torch importable
prints the table again.
"""
import numpy as np
import pytest

CONFIGS = [
    ("SGD", dict(lr=0.1)), ("SGD", dict(lr=0.1, momentum=0.9)),
    ("SGD", dict(lr=0.05, momentum=0.9, nesterov=True, weight_decay=0.01)),
    ("SGD", dict(lr=0.05, momentum=0.8, dampening=0.3, weight_decay=0.02)),
    ("SGD", dict(lr=0.05, momentum=0.9, maximize=True)),
    ("Adam", dict(lr=1e-2)), ("Adam", dict(lr=1e-2, weight_decay=0.1)), ("Adam", dict(lr=1e-2, amsgrad=True)),
    ("Adam", dict(lr=1e-2, betas=(0.3, 0.9))), ("AdamW", dict(lr=1e-2)),
    ("AdamW", dict(lr=1e-2, amsgrad=True, weight_decay=0.1)),
    ("Adagrad", dict(lr=0.1)),
    ("Adagrad", dict(lr=0.1, lr_decay=0.01, weight_decay=0.1, initial_accumulator_value=0.1)),
    ("Adadelta", dict(lr=1.0)), ("Adadelta", dict(lr=0.5, rho=0.8, weight_decay=0.1)),
    ("RMSprop", dict(lr=0.01)), ("RMSprop", dict(lr=0.01, centered=True)), ("RMSprop", dict(lr=0.01, momentum=0.9)),
    ("RMSprop", dict(lr=0.01, centered=True, momentum=0.9, weight_decay=0.1, alpha=0.3)),
    ("Adamax", dict(lr=0.01)), ("Adamax", dict(lr=0.01, weight_decay=0.1, betas=(0.3, 0.99))),
    ("NAdam", dict(lr=0.01)), ("NAdam", dict(lr=0.01, weight_decay=0.1)),
    ("NAdam", dict(lr=0.01, weight_decay=0.1, decoupled_weight_decay=True)),
    ("RAdam", dict(lr=0.01)), ("RAdam", dict(lr=0.01, weight_decay=0.1)),
    ("RAdam", dict(lr=0.01, weight_decay=0.1, decoupled_weight_decay=True)),
    ("ASGD", dict(lr=0.01)), ("ASGD", dict(lr=0.01, weight_decay=0.1, t0=5)),
    ("Rprop", dict(lr=0.01)),
]
STEPS, N = 20, 8


def inputs(seed):
    """The initial parameter and the gradient of each step (magnitudes over four decades)."""
    rng = np.random.default_rng(seed)
    w0 = rng.standard_normal(N).astype(np.float32)
    grads = [(rng.standard_normal(N) * 10 ** rng.uniform(-3, 1, N)).astype(np.float32) for _ in range(STEPS)]
    return w0, grads


def run(lib, name, options, seed):
    w0, grads = inputs(seed)
    w = lib.nn.Parameter(lib.tensor(w0))
    optimizer = getattr(lib.optim, name)([w], **options)
    for g in grads:
        w.grad = lib.tensor(g)
        optimizer.step()
    return w.detach().numpy()


def bits(values):
    return " ".join(f"{b:08x}" for b in np.asarray(values, np.float32).view(np.uint32))


# torch 2.15's parameters after the 20 steps, float32 bits, one row per configuration.
TORCH = """
3f31db0f bfc68733 401c95c4 bf689262 4000e205 3f598f5f 4005a1e2 402d01aa
412ed866 bf72de58 bef5eb0f c0afeb16 40664c6a c008a508 413019cb 3f9274a5
bfffe66b c0946f2c c10a98e7 c0155622 406cc56c c0f37a24 beac4802 c0a79e8d
400c4b1d bfe7bba3 bf9c03bf bda00466 be7f852c 3fcd2124 3f66aafd c0331aa0
c062e247 40583e55 c0cb1cfa 3f1e454e 3f94416a 3e45e6ed 40067d4b 3f5d4607
bf5a1687 bfaf276a be937491 3ef344fa 3f8fb588 3dfa6a59 bf10cd86 bf3f1a47
3f875090 3fd9df8d c0202c01 bdfdb718 3f76e7cd 3f9d98b0 3f1add13 3fb19e6d
3db15fb0 3ec227eb be8bf68b bf6d0c73 bf04e7d3 bf83a8d0 3da3e839 3fae6acd
bfe817b4 bfb320eb bfaef8aa bea8ef8e c01537e3 be7a20cb bf68fd79 3f64fc89
bf4d496f 3e98d151 bfcda9f9 3f0c43ab 3f9100df bee61048 3ecdc68a 3e240bc0
bf85c715 bf35f5db bf3eec15 3e9a20d1 be66e485 3df76f49 3f64bdc2 3f6ff917
bdce2b88 3fbd7a44 3f7c5561 becca186 be97d539 bf021d6b 3f18ddf5 becc81aa
bceae8d4 3f865783 3f04699c 3f3a6540 3fb54c61 bf9ec3b7 bed208e1 bfa5bd0f
3feab9a9 c044cdfa 3f7666e1 3da7ad30 3fa9c7a7 3ebb8e96 3fe9b11f 3cf9e00a
3f30ce9b bf7b03a9 bfc9b073 c03a8071 beb3c74e 3f9f7e11 3d26f8cd 3f01f719
bfbcf17b bf8bb9dd 3eeb0aa2 bee60a35 3f3dabf0 3f4beb3c bfdb432e 3f850263
bf058dc7 3f3e64a0 3f3820e2 3f8e8daa 3fd413e9 bea4c5dc 3eb37a49 bf29e39b
bf1258b1 40544861 3fa182f8 c0819cb7 c031ca17 bf915a3f 3e46db02 3f71239f
bf5a7f82 bf732aa7 3ed284f5 bf42fcc3 3feffc03 3e76468c bf14802c 3f2a4a70
bec34acd 3f76a274 3edcd383 bf22e047 3f306eae bfb56979 3f0c6d09 bf0c202f
beb8816e 3f9bf250 3fb123d3 3ea338f0 3ec781d9 bef84e99 bf622927 bf54706f
3ec42637 3fcce432 bfe50457 3fcf5b4a bcd0c7c8 bf491500 bf4fbca7 bf8b00f2
bfa6144e bf96b342 bfa4aafc bf271517 3fb3c411 bfbcc814 3f6e9d20 3fa0009d
3f08c9df 3e50399a bdbe0f3c c00eeb3c 3ecf2fe9 c004b64e 3f5f9e60 3f163853
3facccf2 3eb0ee8b bf90817c be3a7d8b be9d7dc0 be6fca07 3f18c207 bfa2d476
3eaf0e16 bd8284f5 bf071cb6 c01331ff 3cc2e155 3f67e020 3f851603 bf286e37
bff29358 c04021c8 3f9219e1 3fc6e894 3fa48448 bee57c23 bd7a8d9f be3c318a
3fa4ff65 3f52757a 3f794671 bfa0ebd6 3f54defd be59f12f bea1a4af 3f9a3ae5
bf88f604 3e17e578 be435344 bec42d14 3e62c9cf 3f42e32f 3d239beb bf97cd49
bed57ed8 3dcdb151 be01c6cf be39e92f 3d5e85df be52e6ef 3e7b1d4a bc9a6e5e
""".split("\n")[1:-1]


@pytest.mark.parametrize("index", range(len(CONFIGS)), ids=[f"{n}-{o}" for n, o in CONFIGS])
def test_twenty_float32_steps_are_torchs_bits(index):
    import meshflow as mf
    name, options = CONFIGS[index]
    assert bits(run(mf, name, options, index)) == TORCH[index]


if __name__ == "__main__":
    import torch
    print("\n".join(bits(run(torch, name, options, i)) for i, (name, options) in enumerate(CONFIGS)))
