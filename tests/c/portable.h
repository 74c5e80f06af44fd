/* The few C library calls the tests need that POSIX and Windows spell
 * differently, in one place (the library's own are in src/core/platform/).
 * Header-only, so that C and C++ tests can both include it. */
#ifndef STRIDE_TEST_PORTABLE_H
#define STRIDE_TEST_PORTABLE_H

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _WIN32
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#include <malloc.h>
#include <windows.h>
#else
#include <dlfcn.h>
#include <signal.h>
#include <unistd.h>
#endif

/* nbytes rounded up to a multiple of `alignment` (a power of two), at an
 * address that is a multiple of it; NULL when the heap has none. Given
 * back with test_aligned_free, never free(): the Windows C runtime has no
 * aligned_alloc, and its aligned heap (_aligned_malloc) is another heap. */
static inline void* test_aligned_alloc(size_t alignment, size_t nbytes) {
  const size_t rounded = (nbytes + alignment - 1) / alignment * alignment;
#ifdef _WIN32
  return _aligned_malloc(rounded, alignment);
#else
  return aligned_alloc(alignment, rounded);
#endif
}

static inline void test_aligned_free(void* p) {
#ifdef _WIN32
  _aligned_free(p);
#else
  free(p);
#endif
}

/* Sets an environment variable for the process and the library it loaded
 * (on Windows both use the one C runtime DLL, whose _putenv_s getenv sees). */
static inline int test_setenv(const char* name, const char* value) {
#ifdef _WIN32
  return _putenv_s(name, value);
#else
  return setenv(name, value, 1);
#endif
}

/* The next number of a pseudo-random sequence whose state is the caller's
 * (POSIX's rand_r, which Windows lacks): the same sequence for the same seed
 * on every platform. */
static inline unsigned test_rand_r(unsigned* seed) {
  *seed = *seed * 1103515245u + 12345u;
  return (*seed >> 16) & 0x7fffu;
}

/* fmaf, rounded once. MinGW-w64's C library rounds twice (its result is
 * the float product plus the addend), so there: the product exactly in
 * double, the sum in double rounded to odd (Knuth's TwoSum gives its
 * rounding error), which rounds to float as the exact sum would (Boldo and
 * Melquiond 2008). Needs round to nearest, the default. */
static inline float test_fmaf(float x, float y, float z) {
#ifdef __MINGW32__
  const double p = (double)x * (double)y;
  const double s = p + (double)z;
  const double zz = s - p;
  const double err = (p - (s - zz)) + ((double)z - zz);
  if (err == 0 || s != s || s - s != 0) return (float)s; /* exact, NaN or infinite */
  unsigned long long bits;
  memcpy(&bits, &s, sizeof bits);
  if ((bits & 1) == 0) bits = (err > 0) == (s > 0) ? bits + 1 : bits - 1;
  double odd;
  memcpy(&odd, &bits, sizeof odd);
  return (float)odd;
#else
  return fmaf(x, y, z);
#endif
}

/* A shared library loaded at run time, as a plugin host loads one: dlopen
 * (POSIX) or LoadLibrary (Windows), bound now and kept loaded for the life
 * of the process: the library keeps its handle table until then
 * (src/api/handle_table.h), and unloading it would turn those blocks into
 * leaks that LeakSanitizer reports (RTLD_NODELETE; a pinned module on
 * Windows). NULL, after printing why, when it cannot be loaded. */
static inline void* test_library_open(const char* path) {
#ifdef _WIN32
  HMODULE lib = LoadLibraryA(path);
  if (!lib || !GetModuleHandleExA(GET_MODULE_HANDLE_EX_FLAG_PIN, path, &lib)) {
    fprintf(stderr, "LoadLibrary(%s): error %lu\n", path, (unsigned long)GetLastError());
    return NULL;
  }
  return (void*)lib;
#else
  void* lib = dlopen(path, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
  if (!lib) fprintf(stderr, "dlopen(%s): %s\n", path, dlerror());
  return lib;
#endif
}

/* The address of the library's exported function `name` as a data pointer
 * (ISO C has no cast between the two; both systems guarantee the bytes),
 * NULL when it exports none. */
static inline void* test_library_symbol(void* lib, const char* name) {
#ifdef _WIN32
  FARPROC fn = GetProcAddress((HMODULE)lib, name);
  void* p = NULL;
  memcpy(&p, &fn, sizeof p);
  return p;
#else
  return dlsym(lib, name);
#endif
}

/* A watchdog that turns a hang into a failure sooner than ctest's time
 * limit: test_watchdog(s) ends the process with status 1 and a message
 * unless test_watchdog(0) comes within s seconds (as POSIX's alarm(), which
 * Windows lacks: there a timer of the thread pool). */
#ifdef _WIN32
static inline void CALLBACK test_watchdog_fired(void* arg, BOOLEAN timed_out) {
  (void)arg;
  (void)timed_out;
  fputs("watchdog: a call did not return within the watchdog's time\n", stderr);
  fflush(stderr);
  _exit(1);
}

static inline void test_watchdog(unsigned seconds) {
  static HANDLE timer = NULL;
  if (timer) DeleteTimerQueueTimer(NULL, timer, INVALID_HANDLE_VALUE);
  timer = NULL;
  if (seconds) CreateTimerQueueTimer(&timer, NULL, test_watchdog_fired, NULL, seconds * 1000, 0, WT_EXECUTEONLYONCE);
}
#else
static inline void test_watchdog_fired(int sig) {
  (void)sig;
  static const char msg[] = "watchdog: a call did not return within the watchdog's time\n";
  ssize_t ignored = write(2, msg, sizeof msg - 1);
  (void)ignored;
  _exit(1);
}

static inline void test_watchdog(unsigned seconds) {
  if (seconds) signal(SIGALRM, test_watchdog_fired);
  alarm(seconds);
}
#endif

#endif
