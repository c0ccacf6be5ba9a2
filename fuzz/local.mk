# libFuzzer targets, built with `make fuzz` (needs clang). Each links the
# rules core built again with -fsanitize=fuzzer-no-link,address,undefined.
EXTRA_DIST += fuzz
