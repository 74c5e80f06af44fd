/* st_get_api as a host that loads the library at run time (dlopen,
 * LoadLibrary on Windows) sees it: one symbol
 * looked up, everything else called through the table. The table is also
 * checked against include/stride.h itself, so a function declared there
 * and missing from st_api fails here. This program is not linked to
 * the library; STRIDE_LIB_PATH and STRIDE_HEADER_PATH name the files. */
#include <ctype.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "portable.h"
#include "stride.h"

#define MAX_NAMES 256
#define MAX_NAME 64

typedef struct name_list {
  int count;
  char names[MAX_NAMES][MAX_NAME];
} name_list;

static void* g_lib;
static const st_api* g_api;

static int open_library(void** state) {
  (void)state;
  g_lib = test_library_open(STRIDE_LIB_PATH);
  if (!g_lib) return -1;
  /* the data pointer read back as the function pointer it holds */
  void* sym = test_library_symbol(g_lib, "st_get_api");
  if (!sym) return -1;
  const st_api* (*get)(uint32_t);
  memcpy(&get, &sym, sizeof get);
  g_api = get(ST_API_VERSION);
  return g_api ? 0 : -1;
}

/* ---- Reading the header: comments and preprocessor lines removed. ---- */

static char* read_header_code(void) {
  FILE* f = fopen(STRIDE_HEADER_PATH, "rb");
  assert_non_null(f);
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char* text = malloc((size_t)n + 1);
  assert_non_null(text);
  assert_int_equal(fread(text, 1, (size_t)n, f), (size_t)n);
  text[n] = '\0';
  fclose(f);

  char* code = malloc((size_t)n + 1);
  assert_non_null(code);
  size_t w = 0;
  int at_line_start = 1;
  for (long i = 0; i < n;) {
    if (text[i] == '/' && text[i + 1] == '*') {
      const char* end = strstr(text + i + 2, "*/");
      assert_non_null(end);
      i = (long)(end - text) + 2;
      code[w++] = ' ';
    } else if (text[i] == '/' && text[i + 1] == '/') {
      while (i < n && text[i] != '\n') ++i;
    } else if (at_line_start && text[i] == '#') {
      /* a directive, with its continuation lines */
      while (i < n && !(text[i] == '\n' && text[i - 1] != '\\')) ++i;
    } else {
      if (text[i] == '\n')
        at_line_start = 1;
      else if (!isspace((unsigned char)text[i]))
        at_line_start = 0;
      code[w++] = text[i++];
    }
  }
  code[w] = '\0';
  free(text);
  return code;
}

static int is_ident_char(char c) { return isalnum((unsigned char)c) || c == '_'; }

static void add_name(name_list* list, const char* begin, size_t len) {
  assert_true(list->count < MAX_NAMES);
  assert_true(len > 0 && len < MAX_NAME);
  memcpy(list->names[list->count], begin, len);
  list->names[list->count][len] = '\0';
  list->count++;
}

static int contains(const name_list* list, const char* name) {
  for (int i = 0; i < list->count; ++i)
    if (strcmp(list->names[i], name) == 0) return 1;
  return 0;
}

/* Every `ST_API <type> name(` declaration. */
static void declared_functions(const char* code, name_list* out) {
  out->count = 0;
  for (const char* p = strstr(code, "ST_API"); p; p = strstr(p + 6, "ST_API")) {
    if ((p > code && is_ident_char(p[-1])) || is_ident_char(p[6])) continue; /* part of another word */
    const char* paren = strchr(p, '(');
    assert_non_null(paren);
    const char* end = paren;
    while (end > p && isspace((unsigned char)end[-1])) --end;
    const char* begin = end;
    while (begin > p && is_ident_char(begin[-1])) --begin;
    add_name(out, begin, (size_t)(end - begin));
  }
}

/* The fields of `struct st_api`, in order: each `(*name)`. */
static void table_fields(const char* code, name_list* out) {
  out->count = 0;
  const char* start = strstr(code, "typedef struct st_api");
  assert_non_null(start);
  const char* open = strchr(start, '{');
  const char* close = strstr(start, "} st_api;");
  assert_non_null(open);
  assert_non_null(close);
  for (const char* p = open; p < close; ++p) {
    if (p[0] != '(' || p[1] != '*') continue;
    const char* begin = p + 2;
    const char* end = begin;
    while (is_ident_char(*end)) ++end;
    assert_true(*end == ')');
    add_name(out, begin, (size_t)(end - begin));
  }
}

/* ---- Tests ---- */

static void every_declared_function_is_in_the_table_and_nothing_else(void** state) {
  (void)state;
  char* code = read_header_code();
  static name_list functions, fields;
  declared_functions(code, &functions);
  table_fields(code, &fields);
  free(code);
  assert_true(functions.count > 40); /* the parser found the declarations */

  int missing = 0;
  for (int i = 0; i < functions.count; ++i) {
    const char* fn = functions.names[i];
    assert_true(strncmp(fn, "st_", 3) == 0);
    if (strcmp(fn, "st_get_api") == 0) continue;
    if (!contains(&fields, fn + 3)) {
      print_error("%s is declared in stride.h but st_api has no field '%s'\n", fn, fn + 3);
      missing = 1;
    }
  }
  for (int i = 0; i < fields.count; ++i) {
    char fn[MAX_NAME + 3];
    snprintf(fn, sizeof fn, "st_%s", fields.names[i]);
    if (!contains(&functions, fn)) {
      print_error("st_api.%s names no function declared in stride.h\n", fields.names[i]);
      missing = 1;
    }
  }
  assert_int_equal(missing, 0);
  assert_true(contains(&functions, "st_get_api"));
  assert_false(contains(&fields, "get_api"));
  /* every field is one function pointer: no padding, nothing else */
  assert_int_equal(sizeof(st_api), (size_t)fields.count * sizeof(void (*)(void)));
}

