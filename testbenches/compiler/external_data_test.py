#!/usr/bin/python3
"""A model whose tensors are stored as ONNX external data (as models over 2 GiB are saved) runs
as the same model stored in one file: `brickyard run` of lenet saved both ways, from another
working directory, gives the same output; a missing data file is an input error (exit 2) that
names the tensor and the file.

    external_data_test.py BRICKYARD MODELS_DIR WORK_DIR
"""
import os
import shutil
import subprocess
import sys

import numpy as np
import onnx


def run(brickyard, model, inp, out, cwd):
    r = subprocess.run([brickyard, "run", model, "--config", "tiny", "--input", inp,
                        "--model", "func", "--calib-random", "1", "--out", out, "--quiet"],
                       cwd=cwd, capture_output=True, text=True)
    return r.returncode, r.stdout + r.stderr


def main():
    brickyard, models, work = os.path.abspath(sys.argv[1]), sys.argv[2], sys.argv[3]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(os.path.join(work, "ext"))
    src = os.path.join(models, "lenet.onnx")
    inp = os.path.abspath(os.path.join(models, "lenet.input.npy"))
    m = onnx.load(src)
    onnx.save_model(m, os.path.join(work, "ext", "lenet.onnx"), save_as_external_data=True,
                    all_tensors_to_one_file=True, location="lenet.weights", size_threshold=0)
    stored = [t.name for t in onnx.load(os.path.join(work, "ext", "lenet.onnx"),
                                        load_external_data=False).graph.initializer
              if t.data_location == onnx.TensorProto.EXTERNAL]
    assert len(stored) >= 4, f"only {stored} went to the external file"
    print(f"{len(stored)} tensors in ext/lenet.weights", flush=True)

    rc, log = run(brickyard, os.path.abspath(src), inp, "inline.npy", work)
    assert rc == 0, log
    rc, log = run(brickyard, "ext/lenet.onnx", inp, "external.npy", work)  # relative path
    assert rc == 0, log
    a, b = (np.load(os.path.join(work, f)) for f in ("inline.npy", "external.npy"))
    assert a.shape == b.shape and np.array_equal(a, b), "outputs differ"
    print(f"the same {a.size} outputs from both forms")

    os.remove(os.path.join(work, "ext", "lenet.weights"))
    rc, log = run(brickyard, "ext/lenet.onnx", inp, "missing.npy", work)
    assert rc == 2 and "lenet.weights" in log and stored[0] in log, (rc, log)
    print("missing data file: exit 2:", log.strip().splitlines()[-1])


if __name__ == "__main__":
    main()
