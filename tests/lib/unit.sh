#!/bin/sh
# Runs the C unit test named $1 (tests/unit/$1.c), which `make check` builds
# into out/tests/ with ASan and UBSan; its TAP goes straight to prove.
top=$(cd "$(dirname "$0")/../.." && pwd)
bin="$top/out/tests/$1"
if [ ! -x "$bin" ]; then
	echo "Bail out! $bin is not built: run make check"
	exit 1
fi
exec "$bin"
