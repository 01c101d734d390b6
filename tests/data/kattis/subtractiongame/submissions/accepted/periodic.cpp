// n mod 7 in {0, 2}: the player to move loses (see periodic.py).
#include <cstdio>

int main() {
    int count;
    if (std::scanf("%d", &count) != 1) return 1;
    for (int i = 0; i < count; ++i) {
        unsigned long long n;
        if (std::scanf("%llu", &n) != 1) return 1;
        unsigned r = n % 7;
        std::puts(r == 0 || r == 2 ? "Bob" : "Alice");
    }
}
