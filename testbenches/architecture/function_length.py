#!/usr/bin/env python3
"""Lists C++ functions longer than a limit (docs/architecture.md, "Generators").

Usage: function_length.py [--max N] FILE_OR_DIR...
Exits 1 when a function body (from its opening to its closing brace) spans more than N lines
(default 150), 0 otherwise; prints every function over the limit as FILE:LINE: NAME (N lines).

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


def main(argv):
    limit = 150
    if len(argv) > 1 and argv[0] == "--max":
        limit = int(argv[1])
        argv = argv[2:]
    if not argv:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    files = []
    for path in argv:
        if os.path.isdir(path):
            for root, _, names in os.walk(path):
                files += [os.path.join(root, f) for f in sorted(names) if f.endswith((".cpp", ".h"))]
        else:
            files.append(path)
    over = 0
    longest = (0, "")
    for path in sorted(files):
        with open(path, encoding="utf-8") as f:
            text = f.read()
        for name, first, last in functions(text):
            lines = last - first + 1
            if lines > longest[0]:
                longest = (lines, f"{path}:{first}: {name}")
            if lines > limit:
                print(f"{path}:{first}: {name} ({lines} lines)")
                over += 1
    print(f"{len(files)} files, longest function {longest[0]} lines ({longest[1]}); "
          f"{over} over {limit}")
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
