#pragma once

#include <cstdio>
#include <cstdlib>

/// FUZZ_CHECK(condition, what): a fuzz target's invariant. Unlike assert() it stays on in release builds; a broken
/// invariant prints `what` with the file and line and aborts, which libFuzzer records as a crash (and the replay
/// test as a failure).
#define FUZZ_CHECK(condition, what)                                                                                    \
    do {                                                                                                               \
        if (!(condition)) {                                                                                            \
            std::fprintf(stderr, "%s:%d: fuzz invariant broken: %s (%s)\n", __FILE__, __LINE__, what, #condition);     \
            std::abort();                                                                                              \
        }                                                                                                              \
    } while (false)
