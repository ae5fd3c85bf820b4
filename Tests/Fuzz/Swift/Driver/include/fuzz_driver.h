#ifndef FUZZ_DRIVER_H
#define FUZZ_DRIVER_H
/* libFuzzer's entry for programs that have their own main: SwiftPM names
   an executable's entry point <module>_main, so each Swift fuzz target
   starts libFuzzer from there. */
#include <stddef.h>
#include <stdint.h>
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
#endif
