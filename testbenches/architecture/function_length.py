#!/usr/bin/env python3
"""Lists C and C++ functions longer than a limit (docs/architecture.md, "Generators").

Usage: function_length.py [--max N] [--root DIR] [--limit FOLDER=N]... PATH...
Scans every .cpp, .h and .c file under each PATH (relative to --root, default the current
directory). Exits 1 when a function body (from its opening to its closing brace) spans more
lines than its limit, 0 otherwise, 2 on bad arguments; prints every function over its limit as
FILE:LINE: NAME (N lines, limit L). The limit is N of --max (default 150), or that of the
longest --limit FOLDER (a path relative to --root, e.g. cli=80) holding the file.

The scan is lexical: comments, string and character literals are blanked, then braces are
matched. A brace block is a function body when the text before it (back to the previous ';',
'{' or '}') ends in ')' or in a trailing qualifier (const, override, noexcept, final, or a
trailing return type) and it is not a control statement (if, for, while, switch, catch) or a
lambda. Lambdas and other blocks inside a function count towards that function.
"""
import os
import re
import sys

QUALIFIERS = re.compile(r"\)\s*(const|override|final|noexcept|mutable|\s|->\s*[\w:<>,\s&*]+)*$")
CONTROL = re.compile(r"\b(if|for|while|switch|catch|do)\s*\(")
CONTAINER = re.compile(r"\b(namespace|class|struct|union|enum)\b")


def blank(text):
    """Comments and literals replaced by spaces; newlines kept so line numbers hold."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif text.startswith('R"', i) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            m = re.match(r'R"([^(]*)\(', text[i:])
            end = text.find(")" + m.group(1) + '"', i) if m else -1
            j = n if end < 0 else end + len(m.group(1)) + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c in "\"'":
            if c == "'" and i > 0 and text[i - 1].isalnum():  # digit separator 1'000
                out.append(c)
                i += 1
                continue
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(c + " " * (j - i - 1) + c)
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def functions(text):
    """(name, first line, last line) of every function body outside other functions."""
    code = blank(text)
    result, stack, start = [], [], 0  # stack of (kind, open index, name)
    for i, c in enumerate(code):
        if c in ";":
            start = i + 1
        elif c == "{":
            head = code[start:i].strip()
            inside = any(k == "function" for k, _, _ in stack)
            kind = "block"
            name = ""
            if not inside:
                if CONTAINER.search(head) and not head.endswith(")"):
                    kind = "container"
                elif QUALIFIERS.search(head) and not CONTROL.search(head.split("(")[0] + "("):
                    kind = "function"
                    m = re.search(r"([\w:~]+)\s*\([^()]*(\([^()]*\)[^()]*)*\)[^()]*$", head)
                    name = m.group(1) if m else head[:60]
            stack.append((kind, i, name))
            start = i + 1
        elif c == "}":
            if stack:
                kind, opened, name = stack.pop()
                if kind == "function":
                    first = code.count("\n", 0, opened) + 1
                    last = code.count("\n", 0, i) + 1
                    result.append((name, first, last))
            start = i + 1
    return result


def usage(message):
    print(f"function_length.py: {message}", file=sys.stderr)
    print(__doc__.strip().splitlines()[2], file=sys.stderr)
    return 2


def parse(argv):
    """(default limit, root, {folder: limit}, paths), or a message string."""
    limit, root, limits, paths = 150, ".", {}, []
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg in ("--max", "--root", "--limit"):
            if i + 1 == len(argv):
                return f"{arg} needs a value"
            value = argv[i + 1]
            i += 2
            if arg == "--root":
                root = value
                continue
            folder, _, number = value.rpartition("=") if arg == "--limit" else ("", "", value)
            if not number.isdigit() or int(number) == 0 or (arg == "--limit" and not folder):
                return f"{arg} {value}: expected {'FOLDER=' if arg == '--limit' else ''}N, N > 0"
            if arg == "--max":
                limit = int(number)
            else:
                limits[os.path.normpath(folder)] = int(number)
            continue
        if arg.startswith("-"):
            return f"unknown option {arg}"
        paths.append(arg)
        i += 1
    if not paths:
        return "no PATH to scan"
    return limit, root, limits, paths


def limit_of(path, default, limits):
    """The limit of the longest --limit folder holding `path` (relative to the root)."""
    best, best_len = default, -1
    for folder, n in limits.items():
        if (path == folder or path.startswith(folder + os.sep)) and len(folder) > best_len:
            best, best_len = n, len(folder)
    return best


def main(argv):
    parsed = parse(argv)
    if isinstance(parsed, str):
        return usage(parsed)
    default, root, limits, paths = parsed
    files = []
    for path in paths:
        full = os.path.join(root, path)
        if os.path.isdir(full):
            for folder, _, names in os.walk(full):
                files += [os.path.join(folder, f) for f in sorted(names)
                          if f.endswith((".cpp", ".h", ".c"))]
        elif os.path.isfile(full):
            files.append(full)
        else:
            return usage(f"{full}: no such file or folder")
    over = 0
    longest = (0, "")
    for path in sorted(files):
        rel = os.path.normpath(os.path.relpath(path, root))
        limit = limit_of(rel, default, limits)
        with open(path, encoding="utf-8") as f:
            text = f.read()
        for name, first, last in functions(text):
            lines = last - first + 1
            if lines > longest[0]:
                longest = (lines, f"{rel}:{first}: {name}")
            if lines > limit:
                print(f"{rel}:{first}: {name} ({lines} lines, limit {limit})")
                over += 1
    print(f"{len(files)} files, longest function {longest[0]} lines ({longest[1]}); "
          f"{over} over their limit")
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
