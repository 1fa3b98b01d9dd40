#!/bin/sh
exec "$(dirname "$0")/../lib/unit.sh" deadline
