#!/usr/bin/env python3
"""Accepts exactly the inputs the statement allows: T, then T lines of n."""
import re
import sys

INTEGER = re.compile(r"(0|[1-9][0-9]*)\n")


def refuse(why):
    print(why)
    sys.exit(43)


lines = sys.stdin.buffer.read().decode("ascii", errors="replace").splitlines(keepends=True)
if not lines or not INTEGER.fullmatch(lines[0]):
    refuse("line 1: T must be an integer on a line of its own")
count = int(lines[0])
if not 1 <= count <= 10_000:
    refuse(f"line 1: T = {count} is outside 1..10000")
if len(lines) != count + 1:
    refuse(f"{len(lines) - 1} games for T = {count}")
for number, line in enumerate(lines[1:], start=2):
    if not INTEGER.fullmatch(line):
        refuse(f"line {number}: n must be an integer on a line of its own")
    if not 1 <= int(line) <= 10**18:
        refuse(f"line {number}: n is outside 1..10^18")
sys.exit(42)