static void each_field_points_at_the_exported_function_of_its_name(void** state) {
  (void)state;
  char* code = read_header_code();
  static name_list fields;
  table_fields(code, &fields);
  free(code);
  for (int i = 0; i < fields.count; ++i) {
    char fn[MAX_NAME + 3];
    snprintf(fn, sizeof fn, "st_%s", fields.names[i]);
    void* exported = test_library_symbol(g_lib, fn);
    void* in_table = NULL;
    memcpy(&in_table, (const char*)g_api + (size_t)i * sizeof(void (*)(void)), sizeof in_table);
    if (!exported || exported != in_table) {
      print_error("field %d (%s) holds %p, the library exports %s at %p\n", i, fields.names[i], in_table, fn, exported);
      fail();
    }
  }
}

static void versions_newer_than_the_library_or_zero_get_null(void** state) {
  (void)state;
  void* sym = test_library_symbol(g_lib, "st_get_api");
  const st_api* (*get)(uint32_t);
  memcpy(&get, &sym, sizeof get);
  assert_null(get(0));
  assert_null(get(ST_API_VERSION + 1));
  assert_null(get(UINT32_MAX));
  for (uint32_t v = 1; v <= ST_API_VERSION; ++v) assert_ptr_equal(get(v), g_api); /* one table serves all */
}

static void a_tensor_made_viewed_copied_and_released_through_the_table(void** state) {
  (void)state;
  const st_api* api = g_api;
  assert_int_equal(api->version(), ST_VERSION_MAJOR * 10000 + ST_VERSION_MINOR * 100 + ST_VERSION_PATCH);
  assert_string_equal(api->status_name(ST_ERROR_OVERLAP), "ST_ERROR_OVERLAP");
  assert_int_equal(api->dtype_itemsize(ST_FLOAT64), 8);

  int64_t live_before = -1;
  assert_int_equal(api->live_tensor_count(&live_before), ST_OK);

  const int64_t sizes[2] = {2, 3};
  const st_device cpu = {ST_DEVICE_CPU, 0};
  st_tensor x = {0}, xt = {0}, y = {0};
  assert_int_equal(api->tensor_create(sizes, 2, ST_FLOAT32, cpu, &x), ST_OK);
  float* p = NULL;
  assert_int_equal(api->tensor_data_ptr(x, (void**)&p), ST_OK);
  for (int i = 0; i < 6; ++i) p[i] = (float)i;

  assert_int_equal(api->transpose(x, 0, 1, &xt), ST_OK); /* 3x2, strides {1, 3} */
  int64_t st[2] = {0, 0};
  assert_int_equal(api->tensor_strides(xt, st, 2), ST_OK);
  assert_int_equal(st[0], 1);
  assert_int_equal(st[1], 3);

  assert_int_equal(api->contiguous(xt, ST_MEMORY_FORMAT_CONTIGUOUS, &y), ST_OK);
  const float* q = NULL;
  assert_int_equal(api->tensor_data_ptr(y, (void**)&q), ST_OK);
  /* y[i][j] = x[j][i] = 3 j + i, stored row-major */
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 2; ++j) assert_true(q[i * 2 + j] == (float)(3 * j + i));

  assert_int_equal(api->fill(x, 7.0), ST_OK);
  assert_true(p[5] == 7.0f);

  int64_t live = -1;
  assert_int_equal(api->live_tensor_count(&live), ST_OK);
  assert_int_equal(live, live_before + 3);

  /* a failure through the table: status, message, out reset */
  st_tensor bad = {0x5eed5eed5eed5eedull};
  assert_int_equal(api->transpose(x, 0, 2, &bad), ST_ERROR_INVALID_ARGUMENT);
  assert_int_equal(bad.id, 0);
  assert_non_null(strstr(api->last_error_message(), "st_transpose"));

  assert_int_equal(api->tensor_release(x), ST_OK);
  assert_int_equal(api->tensor_release(xt), ST_OK);
  assert_int_equal(api->tensor_release(y), ST_OK);
  assert_int_equal(api->tensor_release(y), ST_ERROR_INVALID_HANDLE);
  assert_int_equal(api->live_tensor_count(&live), ST_OK);
  assert_int_equal(live, live_before);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(every_declared_function_is_in_the_table_and_nothing_else),
      cmocka_unit_test(each_field_points_at_the_exported_function_of_its_name),
      cmocka_unit_test(versions_newer_than_the_library_or_zero_get_null),
      cmocka_unit_test(a_tensor_made_viewed_copied_and_released_through_the_table),
  };
  return cmocka_run_group_tests(tests, open_library, NULL); /* the library stays loaded */
}
