#!/usr/bin/env python3
"""TensorDash on whole (small) networks, against its dense twin of equal peak MACs.

  placement: every CI model compiles for the TensorDash config with no CPU layer that the dense
             twin does not also have (plan.json's on_cpu), so TensorDash never costs a layer its
             accelerator path. One known exception is reported, not failed: layer
             normalization, whose per-pixel sums need CONFIG_EX's transposer, which vector-PE
             configs lack (docs/compiler.md, "Layer normalization").
  speed:     a post-ReLU model runs bit-exact on both configs' RTL co-simulation (brickyard run
             exits 0 only then), and the TensorDash config takes fewer cycles, in total and in
             the accelerator's layers. Cycles are deterministic: this is not a timing test.

usage: tensordash_network_test.py placement|speed BRICKYARD MODEL_DIR TD_CONFIG DENSE_CONFIG
       WORK_DIR [MODEL...]
"""
import json
import os
import subprocess
import sys


def brickyard(binary, *args):
    cmd = [binary, *args]
    done = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if done.returncode != 0:
        sys.exit(f"FAIL: {' '.join(cmd)} exited {done.returncode}:\n{done.stdout}")
    return done.stdout


def cpu_layers(binary, model_dir, model, config, work):
    out = os.path.join(work, f"{model}.{os.path.basename(config)}")
    brickyard(binary, "compile", os.path.join(model_dir, model + ".onnx"), "--config", config,
              "-o", out, "--calib-random", "2", "--quiet")
    with open(os.path.join(out, "plan.json")) as f:
        plan = json.load(f)
    return {layer["name"]: (layer["kind"], layer.get("cpu_reason", ""))
            for layer in plan["layers"] if layer["on_cpu"]}


def needs_transposer(kind_reason):
    kind, reason = kind_reason
    return kind == "layernorm" and "transposer" in reason


def placement(binary, model_dir, td, dense, work, models):
    failed = False
    for model in models:
        on_td = cpu_layers(binary, model_dir, model, td, work)
        on_dense = cpu_layers(binary, model_dir, model, dense, work)
        extra = sorted(set(on_td) - set(on_dense))
        print(f"{model}: CPU layers on TensorDash {sorted(on_td.items())}, "
              f"on the dense twin {sorted(on_dense.items())}")
        gap = [name for name in extra if needs_transposer(on_td[name])]
        if gap:
            print(f"KNOWN GAP: {model}: layer normalization on the CPU without the transposer: {gap}")
        extra = [name for name in extra if name not in gap]
        if extra:
            print(f"FAIL: {model}: on the CPU only with TensorDash: {extra}")
            failed = True
    return failed


def run_cycles(binary, model_dir, model, config, work):
    report = os.path.join(work, f"{model}.{os.path.basename(config)}.json")
    onnx = os.path.join(model_dir, model + ".onnx")
    brickyard(binary, "run", onnx, "--config", config, "--input",
              os.path.join(model_dir, model + ".input.npy"), "--calib-random", "2",
              "--report", report, "--quiet")
    with open(report) as f:
        r = json.load(f)
    accel = sum(layer["cycles"] for layer in r["layers"] if not layer["on_cpu"])
    return r["total_cycles"], accel


def speed(binary, model_dir, td, dense, work, models):
    failed = False
    for model in models:
        td_total, td_accel = run_cycles(binary, model_dir, model, td, work)
        dn_total, dn_accel = run_cycles(binary, model_dir, model, dense, work)
        print(f"{model}: total cycles dense {dn_total}, TensorDash {td_total} "
              f"({dn_total / td_total:.3f}x); accelerator layers dense {dn_accel}, "
              f"TensorDash {td_accel} ({dn_accel / td_accel:.3f}x)")
        if not (td_total < dn_total and td_accel < dn_accel):
            print(f"FAIL: {model}: TensorDash is not faster than its dense twin")
            failed = True
    return failed


def main():
    if len(sys.argv) < 7 or sys.argv[1] not in ("placement", "speed"):
        sys.exit(__doc__)
    mode, binary, model_dir, td, dense, work = sys.argv[1:7]
    models = sys.argv[7:]
    os.makedirs(work, exist_ok=True)
    failed = (placement if mode == "placement" else speed)(binary, model_dir, td, dense, work,
                                                            models)
    print("FAILED" if failed else "passed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
