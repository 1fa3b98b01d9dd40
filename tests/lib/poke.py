#!/usr/bin/env python3
"""poke.py: damage a backing file the way a faulty data path would.

  poke.py FILE flip OFFSET MASK        xor one byte with MASK
  poke.py FILE copy FROM TO LEN        copy LEN bytes from FROM to TO
  poke.py FILE save OFFSET LEN OUT     save LEN bytes at OFFSET to OUT
  poke.py FILE put OFFSET IN           write the bytes of IN at OFFSET
  poke.py FILE zero OFFSET LEN         zero LEN bytes
  poke.py FILE random OFFSET LEN       random bytes
  poke.py FILE text OFFSET TEXT        write TEXT (ASCII) at OFFSET
  poke.py FILE hex OFFSET HEX          write the bytes HEX (c001d00d) at OFFSET
"""
import os
import sys


def main(argv):
    path, op, args = argv[1], argv[2], argv[3:]
    with open(path, "r+b") as f:
        def at(off):
            f.seek(int(off, 0))
        if op == "flip":
            at(args[0])
            b = f.read(1)[0] ^ int(args[1], 0)
            at(args[0])
            f.write(bytes([b]))
        elif op == "copy":
            at(args[0])
            data = f.read(int(args[2], 0))
            at(args[1])
            f.write(data)
        elif op == "text":
            at(args[0])
            f.write(args[1].encode())
        elif op == "hex":
            at(args[0])
            f.write(bytes.fromhex(args[1]))
        elif op == "save":
            at(args[0])
            with open(args[2], "wb") as out:
                out.write(f.read(int(args[1], 0)))
        elif op == "put":
            at(args[0])
            with open(args[1], "rb") as inp:
                f.write(inp.read())
        elif op == "zero":
            at(args[0])
            f.write(bytes(int(args[1], 0)))
        elif op == "random":
            at(args[0])
            f.write(os.urandom(int(args[1], 0)))
        else:
            sys.exit("poke.py: unknown operation " + op)
        f.flush()
        os.fsync(f.fileno())


if __name__ == "__main__":
    main(sys.argv)
