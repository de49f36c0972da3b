"""A quick end-to-end check on any number of ranks: a boxing round trip through every
1-d SBP on the world mesh (each step compared with the full value), then, with --gpt, a
few training steps of the GPT on a data x model mesh whose losses must equal one device's.

    python3 -m meshflow.launch --nproc 2 examples/smoke.py
    python3 -m meshflow.launch --nproc 4 examples/smoke.py --gpt 2x2x1

Used by scripts/check-fresh on a clean Debian root; exits non-zero on any mismatch.
"""
import argparse
import os
import sys

import numpy as np

import meshflow as mf
from meshflow import sbp


def boxing_round_trip():
    world = mf.env.get_world_size()
    mesh = mf.placement("cpu", ranks=list(range(world)))
    full = np.arange(7 * 5, dtype=np.float32).reshape(7, 5)  # uneven on every mesh but [1] and [7]
    x = mf.tensor(full, placement=mesh, sbp=sbp.broadcast)
    for target in (sbp.split(0), sbp.split(1), sbp.broadcast, sbp.split(1), sbp.split(0)):
        x = x.to_global(placement=mesh, sbp=target)
        np.testing.assert_array_equal(x.numpy(), full, err_msg=f"after boxing to {target}")
    # Local parts as a partial sum: every rank holds full / world, boxing adds them up.
    part = mf.from_numpy(full / world).to_global(placement=mesh, sbp=sbp.partial_sum)
    np.testing.assert_allclose(part.to_global(placement=mesh, sbp=sbp.split(0)).numpy(), full, rtol=1e-6)
    if mf.env.get_rank() == 0:
        print(f"smoke: boxing round trip on [{world}] ok", flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gpt", metavar="DxMx1", help="also train the GPT under this layout and compare with 1x1x1")
    args = ap.parse_args()
    boxing_round_trip()
    if not args.gpt:
        return
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "gpt"))
    import train  # noqa: E402  (examples/gpt/train.py)

    def losses(layout):
        d, tp, _, _, _ = train.parse_layout(layout)
        args = train.parse_args([f"--layout={layout}", "--steps=3", "--block=16", "--log-every=100", "--sample=0"])
        return np.array(train.train(args, train.mesh(d, tp))["losses"])

    layout = f"{args.gpt}_8_32x1"
    reference, got = losses("1x1x1_8_32x1"), losses(layout)
    np.testing.assert_allclose(got, reference, rtol=1e-4, err_msg=f"GPT {layout} against 1x1x1")
    if mf.env.get_rank() == 0:
        print(f"smoke: GPT {layout} losses {', '.join(f'{v:.4f}' for v in got)} equal 1x1x1", flush=True)


if __name__ == "__main__":
    main()
