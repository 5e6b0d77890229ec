"""Prints the PTX embedded in `gpu.binary` ops of an MLIR module (the output
of `gpu-module-to-binary{format=isa}`), one `// gpu.binary @name` header per
binary. Reads the module from stdin; with `--out-dir DIR`, also writes each
PTX to DIR/<name>.ptx (for ptxas)."""

import os
import re
import sys

BINARY = re.compile(r'gpu\.binary\s+@([\w$.]+)')
ASSEMBLY = re.compile(r'assembly\s*=\s*"((?:[^"\\]|\\.)*)"')
ESCAPE = re.compile(r'\\([0-9A-Fa-f]{2}|\\|")')


def unescape(s):
    def repl(m):
        g = m.group(1)
        return g if g in ('\\', '"') else chr(int(g, 16))
    return ESCAPE.sub(repl, s)


def main():
    out_dir = None
    if len(sys.argv) == 3 and sys.argv[1] == '--out-dir':
        out_dir = sys.argv[2]
        os.makedirs(out_dir, exist_ok=True)
    text = sys.stdin.read()
    found = 0
    for m in BINARY.finditer(text):
        name = m.group(1)
        a = ASSEMBLY.search(text, m.end())
        if not a:
            continue
        ptx = unescape(a.group(1))
        found += 1
        print('// gpu.binary @' + name)
        print(ptx)
        if out_dir:
            with open(os.path.join(out_dir, name + '.ptx'), 'w') as f:
                f.write(ptx)
    if not found:
        sys.exit('extract_ptx.py: no gpu.binary with an assembly string')


if __name__ == '__main__':
    main()
