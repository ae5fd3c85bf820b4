/* CLiveCore.h — umbrella header of the LiveCollection C core. */
#ifndef CLIVECORE_H
#define CLIVECORE_H
#include "lc_error.h"
#include "lc_key.h"
#include "lc_value.h"
#include "lc_doc.h"
#include "lc_index.h"
#endif
