/* Declarations only (fuzz_driver.h); libFuzzer provides the code. */
#include "fuzz_driver.h"
