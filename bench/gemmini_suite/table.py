#!/usr/bin/env python3
"""The results table of bench/gemmini_suite/run.sh, from OUT/logs/<program>.*: printed and
written atomically to OUT/results.md. Exit status 1 if any program failed."""
import argparse
import json
import os
import re
import sys

# Programs that test one optional Gemmini feature and exit 0 without testing anything when
# gemmini_params.h defines none of its macros (Gemmini's own #ifdef guards). Such a run passes
# as SKIP: the config lacks the feature, as the "done when" counts it.
FEATURE_GUARDS = {
    "mvin_scale": ["HAS_MVIN_SCALE", "HAS_MVIN_ACC_SCALE"],
    "mvin_mvout_acc_full": ["ACC_READ_FULL_WIDTH"],
    "tiled_matmul_ws_igelu": ["HAS_NORMALIZATIONS"],
    "tiled_matmul_ws_layernorm": ["HAS_NORMALIZATIONS"],
    "tiled_matmul_ws_softmax": ["HAS_NORMALIZATIONS"],
}

EXIT_MEANING = {124: "timeout (--max-cycles or --timeout)", 125: "guest fault or accelerator hang"}
FAILURE_WORDS = re.compile(r"wrong|fail|error|mismatch|incorrect|unsupported|not |abort|assert",
                           re.I)


def read(path):
    try:
        with open(path, errors="replace") as f:
            return f.read()
    except FileNotFoundError:
        return None


def first_error(build_log):
    """The compiler's first error, else the linker's first undefined symbol."""
    lines = (build_log or "").splitlines()
    for pattern in (r"error:", r"undefined reference"):
        for line in lines:
            if re.search(pattern, line) and "collect2" not in line:
                return re.sub(r"^\S*/", "", line.strip())  # the file's name, not its path
    return "build failed (see the log)"


def failure_message(stdout, stderr, rc):
    """The first line of the program's own complaint, else the simulator's last word, else the
    last line of text the program printed before its matrices (many Gemmini programs print
    only the operands and the wrong result)."""
    for line in stdout.splitlines():
        if FAILURE_WORDS.search(line):
            return line.strip()
    err = [l.strip() for l in stderr.splitlines() if l.strip()]
    if err:
        return err[-1]
    text = [l.strip() for l in stdout.splitlines()
            if re.search(r"[A-Za-z]", l) and not re.fullmatch(r"\s*\w+:\s*", l)]
    what = EXIT_MEANING.get(rc, f"exit code {rc}")
    return f"{what} after: {text[-1]}" if text else f"{what}, no message (printed matrices)"


def row(out, prog, defined):
    logs = os.path.join(out, "logs", prog)
    elf = os.path.join(out, "build", prog + ".elf")
    if not os.path.exists(elf):
        return [prog, "no", "", "FAIL", "", "", first_error(read(logs + ".build.log"))]
    rc_text = read(logs + ".rc")
    if rc_text is None:
        return [prog, "yes", "", "FAIL", "", "", "not run"]
    rc = int(rc_text)
    stdout, stderr = read(logs + ".out") or "", read(logs + ".err") or ""
    cycles = ""
    stats = read(logs + ".json")
    if stats:
        try:
            cycles = str(json.loads(stats)["simulated"]["cycles"])
        except (ValueError, KeyError, TypeError):
            pass
    wall = (read(logs + ".wall") or "").strip()
    guards = FEATURE_GUARDS.get(prog)
    if rc == 0 and guards and not any(g in defined for g in guards):
        status, note = "SKIP", "skipped itself: no " + " or ".join(guards)
    elif rc == 0:
        status, note = "PASS", ""
    else:
        status, note = "FAIL", failure_message(stdout, stderr, rc)
    return [prog, "yes", str(rc), status, cycles, wall, note.replace("|", "\\|")]


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--out", required=True)
    ap.add_argument("--params", required=True, help="the generated gemmini_params.h")
    ap.add_argument("--title", default="Gemmini bareMetalC")
    ap.add_argument("programs", nargs="+")
    args = ap.parse_args()
    defined = set(re.findall(r"^\s*#define\s+(\w+)", read(args.params) or "", re.M))
    rows = [row(args.out, p, defined) for p in args.programs]
    head = ["program", "built", "exit", "result", "cycles", "wall s", "first failure line"]
    lines = [f"## {args.title}", "", "| " + " | ".join(head) + " |",
             "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    count = {s: sum(r[3] == s for r in rows) for s in ("PASS", "SKIP", "FAIL")}
    lines += ["", f"{count['PASS']} passed, {count['SKIP']} skipped (pass), "
                  f"{count['FAIL']} failed of {len(rows)}"]
    text = "\n".join(lines) + "\n"
    path = os.path.join(args.out, "results.md")
    with open(path + ".tmp", "w") as f:
        f.write(text)
    os.replace(path + ".tmp", path)
    sys.stdout.write(text)
    return 1 if count["FAIL"] else 0


if __name__ == "__main__":
    sys.exit(main())
