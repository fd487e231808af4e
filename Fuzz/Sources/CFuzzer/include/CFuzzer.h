// libFuzzer's driver entry (compiler-rt, linked by -sanitize=fuzzer). SwiftPM on Linux links an executable with
// `--defsym main=<Module>_main`, so libFuzzer's own main never runs: each harness's main.swift calls this.
#include <stddef.h>
#include <stdint.h>
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*test_one_input)(const uint8_t *data, size_t size));
