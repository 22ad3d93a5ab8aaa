#!/usr/bin/python3
"""Random accelerator configs through the whole user path (docs/testing.md, "Random configs").

    /usr/bin/python3 testbenches/fuzzer/config_fuzz.py [--first SEED] [--count N] [--rtl]
        [--brickyard PATH] [--out DIR] [MODEL ...]

Each seed draws a config (array shape, lanes, dataflows, widths, memories, DMA, loops, function
table, TensorDash, Boveda) the way a user might write one, then:
  - `brickyard gen`: accepted, or refused with exit 2 and FILE:LINE:COL (anything else fails);
  - `brickyard lint`: Verilator -Wall and Icarus silent;
  - `brickyard run` of each MODEL (default: the CI models resnet_block, mbv2_block, pool_concat)
    on the functional model (`--rtl`: on the RTL co-simulation too): bit-exact with the int8
    reference, or refused with exit 2 and a message (a config the compiler cannot use).
One line per seed; exit 1 if any seed failed. Configs and logs stay in DIR (default a temporary
directory, printed), so a failing seed can be replayed by hand.
"""
import argparse
import os
import random
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def draw(seed):
    """The config text of `seed`."""
    r = random.Random(seed)
    pick = lambda xs: xs[r.randrange(len(xs))]
    tile = pick([1, 1, 1, 2])
    mesh = pick([2, 4, 8]) if tile == 1 else pick([1, 2, 4])
    lanes = pick([1, 1, 2, 4, 8])
    df = pick(["ws", "os", "both", "both"])
    iw = pick([8, 8, 8, 8, 8, 16])
    aw = pick([32, 32, 64]) if iw == 8 else pick([32, 64])
    sow = max(iw, min(aw, pick([2 * iw, 20 if iw == 8 else 32, aw])))
    td = lanes > 1 and df != "ws" and r.random() < 0.6
    text = f"""name: fuzz{seed}
array: {{mesh_rows: {mesh}, mesh_cols: {mesh}, tile_rows: {tile}, tile_cols: {tile}, lanes: {lanes}, dataflow: {df}}}
types: {{input_width: {iw}, acc_width: {aw}, spatial_output_width: {sow}}}
memory:
  scratchpad: {{capacity_kib: {pick([4, 8, 16, 64, 256])}, banks: {pick([1, 2, 4, 8])}, ports: {pick([1, 1, 2])}, rows_per_word: {pick([1, 1, 2, 4]) if td else 1}}}
  accumulator: {{capacity_kib: {pick([2, 4, 16, 64])}, banks: {pick([1, 2, 4])}}}
dma: {{bus_width: {pick([32, 64, 128, 256])}, max_inflight: {pick([1, 2, 8, 32])}, max_burst: {pick([1, 4, 16])}, max_bytes: {pick([64, 128, 256])}}}
loops: {{ws: {str(df != 'os' and lanes == 1 and r.random() < 0.6).lower()}, conv: {str(r.random() < 0.6).lower()}}}
activations: {{table: {str(iw == 8 and r.random() < 0.5).lower()}}}
"""
    if td:
        text += (f"sparsity:\n  tensordash: {{enabled: true, lookahead: {pick([1, 2])}, "
                 f"rows_per_scheduler: {pick([1, 1, 2, 4])}, "
                 f"schedule_b: {str(r.random() < 0.7).lower()}}}\n")
    if r.random() < 0.4:
        text += (f"compression:\n  boveda: {{enabled: true, group_size: {pick([8, 16, 32])}, "
                 f"header_bits: {pick([4, 5])}, container_bits: {pick([128, 256, 512])}, "
                 f"zero_aware: {str(r.random() < 0.5).lower()}}}\n")
    # Drawn last, so that the draws above (and the configs of older seeds) stay as they were.
    text += f"commands: {{reservation_station_entries: {pick([4, 8, 16, 16, 32, 64])}}}\n"
    return text


def last_line(text):
    lines = [l for l in text.strip().splitlines() if l.strip()]
    return lines[-1] if lines else "(no output)"


def check(seed, args, out):
    """One seed: (ok, summary)."""
    name = f"fuzz{seed}"
    cfg = os.path.join(out, name + ".yaml")
    with open(cfg, "w") as f:
        f.write(draw(seed))
    run = lambda argv: subprocess.run(argv, capture_output=True, text=True)
    gen = run([args.brickyard, "gen", cfg, "-o", os.path.join(out, name), "--quiet"])
    if gen.returncode == 2:
        msg = last_line(gen.stderr)
        return msg.startswith(cfg + ":"), "refused: " + msg.replace(cfg, name + ".yaml")
    if gen.returncode != 0:
        return False, f"gen exit {gen.returncode}: {last_line(gen.stderr)}"
    lint = run([args.brickyard, "lint", os.path.join(out, name)])
    if "verilator 0 warnings 0 errors, iverilog 0 warnings 0 errors" not in lint.stdout:
        return False, "lint: " + last_line(lint.stdout)
    models = os.path.join(ROOT, "testbenches", "compiler", "models")
    results, ok = [], True
    for kind in ["func", "rtl"] if args.rtl else ["func"]:
        for m in args.models:
            r = run([args.brickyard, "run", os.path.join(models, m + ".onnx"), "--config", cfg,
                     "--input", os.path.join(models, m + ".input.npy"), "--model", kind,
                     "--calib-random", "2", "--quiet", "--cache-dir",
                     os.path.join(out, "cache"), "--max-cycles", "50000000"])
            exact = "bit-exact with the int8 reference" in r.stdout
            ok = ok and (exact or r.returncode == 2)
            results.append(f"{m}/{kind}=" + ("exact" if exact else
                                             f"exit {r.returncode}: {last_line(r.stderr)}"))
    return ok, "gen, lint clean; " + "; ".join(results)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--first", type=int, default=1, help="first seed (default 1)")
    p.add_argument("--count", type=int, default=20, help="seeds (default 20)")
    p.add_argument("--rtl", action="store_true", help="also run on the RTL co-simulation")
    p.add_argument("--brickyard", default=os.path.join(ROOT, "build", "bin", "brickyard"))
    p.add_argument("--out", help="where configs, RTL and caches go (default: a temporary dir)")
    p.add_argument("models", nargs="*", default=["resnet_block", "mbv2_block", "pool_concat"])
    args = p.parse_args()
    out = args.out or tempfile.mkdtemp(prefix="config_fuzz_")
    os.makedirs(out, exist_ok=True)
    print(f"config_fuzz: seeds {args.first}..{args.first + args.count - 1}, output in {out}",
          flush=True)
    failed = 0
    for seed in range(args.first, args.first + args.count):
        ok, summary = check(seed, args, out)
        failed += not ok
        print(f"seed {seed}: {'ok' if ok else 'FAIL'}: {summary}", flush=True)
    print(f"config_fuzz: {args.count - failed} of {args.count} seeds ok")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
