// An independent solution of nim for the batch-solver figure in BENCHMARKS.md:
// one fread, integers scanned by hand (g++ -O2).
#include <cstdio>
#include <cstdlib>
#include <cstdint>
static char buf[1 << 26];
int main() {
    size_t n = fread(buf, 1, sizeof(buf) - 1, stdin);
    buf[n] = 0;
    char *p = buf;
    auto next = [&]() -> uint64_t {
        while (*p && (*p < '0' || *p > '9')) p++;
        uint64_t v = 0;
        while (*p >= '0' && *p <= '9') v = v * 10 + (*p++ - '0');
        return v;
    };
    uint64_t count = next(), x = 0;
    for (uint64_t i = 0; i < count; i++) x ^= next();
    puts(x ? "Alice" : "Bob");
}
