// cmocka for the C++ tests of the internals: Debian's cmocka.h declares its
// functions without extern "C", so wrap it here once.
#pragma once

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

extern "C" {
#include <cmocka.h>
}
