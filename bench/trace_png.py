"""Draws one graph call from MESHFLOW_TRACE files as a PNG: a row per rank's compute thread,
time left to right, each act a box coloured by its micro-batch (the `#k` in its name; grey
when there is none), so a pipeline's one-forward-one-backward pattern can be seen without a
trace viewer. No plotting library: the PNG is written with zlib.

    python3 bench/trace_png.py --trace /tmp/t --ranks 4 --out step.png

It draws the last call: what follows the optimizer updates (acts named *_update) that ended
the call before it.
"""
import argparse
import json
import re
import struct
import zlib

PALETTE = [(31, 119, 180), (255, 127, 14), (44, 160, 44), (214, 39, 40), (148, 103, 189), (140, 86, 75),
           (227, 119, 194), (127, 127, 127), (188, 189, 34), (23, 190, 207)]
PIECE = re.compile(r" #(\d+)$")


def png(path, width, height, pixels):
    """pixels: rows of (r, g, b) bytes."""
    raw = b"".join(b"\x00" + bytes(row) for row in pixels)

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)) +
                chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--trace", required=True, help="the MESHFLOW_TRACE prefix")
    ap.add_argument("--ranks", type=int, required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--width", type=int, default=1600)
    args = ap.parse_args()
    spans = []
    for rank in range(args.ranks):
        with open(f"{args.trace}.rank{rank}.json") as f:
            for e in json.load(f)["traceEvents"]:
                if e["tid"] == "compute":
                    spans.append((rank, e["ts"], e["ts"] + e["dur"], e["name"]))
    pieces = [s for s in spans if PIECE.search(s[3])]
    if not pieces:
        raise SystemExit("no act carries a micro-batch number: trace a pipelined graph call")
    # The last call: after the optimizer updates (acts named *_update) that ended the one before.
    updates = sorted(s for s in spans if s[3].endswith("_update") and s[0] == 0)
    ends = [a[2] for a, b in zip(updates, updates[1:]) if b[1] - a[2] > 5_000]  # each call's last update
    start = ends[-1] if ends else min(s[1] for s in pieces)
    end = max(s[2] for s in spans if s[1] >= start)
    row_h, gap = 40, 10
    height = args.ranks * (row_h + gap) + gap
    pixels = [bytearray(b"\xff\xff\xff" * args.width) for _ in range(height)]
    scale = (args.width - 1) / (end - start)
    for rank, s, e, name in spans:
        if e < start or s > end:
            continue
        m = PIECE.search(name)
        colour = PALETTE[int(m.group(1)) % len(PALETTE)] if m else (200, 200, 200)
        x0, x1 = int((max(s, start) - start) * scale), max(int((min(e, end) - start) * scale), int((max(s, start) - start) * scale) + 1)
        top = gap + rank * (row_h + gap)
        for y in range(top, top + row_h):
            row = pixels[y]
            for x in range(x0, min(x1, args.width)):
                row[3 * x:3 * x + 3] = bytes(colour)
    png(args.out, args.width, height, pixels)
    print(f"{args.out}: {args.ranks} ranks' compute threads over {(end - start) / 1e3:.1f} ms, "
          "one colour per micro-batch (grey: acts outside the micro-batches)")


if __name__ == "__main__":
    main()
