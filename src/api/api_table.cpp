// st_get_api: every public function in one append-only table, for hosts
// that dlopen() the library (the pattern of ONNX Runtime's OrtApi).
#include <cstddef>

#include "stride.h"

namespace {

// Assigned by name, so the compiler checks each field against the
// function's own prototype.
constexpr st_api make_table() {
  st_api t{};
  t.version = st_version;
  t.version_string = st_version_string;
  t.status_name = st_status_name;
  t.last_error_message = st_last_error_message;
  t.dtype_itemsize = st_dtype_itemsize;
  t.dtype_name = st_dtype_name;
  t.tensor_create = st_tensor_create;
  t.tensor_create_strided = st_tensor_create_strided;
  t.tensor_create_like = st_tensor_create_like;
  t.tensor_from_data = st_tensor_from_data;
  t.tensor_retain = st_tensor_retain;
  t.tensor_release = st_tensor_release;
  t.tensor_ndim = st_tensor_ndim;
  t.tensor_sizes = st_tensor_sizes;
  t.tensor_strides = st_tensor_strides;
  t.tensor_dtype = st_tensor_dtype;
  t.tensor_device = st_tensor_device;
  t.tensor_numel = st_tensor_numel;
  t.tensor_storage_offset = st_tensor_storage_offset;
  t.tensor_data_ptr = st_tensor_data_ptr;
  t.tensor_is_contiguous = st_tensor_is_contiguous;
  t.as_strided = st_as_strided;
  t.permute = st_permute;
  t.transpose = st_transpose;
  t.slice = st_slice;
  t.select = st_select;
  t.expand = st_expand;
  t.unsqueeze = st_unsqueeze;
  t.squeeze = st_squeeze;
  t.flip = st_flip;
  t.view = st_view;
  t.reshape = st_reshape;
  t.contiguous = st_contiguous;
  t.clone = st_clone;
  t.copy = st_copy;
  t.to = st_to;
  t.fill = st_fill;
  t.zero = st_zero;
  t.set_num_threads = st_set_num_threads;
  t.get_num_threads = st_get_num_threads;
  t.set_cpu_allocator = st_set_cpu_allocator;
  t.set_parallel_for = st_set_parallel_for;
  t.cuda_device_count = st_cuda_device_count;
  t.cuda_set_stream = st_cuda_set_stream;
  t.cuda_synchronize = st_cuda_synchronize;
  t.set_trace_callback = st_set_trace_callback;
  t.live_tensor_count = st_live_tensor_count;
  t.to_dlpack = st_to_dlpack;
  t.from_dlpack = st_from_dlpack;
  t.to_dlpack_versioned = st_to_dlpack_versioned;
  t.from_dlpack_versioned = st_from_dlpack_versioned;
  t.cuda_empty_cache = st_cuda_empty_cache;
  t.copy_scaled = st_copy_scaled;
  t.copy_plan_create = st_copy_plan_create;
  t.copy_plan_execute = st_copy_plan_execute;
  t.copy_plan_execute_raw = st_copy_plan_execute_raw;
  t.copy_plan_release = st_copy_plan_release;
  t.live_plan_count = st_live_plan_count;
  t.quantize_blocks = st_quantize_blocks;
  t.dequantize_blocks = st_dequantize_blocks;
  t.runtime_settings = st_runtime_settings;
  t.tensor_format = st_tensor_format;
  return t;
}

constexpr st_api kTable = make_table();

}  // namespace

// Every field's place is ABI: a table of version v must start with the
// fields of versions 1..v exactly where older hosts look for them. A field
// appended later gets a line here; removing or moving one fails the build.
#define ST_PIN(field, index)                                                 \
  static_assert(offsetof(st_api, field) == (index) * sizeof(void (*)(void)), \
                "st_api." #field " moved: the table is append-only (see docs/abi-policy.md)")

// Version 1 (stride 0.1).
ST_PIN(version, 0);
ST_PIN(version_string, 1);
ST_PIN(status_name, 2);
ST_PIN(last_error_message, 3);
ST_PIN(dtype_itemsize, 4);
ST_PIN(dtype_name, 5);
ST_PIN(tensor_create, 6);
ST_PIN(tensor_create_strided, 7);
ST_PIN(tensor_create_like, 8);
ST_PIN(tensor_from_data, 9);
ST_PIN(tensor_retain, 10);
ST_PIN(tensor_release, 11);
ST_PIN(tensor_ndim, 12);
ST_PIN(tensor_sizes, 13);
ST_PIN(tensor_strides, 14);
ST_PIN(tensor_dtype, 15);
ST_PIN(tensor_device, 16);
ST_PIN(tensor_numel, 17);
ST_PIN(tensor_storage_offset, 18);
ST_PIN(tensor_data_ptr, 19);
ST_PIN(tensor_is_contiguous, 20);
ST_PIN(as_strided, 21);
ST_PIN(permute, 22);
ST_PIN(transpose, 23);
ST_PIN(slice, 24);
ST_PIN(select, 25);
ST_PIN(expand, 26);
ST_PIN(unsqueeze, 27);
ST_PIN(squeeze, 28);
ST_PIN(flip, 29);
ST_PIN(view, 30);
ST_PIN(reshape, 31);
ST_PIN(contiguous, 32);
ST_PIN(clone, 33);
ST_PIN(copy, 34);
ST_PIN(to, 35);
ST_PIN(fill, 36);
ST_PIN(zero, 37);
ST_PIN(set_num_threads, 38);
ST_PIN(get_num_threads, 39);
ST_PIN(set_cpu_allocator, 40);
ST_PIN(set_parallel_for, 41);
ST_PIN(cuda_device_count, 42);
ST_PIN(cuda_set_stream, 43);
ST_PIN(cuda_synchronize, 44);
ST_PIN(set_trace_callback, 45);
ST_PIN(live_tensor_count, 46);
ST_PIN(to_dlpack, 47);
ST_PIN(from_dlpack, 48);
ST_PIN(to_dlpack_versioned, 49);
ST_PIN(from_dlpack_versioned, 50);
ST_PIN(cuda_empty_cache, 51);
ST_PIN(copy_scaled, 52);
ST_PIN(copy_plan_create, 53);
ST_PIN(copy_plan_execute, 54);
ST_PIN(copy_plan_execute_raw, 55);
ST_PIN(copy_plan_release, 56);
ST_PIN(live_plan_count, 57);
// Version 3 (stride 0.3).
ST_PIN(quantize_blocks, 58);
ST_PIN(dequantize_blocks, 59);
ST_PIN(runtime_settings, 60);
ST_PIN(tensor_format, 61);

static_assert(sizeof(st_api) == 62 * sizeof(void (*)(void)), "st_api has a field without an ST_PIN line above");

extern "C" {

const st_api* st_get_api(uint32_t version) { return version >= 1 && version <= ST_API_VERSION ? &kTable : nullptr; }

}  // extern "C"
