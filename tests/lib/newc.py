#!/usr/bin/env python3
"""newc.py: list or extract a (gzip'd) initramfs of one or more newc cpio
archives in a row, as the kernel reads it (cpio(1) stops at the first
trailer).

  newc.py list IMAGE          names, one a line
  newc.py extract IMAGE DIR   regular files and links only
"""
import gzip
import os
import sys


def entries(data):
    pos = 0
    while pos + 110 <= len(data):
        if data[pos:pos + 6] != b"070701":
            pos += 4    # padding between archives
            continue
        f = [int(data[pos + 6 + 8 * i:pos + 14 + 8 * i], 16) for i in range(13)]
        mode, size, namesize = f[1], f[6], f[11]
        name = data[pos + 110:pos + 110 + namesize - 1].decode()
        pos = (pos + 110 + namesize + 3) & ~3
        body = data[pos:pos + size]
        pos = (pos + size + 3) & ~3
        if name != "TRAILER!!!":
            yield name, mode, body


def main(argv):
    data = gzip.open(argv[2]).read()
    if argv[1] == "list":
        for name, _, _ in entries(data):
            print(name[2:] if name.startswith("./") else name)
        return
    out = argv[3]
    for name, mode, body in entries(data):
        path = os.path.join(out, name)
        kind = mode & 0o170000
        if kind == 0o040000:
            os.makedirs(path, exist_ok=True)
        elif kind == 0o100000:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "wb") as f:
                f.write(body)
        elif kind == 0o120000:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            if not os.path.lexists(path):
                os.symlink(body.decode(), path)


if __name__ == "__main__":
    main(sys.argv)
