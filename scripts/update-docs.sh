#!/usr/bin/env bash
# Refreshes the generated sections of docs/ from the code (between the BEGIN/END GENERATED
# markers). Tests fail when the committed docs differ from what this writes.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
by="$root/build/bin/brickyard"
[ -x "$by" ] || "$root/scripts/build.sh" brickyard
replace() { # file topic
  python3 - "$1" "$2" "$("$by" doc "$2")" <<'PY'
import sys
path, topic, body = sys.argv[1], sys.argv[2], sys.argv[3]
begin = f"<!-- BEGIN GENERATED: brickyard doc {topic} -->"
end = "<!-- END GENERATED -->"
text = open(path).read()
i, j = text.index(begin) + len(begin), text.index(end, text.index(begin))
open(path, "w").write(text[:i] + "\n" + body.rstrip("\n") + "\n" + text[j:])
PY
}
replace "$root/docs/config.md" config
replace "$root/docs/isa.md" isa
replace "$root/docs/soc.md" soc
replace "$root/docs/evaluation.md" energy
echo "docs updated"
