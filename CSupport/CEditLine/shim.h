#ifndef CEDITLINE_SHIM_H
#define CEDITLINE_SHIM_H
/* libedit (BSD editline), through its readline-compatible interface: line
   editing and history for the REPL when it reads from a terminal. */
#include <stdio.h>
#include <editline/readline.h>
#endif
