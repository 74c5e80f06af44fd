/* engine_allocator: run stride inside an engine that owns memory and threads.
 *
 * st_set_cpu_allocator routes every CPU allocation of the library to your
 * allocator (here a tracking arena), and st_set_parallel_for hands its CPU
 * work to your job system (here a tiny one: a few threads pulling chunks
 * off a shared counter) instead of the library's OpenMP threads. Both are
 * process-wide; NULL restores the defaults. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>

#include "stride.h"

#define CHECK(call)                                                                             \
  do {                                                                                          \
    st_status s_ = (call);                                                                      \
    if (s_ != ST_OK) {                                                                          \
      fprintf(stderr, "%s: %s\n  %s\n", #call, st_status_name(s_), st_last_error_message()); \
      return 1;                                                                                 \
    }                                                                                           \
  } while (0)

#define EXPECT(cond)                                              \
  do {                                                            \
    if (!(cond)) {                                                \
      fprintf(stderr, "line %d: %s is false\n", __LINE__, #cond); \
      return 1;                                                   \
    }                                                             \
  } while (0)

/* ---- A tracking arena: bump allocation, reset when everything is freed. */
struct arena {
  pthread_mutex_t lock; /* alloc and free may come from any thread */
  _Alignas(64) unsigned char bytes[16 << 20];
  size_t used, live, peak, allocs, frees;
};

static void* arena_alloc(void* ctx, size_t nbytes, size_t alignment) {
  struct arena* a = ctx;
  pthread_mutex_lock(&a->lock);
  size_t start = (a->used + alignment - 1) / alignment * alignment;
  void* p = start + nbytes <= sizeof a->bytes ? a->bytes + start : NULL; /* NULL: out of memory */
  if (p) {
    a->used = start + nbytes;
    a->live += nbytes;
    a->peak = a->live > a->peak ? a->live : a->peak;
    a->allocs += 1;
  }
  pthread_mutex_unlock(&a->lock);
  return p;
}

static void arena_free(void* ctx, void* ptr, size_t nbytes) {
  struct arena* a = ctx;
  (void)ptr; /* a bump arena frees nothing one by one */
  pthread_mutex_lock(&a->lock);
  a->live -= nbytes;
  a->frees += 1;
  if (a->live == 0) a->used = 0;
  pthread_mutex_unlock(&a->lock);
}

/* ---- A tiny job system: the caller and 3 helper threads take chunks in turn. */
struct job {
  st_parallel_task task;
  void* task_ctx;
  int64_t n, chunk;
  atomic_llong next;   /* the first item no thread has taken yet */
  atomic_int *chunks;  /* how many chunks ran, for the check below */
};

static void* worker(void* arg) {
  struct job* j = arg;
  for (int64_t b; (b = atomic_fetch_add(&j->next, j->chunk)) < j->n;) {
    j->task(j->task_ctx, b, b + j->chunk < j->n ? b + j->chunk : j->n);
    atomic_fetch_add(j->chunks, 1);
  }
  return NULL;
}

/* Chunks of at least `grain` items, disjoint, covering [0, n); returns when all ran. */
static void run_jobs(void* ctx, int64_t n, int64_t grain, st_parallel_task task, void* task_ctx) {
  struct job j = {task, task_ctx, n, n / 8 > grain ? n / 8 : grain, 0, ctx};
  pthread_t helpers[3];
  int started = 0;
  while (started < 3 && pthread_create(&helpers[started], NULL, worker, &j) == 0) ++started;
  worker(&j); /* the calling thread works too, so this finishes even if no helper started */
  for (int i = 0; i < started; ++i) pthread_join(helpers[i], NULL);
}

static struct arena arena = {.lock = PTHREAD_MUTEX_INITIALIZER};
static atomic_int chunks_run;

static int in_arena(const void* p) {
  return (const unsigned char*)p >= arena.bytes && (const unsigned char*)p < arena.bytes + sizeof arena.bytes;
}

int main(void) {
  const st_allocator alloc = {arena_alloc, arena_free, &arena};
  CHECK(st_set_cpu_allocator(&alloc));
  CHECK(st_set_parallel_for(run_jobs, &chunks_run));
  CHECK(st_set_num_threads(4)); /* with 1 thread the library never splits work */

  /* A 1024 x 1024 float32 matrix and its transpose made contiguous: both
   * allocations come from the arena, the copy runs on the job system. */
  enum { R = 1024 };
  const int64_t sizes[2] = {R, R};
  st_tensor x = {0}, xt = {0}, y = {0};
  CHECK(st_tensor_create(sizes, 2, ST_FLOAT32, (st_device){ST_DEVICE_CPU, 0}, &x));
  float *xd = NULL, *yd = NULL;
  CHECK(st_tensor_data_ptr(x, (void**)&xd));
  for (int64_t i = 0; i < R * R; ++i) xd[i] = (float)i;
  CHECK(st_transpose(x, 0, 1, &xt));
  CHECK(st_contiguous(xt, ST_MEMORY_FORMAT_CONTIGUOUS, &y));
  CHECK(st_tensor_data_ptr(y, (void**)&yd));

  for (int64_t i = 0; i < R; ++i)
    for (int64_t j = 0; j < R; ++j) EXPECT(yd[i * R + j] == xd[j * R + i]);
  EXPECT(in_arena(xd) && in_arena(yd));
  printf("arena: %zu allocations, %zu bytes live; job system ran %d chunks\n", arena.allocs, arena.live,
         atomic_load(&chunks_run));
  EXPECT(arena.allocs == 2 && arena.live == 2 * R * R * sizeof(float));
  EXPECT(atomic_load(&chunks_run) > 1);

  /* Release every tensor before the arena goes away: a storage is always
   * freed by the allocator that made it, even after another is installed. */
  CHECK(st_tensor_release(x));
  CHECK(st_tensor_release(xt));
  CHECK(st_tensor_release(y));
  EXPECT(arena.live == 0 && arena.frees == arena.allocs);
  CHECK(st_set_cpu_allocator(NULL));
  CHECK(st_set_parallel_for(NULL, NULL));
  printf("ok: peak %zu bytes, all freed\n", arena.peak);
  return 0;
}
