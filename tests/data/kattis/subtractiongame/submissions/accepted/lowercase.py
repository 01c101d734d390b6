# The periodic rule, printed in lower case: the default output validator
# compares letters in either case unless the package asks for case_sensitive.
import sys

data = sys.stdin.buffer.read().split()
for n in data[1 : 1 + int(data[0])]:
    print("bob" if int(n) % 7 in (0, 2) else "alice")
