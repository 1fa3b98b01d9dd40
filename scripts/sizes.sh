#!/bin/sh
# sizes.sh FILE...: the build line of each file's size in bytes. A file
# that is a symlink (out/kernel/vmlinuz points into the unpacked kernel
# package) is measured where it points: the link's own size is its
# target's name's length, which says nothing about the kernel.
set -eu

for f in "$@"; do
	echo "  size     $(stat -L -c %s "$f") $f"
done
