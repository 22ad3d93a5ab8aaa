#!/usr/bin/env python3
"""Boveda: activations stored compressed between layers, proven from a run's counters.

A model runs bit-exact (brickyard run exits 0 only then) on a Boveda config twice: as compiled
(activations compressed where the convolution loops move them on both sides) and with
--no-boveda-activations. plan.json must name at least one compressed tensor, and for each:
  - its producer's DMA writes are exactly what the run stored (OUTPUT_STORED_BYTES: the
    containers of its blocks and their pointer entries), not the raw tensor, while the
    uncompressed run writes exactly the raw bytes;
  - each consumer moved at least the tensor's containers more in compressed form
    (COMPRESSED_BYTES) than in the uncompressed run (the loops' windows may read a row twice).
The counters are deterministic: this is not a timing test.

usage: boveda_activations_test.py BRICKYARD MODEL_DIR CONFIG WORK_DIR MODEL [--model rtl|func]
"""
import json
import os
import sys

from tensordash_network_test import brickyard  # runs brickyard, failing the test on an error


def main():
    binary, model_dir, config, work, model = sys.argv[1:6]
    kind = sys.argv[7] if len(sys.argv) > 7 and sys.argv[6] == "--model" else "rtl"
    os.makedirs(work, exist_ok=True)
    onnx = os.path.join(model_dir, model + ".onnx")
    common = ["--config", config, "--calib-random", "2", "--quiet"]
    plan_dir = os.path.join(work, "compiled")
    brickyard(binary, "compile", onnx, "-o", plan_dir, *common)
    with open(os.path.join(plan_dir, "plan.json")) as f:
        plan = json.load(f)
    compressed = {t["tensor"]: t["compressed"] for t in plan["memory"]["tensors"]
                  if "compressed" in t}
    if not compressed:
        sys.exit(f"FAIL: {model} on {config}: no activation tensor stored compressed")
    runs = {}
    for name, extra in (("compressed", []), ("raw", ["--no-boveda-activations"])):
        report = os.path.join(work, name + ".json")
        out = brickyard(binary, "run", onnx, "--input", os.path.join(model_dir, model + ".input.npy"),
                        "--model", kind, "--report", report, *common, *extra)
        if name == "compressed":
            print(out.strip().splitlines()[-4] if out.strip() else "")
        with open(report) as f:
            runs[name] = {l["name"]: l for l in json.load(f)["layers"]}
    failures = 0
    for layer in plan["layers"]:
        name, out_t = layer["name"], layer["output"]["tensor"]
        z, r = runs["compressed"][name]["counters"], runs["raw"][name]["counters"]
        raw = runs["compressed"][name]["output_raw_bytes"]
        if out_t in compressed:
            stored = z["OUTPUT_STORED_BYTES"]
            ok = (z["DMA_WRITE_BYTES"] == stored and r["DMA_WRITE_BYTES"] == raw and
                  0 < stored <= compressed[out_t]["stream_max_bytes"] +
                  compressed[out_t]["table_bytes"])
            print(f"{'ok  ' if ok else 'FAIL'} {name} writes {out_t}: {z['DMA_WRITE_BYTES']} bytes "
                  f"compressed (stored {stored}), {r['DMA_WRITE_BYTES']} raw (tensor {raw})")
            failures += not ok
        for t in layer["inputs"]:
            if t["tensor"] not in compressed:
                continue
            producer = next(l for l in plan["layers"] if l["output"]["tensor"] == t["tensor"])
            containers = (runs["compressed"][producer["name"]]["counters"]["OUTPUT_STORED_BYTES"] -
                          compressed[t["tensor"]]["table_bytes"])
            more = z["COMPRESSED_BYTES"] - r["COMPRESSED_BYTES"]
            ok = more >= containers > 0
            print(f"{'ok  ' if ok else 'FAIL'} {name} reads {t['tensor']}: {more} bytes more "
                  f"moved compressed, its containers {containers}")
            failures += not ok
    if failures:
        sys.exit(f"FAIL: {failures} checks")
    print(f"PASS: {len(compressed)} compressed tensors")


if __name__ == "__main__":
    main()
