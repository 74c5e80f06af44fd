/**
 * @file stride.h
 * @brief Strided tensors behind a small, stable C ABI: the whole public API.
 *
 * stride creates tensors, makes views of them (permute, slice, expand, flip,
 * ...) and copies between any two layouts and dtypes. Every object is a
 * handle; every call returns a status; nothing ever throws, aborts or
 * signals for bad input.
 *
 * The life of a tensor:
 *
 * @code
 *   int64_t sizes[3] = {2, 3, 4};
 *   st_tensor x, xt;
 *   if (st_tensor_create(sizes, 3, ST_FLOAT32, (st_device){ST_DEVICE_CPU, 0}, &x) != ST_OK) {
 *     fprintf(stderr, "%s\n", st_last_error_message());
 *     return 1;
 *   }
 *   float* p;
 *   st_tensor_data_ptr(x, (void**)&p);          // fill x through p ...
 *   st_transpose(x, 0, 2, &xt);                  // a view: shares x's memory
 *   st_tensor_release(x);                        // xt keeps the memory alive
 *   int64_t st[3];
 *   st_tensor_strides(xt, st, 3);                // {1, 4, 12}
 *   st_tensor_release(xt);                       // memory freed here
 * @endcode
 *
 * Ownership rules:
 *  - Every call that writes a handle to `out` hands the caller one
 *    reference. Drop it with st_tensor_release(); st_tensor_retain() adds one.
 *  - A view shares its source's storage and keeps it alive on its own.
 *  - Handles are generational: a released handle, or one never issued,
 *    answers ST_ERROR_INVALID_HANDLE; it never crashes.
 *  - Your references and the library's own hold on a handle during a call
 *    are counted apart: a release beyond your references answers
 *    ST_ERROR_INVALID_HANDLE even while a call (on another thread, or the
 *    one running your trace callback) still uses the handle, and that call
 *    finishes with the tensor intact.
 *  - Strings returned by the library are owned by it; never free them.
 *
 * Statuses: each function lists the statuses it returns and why. On
 * failure an `out` handle is `{0}`, no other `out` value is written and no
 * tensor's data has changed (except after a job system that broke its
 * contract, see st_parallel_for_fn). Beyond its list, any function that
 * returns an st_status may answer ST_ERROR_INTERNAL (a bug in stride, or a
 * job system installed with st_set_parallel_for() that broke its
 * contract), and
 * ST_ERROR_OUT_OF_MEMORY when a handle it is given already holds
 * 2^32 − 1 references, or is in use by 2^19 − 1 other calls at that moment.
 *
 * What stride deliberately does not do: resize or restride a tensor in
 * place (metadata never changes after creation), automatic differentiation,
 * arithmetic beyond copying, converting and filling.
 *
 * Every function may be called from any thread at any time.
 */
#ifndef STRIDE_H
#define STRIDE_H

#include <stddef.h>
#include <stdint.h>

/**
 * @def ST_API
 * @brief Marks the functions the shared library exports (and, on Windows,
 *        those a program imports).
 */
#if defined(_WIN32)
#  if defined(STRIDE_BUILDING)
#    define ST_API __declspec(dllexport)
#  else
#    define ST_API __declspec(dllimport)
#  endif
#elif defined(__GNUC__)
#  define ST_API __attribute__((visibility("default")))
#else
#  define ST_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ======================================================================== */
/** @name Versions and errors */
/* ======================================================================== */
/** @{ */

/** Major version of this header. The SONAME changes with it once it is 1 or more. */
#define ST_VERSION_MAJOR 0
/** Minor version: new functions and enum values are added here. */
#define ST_VERSION_MINOR 3
/** Patch version: fixes only. */
#define ST_VERSION_PATCH 0
/** The most dimensions a tensor may have. */
#define ST_MAX_DIMS 25

/**
 * @brief The version of the loaded library, not of this header.
 * @return MAJOR*10000 + MINOR*100 + PATCH, e.g. 300 for 0.3.0.
 */
ST_API uint32_t st_version(void);

/**
 * @brief The version of the loaded library as text.
 * @return A static string such as "0.3.0"; never NULL, never freed.
 */
ST_API const char* st_version_string(void);

/**
 * @brief The result of every call that can fail. The numbers are ABI.
 */
typedef enum st_status {
  ST_OK = 0,                       /**< Success. */
  ST_ERROR_INVALID_ARGUMENT = 1,   /**< NULL pointer, unknown enum value, dim out of range, negative size, ndim > ST_MAX_DIMS. */
  ST_ERROR_INVALID_HANDLE = 2,     /**< Null, released or never-issued handle. */
  ST_ERROR_OUT_OF_MEMORY = 3,      /**< Allocation failed, or a byte count overflows int64. */
  ST_ERROR_SHAPE_MISMATCH = 4,     /**< Not broadcastable; view() incompatible with strides; numel differs. */
  ST_ERROR_UNSUPPORTED_DTYPE = 5,  /**< A known dtype that an operation or backend cannot handle. */
  ST_ERROR_DEVICE_UNAVAILABLE = 6, /**< CUDA not built in, no driver, no such device. */
  ST_ERROR_OVERLAP = 7,            /**< The written tensor is not provably free of self-overlap. */
  ST_ERROR_OUT_OF_BOUNDS = 8,      /**< View or index outside the storage or the size. */
  ST_ERROR_NOT_IMPLEMENTED = 9,    /**< No kernel registered for this operator and backend. */
  ST_ERROR_DEVICE_FAILURE = 10,    /**< An error reported by the CUDA runtime. */
  ST_ERROR_INTERNAL = 11,          /**< A bug in stride; please report it with the message. */
  ST_ERROR_READ_ONLY = 12          /**< Writing into a tensor imported read-only (DLPack flag). */
} st_status;

/**
 * @brief The name of a status, e.g. "ST_ERROR_OVERLAP".
 * @param s Any value, listed in st_status or not.
 * @return A static string; "ST_UNKNOWN_STATUS" for a value not listed in
 *         st_status. Never NULL.
 */
ST_API const char* st_status_name(st_status s);

/**
 * @brief This thread's message for its last failing call.
 *
 * The message names the function, the argument and the values involved,
 * e.g. "st_permute: dims[2] = 3 is out of range for a tensor of 3 dims".
 * Successful calls leave it alone. Decide by the status, not by the text.
 *
 * @return A string owned by the library, valid until the next failing call
 *         on the same thread; "" if no call on this thread has failed.
 */
ST_API const char* st_last_error_message(void);

/** @} */

/* ======================================================================== */
/** @name Types */
/* ======================================================================== */
/** @{ */

/** @brief Element types. The numbers are ABI. */
typedef enum st_dtype {
  ST_BOOL = 0,        /**< 1 byte, 0 or 1. */
  ST_UINT8 = 1,       /**< 1 byte. */
  ST_INT8 = 2,        /**< 1 byte. */
  ST_INT16 = 3,       /**< 2 bytes. */
  ST_INT32 = 4,       /**< 4 bytes. */
  ST_INT64 = 5,       /**< 8 bytes. */
  ST_FLOAT16 = 6,     /**< IEEE 754 binary16, 2 bytes. */
  ST_BFLOAT16 = 7,    /**< bfloat16 (the upper half of a float32), 2 bytes. */
  ST_FLOAT32 = 8,     /**< 4 bytes. */
  ST_FLOAT64 = 9,     /**< 8 bytes. */
  ST_COMPLEX64 = 10,  /**< Two float32: real, imaginary. 8 bytes. */
  ST_COMPLEX128 = 11, /**< Two float64: real, imaginary. 16 bytes. */
  ST_UINT16 = 12,     /**< 2 bytes, 0 to 65535. */
  ST_UINT32 = 13,     /**< 4 bytes, 0 to 2^32 - 1. */
  ST_UINT64 = 14,     /**< 8 bytes, 0 to 2^64 - 1. */
  /**
   * 1 byte: sign, 4 exponent bits (bias 7), 3 mantissa bits, as PyTorch's
   * float8_e4m3fn and DLPack's kDLFloat8_e4m3fn. No infinity: the largest
   * magnitude is 448 (S.1111.110), S.1111.111 is NaN and every other
   * pattern a number; subnormals down to 2^-9. A value that rounds beyond
   * 448 (a magnitude above 464) and ±inf convert to NaN.
   */
  ST_FLOAT8_E4M3FN = 15,
  /**
   * 1 byte: sign, 5 exponent bits (bias 15), 2 mantissa bits, as PyTorch's
   * float8_e5m2 and DLPack's kDLFloat8_e5m2: IEEE-like, the upper byte of a
   * float16. The largest finite magnitude is 57344; exponent 11111 holds
   * ±inf (mantissa 00) and NaN; subnormals down to 2^-16. A value that
   * rounds beyond 57344 (a magnitude of 61440 or more) converts to ±inf.
   */
  ST_FLOAT8_E5M2 = 16,
  /**
   * 1 byte, the OCP Microscaling (MX v1.0) block scale, as PyTorch's
   * float8_e8m0fnu and DLPack's kDLFloat8_e8m0fnu: 2^(b - 127) for
   * b = 0..254 (2^-127 to 2^127); 0xFF is NaN; no zero, sign or infinity.
   * A value converts into it as PyTorch's c10 rule, from the exact value:
   * the sign is ignored; NaN and ±inf give 0xFF; |x| <= 2^-127 (0
   * included) gives 0x00; 2^-127 < |x| < 2^-126 gives 0x01; otherwise,
   * with 2^e <= |x| < 2^(e+1), e + 127, plus one when |x| >= 1.5 · 2^e
   * (nearest in linear space, ties up), and 255 or more is 0xFF.
   */
  ST_FLOAT8_E8M0FNU = 17,
  /**
   * 1 byte = two E2M1 values (OCP MX's FP4: sign, 2 exponent bits with
   * bias 1, 1 mantissa bit: 0, 0.5, 1, 1.5, 2, 3, 4, 6; no infinity or
   * NaN), the first in the low nibble, as PyTorch's float4_e2m1fn_x2.
   * Sizes and strides count bytes (pairs). It holds pairs, not one number:
   * it copies only to itself (its bytes, any layouts, broadcast, any
   * devices); every conversion to or from another dtype, st_fill and
   * st_zero answer ST_ERROR_UNSUPPORTED_DTYPE.
   */
  ST_FLOAT4_E2M1FN_X2 = 18,
  /**
   * 1 byte, the value in the low 6 bits (OCP MX's FP6 E2M3): sign, 2
   * exponent bits (bias 1), 3 mantissa bits; largest 7.5, subnormals down
   * to 0.125; no infinity or NaN. The high 2 bits are written 0 and ignored
   * when read. A value converts into it rounded once to nearest even
   * (subnormals included); a magnitude beyond 7.5 and ±inf give ±7.5, NaN
   * gives +7.5 (0x1F), ±0 keep their sign.
   */
  ST_FLOAT6_E2M3FN = 19,
  /**
   * 1 byte, the value in the low 6 bits (OCP MX's FP6 E3M2): sign, 3
   * exponent bits (bias 3), 2 mantissa bits; largest 28, subnormals down to
   * 0.0625; no infinity or NaN. Conversions as ST_FLOAT6_E2M3FN: beyond 28
   * and ±inf ±28, NaN +28 (0x1F).
   */
  ST_FLOAT6_E3M2FN = 20
} st_dtype;

/**
 * @brief Bytes per element of a dtype.
 * @param d Any value, listed in st_dtype or not.
 * @return 1, 2, 4, 8 or 16 (1 for float4_e2m1fn_x2, whose element is a
 *         byte holding two values); 0 for a value not listed in st_dtype.
 */
ST_API size_t st_dtype_itemsize(st_dtype d);

/**
 * @brief The name of a dtype, e.g. "float32".
 * @param d Any value, listed in st_dtype or not.
 * @return A static string; "unknown" for a value not listed in st_dtype.
 */
ST_API const char* st_dtype_name(st_dtype d);

/** @brief Kinds of memory; the same numbers as DLPack's DLDeviceType. */
typedef enum st_device_type {
  ST_DEVICE_CPU = 1,       /**< Ordinary host memory. Index must be 0. */
  ST_DEVICE_CUDA = 2,      /**< CUDA device memory; index is the CUDA device ordinal. */
  ST_DEVICE_CUDA_HOST = 3  /**< Page-locked (pinned) host memory. */
} st_device_type;

/** @brief Where a tensor's memory lives. `type` holds an st_device_type. */
typedef struct st_device {
  int32_t type;   /**< An st_device_type value. */
  int32_t index;  /**< Device ordinal; 0 for the CPU. */
} st_device;

/** @brief Orders of dims in memory. The numbers are ABI. */
typedef enum st_memory_format {
  ST_MEMORY_FORMAT_CONTIGUOUS = 0,       /**< Row-major: the last dim moves fastest. */
  ST_MEMORY_FORMAT_CHANNELS_LAST = 1,    /**< 4-d only: NHWC order in memory for an NCHW shape. */
  ST_MEMORY_FORMAT_CHANNELS_LAST_3D = 2, /**< 5-d only: NDHWC order for an NCDHW shape. */
  ST_MEMORY_FORMAT_PRESERVE = 3          /**< Keep the source's stride order (see st_clone). */
} st_memory_format;

/**
 * @brief A tensor handle: a plain value, safe to copy and pass through any FFI.
 *
 * `{0}` is the null handle. A handle is generational: using a released
 * handle is detected and answered with ST_ERROR_INVALID_HANDLE.
 */
typedef struct st_tensor {
  uint64_t id;  /**< Opaque; 0 is null. */
} st_tensor;

/** @} */

/* ======================================================================== */
/** @name Creating and releasing */
/* ======================================================================== */
/** @{ */

/**
 * @brief Frees memory wrapped by st_tensor_from_data().
 * @param data The `data` pointer that was passed to st_tensor_from_data().
 * @param ctx  The `deleter_ctx` that was passed with it.
 *
 * Called exactly once, on whichever thread drops the last use of the
 * memory (usually the one calling st_tensor_release() on the last tensor
 * that shares it).
 */
typedef void (*st_deleter)(void* data, void* ctx);

/**
 * @brief Creates a contiguous (row-major) tensor; its elements are uninitialized.
 *
 * A tensor with no elements (a size is 0) holds no bytes and can be made
 * whatever its other sizes; a stride of it that would overflow int64 is 0.
 *
 * @param sizes  `ndim` sizes, each >= 0; may be NULL when `ndim` is 0 (a scalar).
 * @param ndim   0 to ST_MAX_DIMS.
 * @param dtype  Element type.
 * @param device Where to allocate; the CPU has index 0.
 * @param[out] out On success one reference to the new tensor; `{0}` on failure.
 *
 * @retval ST_OK
 * @retval ST_ERROR_INVALID_ARGUMENT `out` NULL, `sizes` NULL with ndim > 0,
 *         ndim < 0 or > ST_MAX_DIMS, a negative size, an unknown dtype or
 *         device type, a CPU index other than 0, a negative device index.
 * @retval ST_ERROR_OUT_OF_MEMORY the allocation failed (the CPU allocator
 *         or the CUDA runtime had no memory), numel × itemsize overflows
 *         int64, or no memory was left for the new handle.
 * @retval ST_ERROR_DEVICE_UNAVAILABLE a CUDA or pinned host (CUDA_HOST)
 *         device, and stride has no CUDA support, no driver is installed,
 *         no GPU is present or the index is out of range; the message says which.
 * @retval ST_ERROR_DEVICE_FAILURE the CUDA runtime reported an error other
 *         than a lack of memory (the message has its error name and text).
 * @retval ST_ERROR_NOT_IMPLEMENTED no kernel of this build allocates on
 *         `device` (the message names the operator and the backend).
 */
ST_API st_status st_tensor_create(const int64_t* sizes, int32_t ndim, st_dtype dtype,
                                  st_device device, st_tensor* out);

/**
 * @brief Creates a tensor with the given strides; its elements are uninitialized.
 *
 * The storage is the span the strides need: 1 + Σ (size − 1) × stride
 * elements (none when a size is 0). Strides may be 0 (the elements then
 * share memory) but not negative.
 *
 * @param sizes   `ndim` sizes, each >= 0; may be NULL when `ndim` is 0.
 * @param strides `ndim` strides in elements, each >= 0; may be NULL when `ndim` is 0.
 * @param ndim    0 to ST_MAX_DIMS.
 * @param dtype   Element type.
 * @param device  Where to allocate; the CPU has index 0.
 * @param[out] out On success one reference to the new tensor; `{0}` on failure.
 *
 * @retval ST_OK
 * @retval ST_ERROR_INVALID_ARGUMENT as st_tensor_create(), plus `strides`
 *         NULL with ndim > 0 or a negative stride.
 * @retval ST_ERROR_OUT_OF_MEMORY as st_tensor_create(), or the span
 *         overflows int64.
 * @retval ST_ERROR_DEVICE_UNAVAILABLE as st_tensor_create().
 * @retval ST_ERROR_DEVICE_FAILURE as st_tensor_create().
 * @retval ST_ERROR_NOT_IMPLEMENTED as st_tensor_create().
 */
ST_API st_status st_tensor_create_strided(const int64_t* sizes, const int64_t* strides,
                                          int32_t ndim, st_dtype dtype, st_device device,
                                          st_tensor* out);

/**
 * @brief Creates an uninitialized tensor with the shape, dtype and device of `src`.
 *
 * The strides follow `fmt`: row-major, channels-last (4-d `src` only),
 * channels-last-3d (5-d only), or with PRESERVE those of `src` when `src`
 * is non-overlapping and dense, else dense strides in `src`'s stride order
 * (a negative stride counts by its absolute value).
 *
 * @param src A live handle; only its metadata is read.
 * @param fmt The layout of the new tensor (any st_memory_format).
 * @param[out] out On success one reference to the new tensor; `{0}` on failure.
 *
 * @retval ST_OK
 * @retval ST_ERROR_INVALID_ARGUMENT `out` NULL, unknown `fmt`, or a
 *         channels-last format on a tensor of the wrong rank.
 * @retval ST_ERROR_INVALID_HANDLE `src` is not a live handle.
 * @retval ST_ERROR_OUT_OF_MEMORY the allocation failed, or no memory was
 *         left for the new handle.
 * @retval ST_ERROR_DEVICE_UNAVAILABLE `src` lives on a CUDA device that is gone.
 * @retval ST_ERROR_DEVICE_FAILURE as st_tensor_create().
 * @retval ST_ERROR_NOT_IMPLEMENTED as st_tensor_create().
 */
ST_API st_status st_tensor_create_like(st_tensor src, st_memory_format fmt, st_tensor* out);

/**
 * @brief Wraps memory the caller owns as a tensor, without copying.
 *
 * `data` is the address of element (0, …, 0); strides may be negative
 * (NumPy style). The storage is exactly the span of the wrapped elements.
 * On success the storage owns `data`: `deleter(data, deleter_ctx)` is called
 * exactly once, when the last tensor sharing it is released. A NULL deleter
 * means the caller keeps ownership and must keep the memory alive as long as
 * any tensor uses it. On failure the deleter is not called.
 *
 * @param data        Address of element (0, …, 0); NULL only when a size is 0.
 * @param sizes       `ndim` sizes, each >= 0; may be NULL when `ndim` is 0.
 * @param strides     `ndim` strides in elements, any sign; NULL means row-major.
 * @param ndim        0 to ST_MAX_DIMS.
 * @param dtype       Element type of the memory.
 * @param device      Where the memory is: the CPU, a CUDA device (a device
 *                    pointer) or CUDA_HOST (page-locked host memory).
 * @param deleter     Called once with `data` and `deleter_ctx` when the
 *                    memory is no longer used; NULL to keep ownership.
 * @param deleter_ctx Passed to `deleter` unchanged; may be NULL.
 * @param[out] out On success one reference to the new tensor; `{0}` on failure.
 *
 * @retval ST_OK
 * @retval ST_ERROR_INVALID_ARGUMENT `out` NULL, `data` NULL for a non-empty
 *         tensor, elements that would lie below address 0 or past the top
 *         of the address space, memory that is not what `device` says (its
 *         first and last byte asked of CUDA: host memory for a CUDA device,
 *         memory that is not page-locked for CUDA_HOST, CUDA device memory
 *         for the CPU), and the argument errors of st_tensor_create().
 * @retval ST_ERROR_OUT_OF_MEMORY the span of the strides overflows int64,
 *         or the bookkeeping could not be allocated.
 * @retval ST_ERROR_DEVICE_UNAVAILABLE a CUDA or CUDA_HOST device that is
 *         unavailable, as st_tensor_create().
 */
ST_API st_status st_tensor_from_data(void* data, const int64_t* sizes, const int64_t* strides,
                                     int32_t ndim, st_dtype dtype, st_device device,
                                     st_deleter deleter, void* deleter_ctx, st_tensor* out);

/**
 * @brief Adds one reference to a handle; pair it with st_tensor_release().
 * @param t A live handle.
 * @retval ST_OK
 * @retval ST_ERROR_INVALID_HANDLE `t` is null, released or never issued.
 * @retval ST_ERROR_OUT_OF_MEMORY the handle already holds 2^32 − 1 references.
 */
ST_API st_status st_tensor_retain(st_tensor t);

/**
 * @brief Drops one reference. The last one frees the handle; the storage is
 *        freed when no tensor uses it any more.
 *
 * After the last reference the handle is dead at once, even while calls
 * that were given it are still running; they finish with the tensor, which
 * is freed when the last of them returns.
 * @param t A live handle, or the null handle `{0}`.
 * @retval ST_OK also for the null handle, which is ignored.
 * @retval ST_ERROR_INVALID_HANDLE `t` holds no reference any more (a double
 *         release, also one made while a call still uses `t`), or was never
 *         issued.
 */
ST_API st_status st_tensor_release(st_tensor t);

/** @} */

/* ======================================================================== */
/** @name Reading metadata
 * Each of these writes `*out` on success only and answers
 * ST_ERROR_INVALID_HANDLE for a handle that is not live and
 * ST_ERROR_INVALID_ARGUMENT for a NULL `out`.
 */
/* ======================================================================== */
/** @{ */

/**
 * @brief Number of dims, 0 to ST_MAX_DIMS.
 * @param t A live handle.
 * @param[out] out The number of dims.
 * @retval ST_OK
 * @retval ST_ERROR_INVALID_ARGUMENT `out` is NULL.
 * @retval ST_ERROR_INVALID_HANDLE `t` is not a live handle.
 */
ST_API st_status st_tensor_ndim(st_tensor t, int32_t* out);

/**
 * @brief Copies the sizes into `out[0..ndim)`.
 * @param t A live handle.
 * @param[out] out Room for `capacity` values; receives the ndim sizes.
 * @param capacity Number of elements `out` can hold.
 * @retval ST_OK
 * @retval ST_ERROR_INVALID_ARGUMENT `out` is NULL or `capacity` < ndim
 *         (nothing is written).
 * @retval ST_ERROR_INVALID_HANDLE `t` is not a live handle.
 */
ST_API st_status st_tensor_sizes(st_tensor t, int64_t* out, int32_t capacity);

/**
 * @brief Copies the strides, in elements, into `out[0..ndim)`.
 * @param t A live handle.
 * @param[out] out Room for `capacity` values; receives the ndim strides.
 * @param capacity Number of elements `out` can hold.
 * @retval ST_OK
 * @retval ST_ERROR_INVALID_ARGUMENT `out` is NULL or `capacity` < ndim
 *         (nothing is written).
 * @retval ST_ERROR_INVALID_HANDLE `t` is not a live handle.
 */
ST_API st_status st_tensor_strides(st_tensor t, int64_t* out, int32_t capacity);

/**
 * @brief The element type.
 * @param t A live handle.
 * @param[out] out The dtype.
 * @retval ST_OK
 * @retval ST_ERROR_INVALID_ARGUMENT `out` is NULL.
 * @retval ST_ERROR_INVALID_HANDLE `t` is not a live handle.
 */
ST_API st_status st_tensor_dtype(st_tensor t, st_dtype* out);

/**
 * @brief Where the data lives.
 * @param t A live handle.
 * @param[out] out The device type and index.
 * @retval ST_OK
 * @retval ST_ERROR_INVALID_ARGUMENT `out` is NULL.
 * @retval ST_ERROR_INVALID_HANDLE `t` is not a live handle.
 */
ST_API st_status st_tensor_device(st_tensor t, st_device* out);

/**
 * @brief Number of elements: the product of the sizes (1 for a scalar).
 * @param t A live handle.
 * @param[out] out The number of elements.
 * @retval ST_OK
 * @retval ST_ERROR_INVALID_ARGUMENT `out` is NULL.
 * @retval ST_ERROR_INVALID_HANDLE `t` is not a live handle.
 */
ST_API st_status st_tensor_numel(st_tensor t, int64_t* out);

/**
 * @brief Elements from the storage's lowest address to element (0, …, 0).
 *
 * With negative strides element (0, …, 0) is not at the start of the
 * storage, so the offset can be positive even for a fresh wrap.
 * @param t A live handle.
 * @param[out] out The offset, in elements, >= 0.
 * @retval ST_OK
 * @retval ST_ERROR_INVALID_ARGUMENT `out` is NULL.
 * @retval ST_ERROR_INVALID_HANDLE `t` is not a live handle.
 */
ST_API st_status st_tensor_storage_offset(st_tensor t, int64_t* out);

/**
 * @brief The address of element (0, …, 0). Valid while any tensor shares the storage.
 *
 * Element (i, j, …) is at this address plus (i × strides[0] + j × strides[1]
 * + …) × itemsize bytes. For a CUDA tensor it is a device pointer.
 * @param t A live handle.
 * @param[out] out The address; may be NULL for a tensor without elements.
 * @retval ST_OK
 * @retval ST_ERROR_INVALID_ARGUMENT `out` is NULL.
 * @retval ST_ERROR_INVALID_HANDLE `t` is not a live handle.
 */
ST_API st_status st_tensor_data_ptr(st_tensor t, void** out);

/**
 * @brief Whether the tensor is laid out as `fmt` asks, as PyTorch decides it.
 *
 * Dims of size 1 are ignored. An empty tensor is CONTIGUOUS; for the
 * channels-last formats the stride rule applies even when it is empty.
 * CHANNELS_LAST answers 0 for a tensor that is not 4-d, CHANNELS_LAST_3D
 * for one that is not 5-d. PRESERVE answers whether the tensor is
 * non-overlapping and dense (some permutation of a contiguous tensor).
 *
 * @param t A live handle.
 * @param fmt The layout asked about (any st_memory_format).
 * @param[out] out 1 or 0.
 * @retval ST_OK
 * @retval ST_ERROR_INVALID_ARGUMENT `out` is NULL or `fmt` is unknown.
 * @retval ST_ERROR_INVALID_HANDLE `t` is not a live handle.
 */
ST_API st_status st_tensor_is_contiguous(st_tensor t, st_memory_format fmt, int32_t* out);

/** @} */

/* ======================================================================== */
/** @name Views
 * A view shares its source's storage; no data is copied. Each writes one
 * new reference to `out` on success and `{0}` on failure, and answers
 * ST_ERROR_INVALID_HANDLE when `src` is not live,
 * ST_ERROR_INVALID_ARGUMENT when `out` is NULL and ST_ERROR_OUT_OF_MEMORY
 * when no memory is left for the new handle. Dims may be negative: -1 is
 * the last one.
 */
/* ======================================================================== */
/** @{ */

/**
 * @brief A view with any sizes, strides (negative allowed) and offset,
 *        which must stay inside `src`'s storage.
 *
 * @param src            A live handle; the view shares its storage.
 * @param sizes          `ndim` sizes, each >= 0.
 * @param strides        `ndim` strides in elements, any sign.
 * @param ndim           0 to ST_MAX_DIMS.
 * @param storage_offset Elements from the storage's lowest address to the new element (0, …, 0).
 * @param[out] out       On success one reference to the view; `{0}` on failure.
 * @retval ST_OK
 * @retval ST_ERROR_INVALID_ARGUMENT `out` NULL, NULL arrays with ndim > 0,
 *         bad ndim, a negative size or offset.
 * @retval ST_ERROR_INVALID_HANDLE `src` is not a live handle.
 * @retval ST_ERROR_OUT_OF_BOUNDS some element would lie outside the storage
 *         (either end, negative strides included).
 * @retval ST_ERROR_OUT_OF_MEMORY numel × itemsize overflows int64, or no
 *         memory for the new handle.
 */
ST_API st_status st_as_strided(st_tensor src, const int64_t* sizes, const int64_t* strides,
                               int32_t ndim, int64_t storage_offset, st_tensor* out);

/**
 * @brief Reorders the dims: dim i of the result is dim `dims[i]` of `src`.
 * @param src  A live handle.
 * @param dims A permutation of 0..ndim-1 (negative values count from the end).
 * @param ndim Must equal `src`'s number of dims.
 * @param[out] out On success one reference to the view; `{0}` on failure.
 * @retval ST_OK
 * @retval ST_ERROR_INVALID_ARGUMENT `out` NULL, `dims` NULL with ndim > 0,
 *         `ndim` different from `src`'s, a dim out of range or repeated.
 * @retval ST_ERROR_INVALID_HANDLE `src` is not a live handle.
 * @retval ST_ERROR_OUT_OF_MEMORY no memory for the new handle.
 */
ST_API st_status st_permute(st_tensor src, const int32_t* dims, int32_t ndim, st_tensor* out);

/**
 * @brief Swaps two dims.
 * @param src  A live handle.
 * @param dim0 A dim of `src`.
 * @param dim1 A dim of `src`; may equal `dim0`.
 * @param[out] out On success one reference to the view; `{0}` on failure.
 * @retval ST_OK
 * @retval ST_ERROR_INVALID_ARGUMENT `out` NULL or a dim out of range.
 * @retval ST_ERROR_INVALID_HANDLE `src` is not a live handle.
 * @retval ST_ERROR_OUT_OF_MEMORY no memory for the new handle.
 */
ST_API st_status st_transpose(st_tensor src, int32_t dim0, int32_t dim1, st_tensor* out);

/**
 * @brief Elements start, start+step, … below stop along `dim`, by Python's rules.
 *
 * Negative `start`/`stop` count from the end; both are then clamped to
 * [0, size]; stop <= start gives an empty dim.
 * @param src   A live handle.
 * @param dim   The dim to slice.
 * @param start First index taken.
 * @param stop  First index not taken.
 * @param step  Distance between taken indices, >= 1.
 * @param[out] out On success one reference to the view; `{0}` on failure.
 * @retval ST_OK
 * @retval ST_ERROR_INVALID_ARGUMENT `out` NULL, a dim out of range or `step` < 1.
 * @retval ST_ERROR_INVALID_HANDLE `src` is not a live handle.
 * @retval ST_ERROR_OUT_OF_MEMORY no memory for the new handle.
 */
ST_API st_status st_slice(st_tensor src, int32_t dim, int64_t start, int64_t stop, int64_t step,
                          st_tensor* out);

/**
 * @brief Element `index` along `dim`; the result has one dim fewer.
 * @param src   A live handle with at least one dim.
 * @param dim   The dim to drop.
 * @param index In [-size, size); a negative index counts from the end.
 * @param[out] out On success one reference to the view; `{0}` on failure.
 * @retval ST_OK
 * @retval ST_ERROR_INVALID_ARGUMENT `out` NULL or a dim out of range (a
 *         0-d `src` has none).
 * @retval ST_ERROR_INVALID_HANDLE `src` is not a live handle.
 * @retval ST_ERROR_OUT_OF_BOUNDS `index` outside [-size, size).
 * @retval ST_ERROR_OUT_OF_MEMORY no memory for the new handle.
 */
ST_API st_status st_select(st_tensor src, int32_t dim, int64_t index, st_tensor* out);

/**
 * @brief Broadcasts `src` to `sizes` with stride 0 on the expanded dims.
 *
 * `sizes` is aligned with `src`'s dims from the right; new leading dims are
 * allowed. -1 keeps `src`'s size (not in a new leading dim). Only dims of
 * size 1 can grow. A 0-d tensor expands to any shape.
 * @param src   A live handle.
 * @param sizes `ndim` target sizes, each >= 0 or -1.
 * @param ndim  At least `src`'s number of dims, at most ST_MAX_DIMS.
 * @param[out] out On success one reference to the view; `{0}` on failure.
 * @retval ST_OK
 * @retval ST_ERROR_INVALID_ARGUMENT `out` NULL, `sizes` NULL with ndim > 0,
 *         bad ndim, a size below -1, or -1 in a new leading dim.
 * @retval ST_ERROR_INVALID_HANDLE `src` is not a live handle.
 * @retval ST_ERROR_SHAPE_MISMATCH `ndim` below `src`'s, or a dim whose size
 *         is not 1 would change.
 * @retval ST_ERROR_OUT_OF_MEMORY numel × itemsize overflows int64, or no
 *         memory for the new handle.
 */
ST_API st_status st_expand(st_tensor src, const int64_t* sizes, int32_t ndim, st_tensor* out);

/**
 * @brief Inserts a dim of size 1 before `dim` (dim in [-(ndim+1), ndim]).
 * @param src A live handle.
 * @param dim Where the new dim goes; -1 appends it.
 * @param[out] out On success one reference to the view; `{0}` on failure.
 * @retval ST_OK
 * @retval ST_ERROR_INVALID_ARGUMENT `out` NULL, a dim out of range, or
 *         `src` already has ST_MAX_DIMS dims.
 * @retval ST_ERROR_INVALID_HANDLE `src` is not a live handle.
 * @retval ST_ERROR_OUT_OF_MEMORY no memory for the new handle.
 */
ST_API st_status st_unsqueeze(st_tensor src, int32_t dim, st_tensor* out);

/**
 * @brief Removes `dim` when its size is 1; otherwise the view has `src`'s shape.
 * @param src A live handle.
 * @param dim The dim to remove.
 * @param[out] out On success one reference to the view; `{0}` on failure.
 * @retval ST_OK
 * @retval ST_ERROR_INVALID_ARGUMENT `out` NULL or a dim out of range (a 0-d
 *         tensor accepts 0 and -1).
 * @retval ST_ERROR_INVALID_HANDLE `src` is not a live handle.
 * @retval ST_ERROR_OUT_OF_MEMORY no memory for the new handle.
 */
ST_API st_status st_squeeze(st_tensor src, int32_t dim, st_tensor* out);

/**
 * @brief Reverses `dim`: a view with a negative stride on it.
 * @param src A live handle.
 * @param dim The dim to reverse.
 * @param[out] out On success one reference to the view; `{0}` on failure.
 * @retval ST_OK
 * @retval ST_ERROR_INVALID_ARGUMENT `out` NULL or a dim out of range.
 * @retval ST_ERROR_INVALID_HANDLE `src` is not a live handle.
 * @retval ST_ERROR_OUT_OF_MEMORY no memory for the new handle.
 */
ST_API st_status st_flip(st_tensor src, int32_t dim, st_tensor* out);

/**
 * @brief The same elements with a new shape, without copying.
 *
 * Follows PyTorch's rule (computeStride): possible when every group of
 * merged or split dims is contiguous within itself. One size may be -1; it
 * is inferred from the number of elements.
 * @param src   A live handle.
 * @param sizes `ndim` sizes, each >= 0, or one of them -1.
 * @param ndim  0 to ST_MAX_DIMS.
 * @param[out] out On success one reference to the view; `{0}` on failure.
 * @retval ST_OK
 * @retval ST_ERROR_INVALID_ARGUMENT `out` NULL, `sizes` NULL with ndim > 0,
 *         bad ndim, a size below -1, more than one -1.
 * @retval ST_ERROR_INVALID_HANDLE `src` is not a live handle.
 * @retval ST_ERROR_SHAPE_MISMATCH numel differs, or the strides forbid the view.
 * @retval ST_ERROR_OUT_OF_MEMORY no memory for the new handle.
 */
ST_API st_status st_view(st_tensor src, const int64_t* sizes, int32_t ndim, st_tensor* out);

/**
 * @brief st_view() when the strides allow it, else a contiguous copy with the new shape.
 *
 * Whether the result shares `src`'s storage depends on `src`'s strides
 * exactly as st_view() decides. One size may be -1.
 * @param src   A live handle.
 * @param sizes `ndim` sizes, each >= 0, or one of them -1.
 * @param ndim  0 to ST_MAX_DIMS.
 * @param[out] out On success one reference to the result; `{0}` on failure.
 * @retval ST_OK
 * @retval ST_ERROR_INVALID_ARGUMENT as st_view().
 * @retval ST_ERROR_INVALID_HANDLE `src` is not a live handle.
 * @retval ST_ERROR_SHAPE_MISMATCH numel differs.
 * @retval ST_ERROR_OUT_OF_MEMORY the copy could not be allocated, or no
 *         memory for the new handle.
 * @retval ST_ERROR_DEVICE_UNAVAILABLE a copy of device memory without a usable device.
 * @retval ST_ERROR_DEVICE_FAILURE the CUDA runtime reported an error during
 *         the copy (the message has its error name and text).
 * @retval ST_ERROR_NOT_IMPLEMENTED no kernel of this build copies `src`'s memory.
 */
ST_API st_status st_reshape(st_tensor src, const int64_t* sizes, int32_t ndim, st_tensor* out);

/** @} */

/* ======================================================================== */
/** @name Operators
 * Each answers ST_ERROR_INVALID_HANDLE for a handle that is not live and
 * ST_ERROR_INVALID_ARGUMENT for a NULL `out`, an unknown enum value or a
 * memory format that does not fit the rank (CHANNELS_LAST needs 4 dims,
 * CHANNELS_LAST_3D 5). Operators that make a tensor answer
 * ST_ERROR_OUT_OF_MEMORY when it cannot be allocated. Operators on CUDA or
 * pinned (CUDA_HOST) tensors answer ST_ERROR_DEVICE_UNAVAILABLE when the
 * device cannot be used and ST_ERROR_DEVICE_FAILURE when the CUDA runtime
 * reports an error, from this call or from earlier work on the stream (the
 * message has its error name and text). Every element is
 * converted by the conversion rules: float → integer truncates and
 * saturates (NaN → 0), integers wrap, rounding to float16 / bfloat16 /
 * float32 is to nearest even from the exact value, → bool is "nonzero",
 * complex → real keeps the real part. The rules hold whatever
 * floating-point environment the calling thread, or a thread of a job
 * system (st_set_parallel_for()), is in: its rounding mode, the x86
 * MXCSR's denormals-are-zero and flush-to-zero bits and its exception
 * masks change no result (subnormals are kept); a call leaves the
 * environment as it found it, and may raise exception flags but never
 * clears one. (Elsewhere than on x86-64, only the rounding mode is
 * covered.) An operator whose operands include
 * memory that this build has no kernel for answers
 * ST_ERROR_NOT_IMPLEMENTED, naming the operator and the backend.
 */
/* ======================================================================== */
/** @{ */

/**
 * @brief `src` laid out as `fmt` asks: `src` itself when it already is, else a copy.
 *
 * When `src` is contiguous in `fmt` (st_tensor_is_contiguous), `*out` is
 * `src`'s own handle with one more reference: release both (or, when the
 * last reference to `src` was released while the call ran, a new handle of
 * the same tensor). Otherwise a new tensor, as st_clone(src, fmt).
 * @param src A live handle.
 * @param fmt CONTIGUOUS, CHANNELS_LAST (4-d) or CHANNELS_LAST_3D (5-d).
 * @param[out] out On success one reference to the result; `{0}` on failure.
 * @retval ST_OK
 * @retval ST_ERROR_INVALID_ARGUMENT `out` NULL, an unknown `fmt`, PRESERVE
 *         (as in PyTorch), or a channels-last format on a tensor of the
 *         wrong rank.
 * @retval ST_ERROR_INVALID_HANDLE `src` is not a live handle.
 * @retval ST_ERROR_OUT_OF_MEMORY the copy could not be allocated, or no
 *         memory for the new handle.
 * @retval ST_ERROR_DEVICE_UNAVAILABLE `src` on a CUDA device that cannot be used.
 * @retval ST_ERROR_DEVICE_FAILURE the CUDA runtime failed during the copy.
 * @retval ST_ERROR_NOT_IMPLEMENTED no kernel of this build copies `src`'s memory.
 */
ST_API st_status st_contiguous(st_tensor src, st_memory_format fmt, st_tensor* out);

/**
 * @brief A copy of `src` in new storage, laid out as `fmt` asks.
 *
 * With PRESERVE a non-overlapping dense source keeps its strides exactly;
 * any other source gets dense strides in its own stride order (a negative
 * stride counts by its absolute value). The result never has negative strides.
 * @param src A live handle.
 * @param fmt Any st_memory_format; channels-last ones need the matching rank.
 * @param[out] out On success one reference to the copy; `{0}` on failure.
 * @retval ST_OK
 * @retval ST_ERROR_INVALID_ARGUMENT `out` NULL, an unknown `fmt`, or a
 *         channels-last format on a tensor of the wrong rank.
 * @retval ST_ERROR_INVALID_HANDLE `src` is not a live handle.
 * @retval ST_ERROR_OUT_OF_MEMORY the copy could not be allocated, or no
 *         memory for the new handle.
 * @retval ST_ERROR_DEVICE_UNAVAILABLE `src` on a CUDA device that cannot be used.
 * @retval ST_ERROR_DEVICE_FAILURE the CUDA runtime failed during the copy.
 * @retval ST_ERROR_NOT_IMPLEMENTED no kernel of this build copies `src`'s memory.
 */
ST_API st_status st_clone(st_tensor src, st_memory_format fmt, st_tensor* out);

/**
 * @brief dst[...] = src, with `src` broadcast to `dst`'s shape, any dtype pair.
 *
 * `src` may have fewer dims than `dst` (aligned from the right) and dims of
 * size 1 that broadcast; never more dims than `dst`. Overlap between `src`
 * and `dst` is always handled: the result is as if `src` were read in full
 * first. A view of the very same elements is a no-op. Nothing is written
 * when the call fails.
 * @param dst The tensor written; a live handle.
 * @param src The tensor read; a live handle, possibly sharing memory with `dst`.
 * @param non_blocking Zero: the copy has finished when the call returns.
 *        Nonzero: a copy within or between CUDA devices, and one between a
 *        CUDA device and pinned (CUDA_HOST) memory, may return once it is
 *        queued on the current stream (st_cuda_set_stream()); the library
 *        keeps the pinned memory alive until the transfer is done, and the
 *        caller synchronizes before reading the result on the host. Copies
 *        with pageable host memory (ST_DEVICE_CPU) and host-to-host copies
 *        always finish before returning.
 *        On a current stream that is capturing a CUDA graph a copy within
 *        a device is recorded and never waited for; copies between the
 *        host and a device, or between two devices, are refused.
 * @retval ST_OK
 * @retval ST_ERROR_INVALID_ARGUMENT a copy between host and device memory
 *         while the device's current stream is capturing a CUDA graph, or
 *         between two CUDA devices while the current stream of either is.
 * @retval ST_ERROR_INVALID_HANDLE `dst` or `src` is not a live handle.
 * @retval ST_ERROR_UNSUPPORTED_DTYPE one of `dst` and `src` is
 *         float4_e2m1fn_x2 and the other is not (it copies only to itself).
 * @retval ST_ERROR_SHAPE_MISMATCH `src` does not broadcast to `dst`.
 * @retval ST_ERROR_OVERLAP `dst` is not provably free of self-overlap: sort
 *         its dims of size > 1 by |stride|; each |stride| must exceed the
 *         span Σ (size − 1)·|stride| of the dims before it (an expanded
 *         `dst` always fails).
 * @retval ST_ERROR_READ_ONLY `dst` views memory imported read-only.
 * @retval ST_ERROR_OUT_OF_MEMORY a temporary for overlapping operands, or a
 *         staging buffer of a copy between devices, could not be allocated.
 * @retval ST_ERROR_DEVICE_UNAVAILABLE an operand on a CUDA device that cannot be used.
 * @retval ST_ERROR_DEVICE_FAILURE the CUDA runtime reported an error (the
 *         message has its error name and text).
 * @retval ST_ERROR_NOT_IMPLEMENTED no kernel of this build copies between
 *         the operands' memory.
 */
ST_API st_status st_copy(st_tensor dst, st_tensor src, int32_t non_blocking);

/**
 * @brief A scale and a shift applied to every element a copy writes:
 *        `dst = R(fma(x, scale[c], shift[c]))`, `c` the element's index
 *        along `dim` of dst (or 0 when `n` is 1).
 *
 * Used by the scaled copies to normalize, quantize and dequantize in the
 * same pass as the copy. The arrays are read during the call that receives
 * them (a copy plan keeps its own copy); the caller may free them after.
 */
typedef struct st_scale_shift {
  const double* scale; /**< `n` values; NULL: every scale is 1. */
  const double* shift; /**< `n` values; NULL: every shift is 0. */
  int64_t n;           /**< 1: one scale and shift for every element; otherwise dst's size along `dim`. */
  int32_t dim;         /**< The channel dim of dst (negative counts from the end); ignored when `n` is 1. */
  int32_t saturate;    /**< 0 or 1: whether a floating dst clamps overflow to its largest finite value. */
} st_scale_shift;

/**
 * @brief dst[...] = R(fma(x, scale[c], shift[c])): a copy that normalizes,
 *        quantizes or dequantizes in the same single pass.
 *
 * For every element of `dst`, `x` is the broadcast `src` element converted
 * to the compute type and `c` the element's index along `ss->dim` (0 when
 * `ss->n` is 1). The compute type is float64 when `src` or `dst` is
 * float64, int32, int64, uint32 or uint64, else float32; the scales and
 * shifts are rounded to it once, and one fused multiply-add gives the
 * same bits on every CPU and on CUDA devices. R:
 * - floating `dst`: rounded to nearest even as st_copy(); with
 *   `ss->saturate` 1, a finite result beyond dst's largest finite value,
 *   and ±inf, become that value with its sign (float8_e4m3fn ±448,
 *   float8_e5m2 ±57344, float16 ±65504: ONNX's saturate=1), NaN stays NaN;
 *   with 0 st_copy()'s rule (overflow to ±inf, NaN for float8_e4m3fn);
 * - integer `dst`: rounded to nearest, ties to even (as QuantizeLinear;
 *   st_copy() truncates instead), then clamped to its range; NaN gives 0;
 *   `ss->saturate` is ignored;
 * - bool `dst`: whether the result is nonzero.
 *
 * Broadcasting, overlap (`src` is read in full before `dst` is written),
 * devices and `non_blocking` are as st_copy(). Nothing is written when the
 * call fails.
 * @param dst The tensor written; a live handle of a real dtype.
 * @param src The tensor read; a live handle of a real dtype.
 * @param ss  The scales and shifts; read during the call only.
 * @param non_blocking As st_copy().
 * @retval ST_OK
 * @retval ST_ERROR_INVALID_ARGUMENT `ss` NULL; `ss->saturate` not 0 or 1;
 *         `ss->n` not 1 and `ss->dim` out of range for `dst`
 *         (-ndim..ndim-1); `ss->n` neither 1 nor dst's size along `ss->dim`;
 *         a copy between devices during a capture (as st_copy()).
 * @retval ST_ERROR_INVALID_HANDLE `dst` or `src` is not a live handle.
 * @retval ST_ERROR_UNSUPPORTED_DTYPE `dst` or `src` is complex, float8_e8m0fnu,
 *         float6_e2m3fn, float6_e3m2fn or float4_e2m1fn_x2 (the MX dtypes
 *         are reached through st_quantize_blocks()).
 * @retval ST_ERROR_SHAPE_MISMATCH `src` does not broadcast to `dst`.
 * @retval ST_ERROR_OVERLAP `dst` is not provably free of self-overlap (as st_copy()).
 * @retval ST_ERROR_READ_ONLY `dst` views memory imported read-only.
 * @retval ST_ERROR_OUT_OF_MEMORY the prepared values, a temporary for
 *         overlapping operands, or a staging buffer could not be allocated.
 * @retval ST_ERROR_DEVICE_UNAVAILABLE an operand on a CUDA device that cannot be used.
 * @retval ST_ERROR_DEVICE_FAILURE the CUDA runtime reported an error.
 * @retval ST_ERROR_NOT_IMPLEMENTED no kernel of this build copies between
 *         the operands' memory.
 */
ST_API st_status st_copy_scaled(st_tensor dst, st_tensor src, const st_scale_shift* ss, int32_t non_blocking);

/**
 * @brief `src` converted to `dtype`, on `device`, laid out as `fmt` asks.
 *
 * When dtype and device already match and `src` is contiguous in `fmt`
 * (PRESERVE: always), `*out` is `src`'s own handle with one more
 * reference (a new handle of the same tensor when the last reference to
 * `src` was released while the call ran). Otherwise a new tensor whose
 * strides follow `fmt` (PRESERVE: as st_clone()).
 * @param src    A live handle.
 * @param dtype  The element type of the result.
 * @param device The device of the result (see st_tensor_create()).
 * @param fmt    The layout of the result (any st_memory_format).
 * @param[out] out On success one reference to the result; `{0}` on failure.
 * @retval ST_OK
 * @retval ST_ERROR_INVALID_ARGUMENT `out` NULL, an unknown `dtype` or
 *         `fmt`, a bad device (as st_tensor_create()), or a channels-last
 *         format on a tensor of the wrong rank.
 * @retval ST_ERROR_INVALID_HANDLE `src` is not a live handle.
 * @retval ST_ERROR_UNSUPPORTED_DTYPE one of `dtype` and `src`'s dtype is
 *         float4_e2m1fn_x2 and the other is not.
 * @retval ST_ERROR_OUT_OF_MEMORY the result could not be allocated, or no
 *         memory for the new handle.
 * @retval ST_ERROR_DEVICE_UNAVAILABLE `device` or `src`'s device cannot be used.
 * @retval ST_ERROR_DEVICE_FAILURE the CUDA runtime reported an error (the
 *         message has its error name and text).
 * @retval ST_ERROR_NOT_IMPLEMENTED no kernel of this build allocates on
 *         `device` or copies between the two devices.
 */
ST_API st_status st_to(st_tensor src, st_dtype dtype, st_device device, st_memory_format fmt, st_tensor* out);

/**
 * @brief Sets every element of `dst` to `value` converted to its dtype.
 *
 * A self-overlapping `dst` (an expanded view) is allowed: every element
 * receives the same value. On a CUDA device the fill is queued on the
 * current stream and may still be running when the call returns (later
 * work on that stream, such as a blocking st_copy(), sees it done).
 * @param dst   The tensor written; a live handle.
 * @param value Converted once by the conversion rules (NaN into an integer
 *              dtype gives 0, values beyond its range saturate).
 * @retval ST_OK
 * @retval ST_ERROR_INVALID_HANDLE `dst` is not a live handle.
 * @retval ST_ERROR_UNSUPPORTED_DTYPE `dst` is float4_e2m1fn_x2, to which no
 *         value converts.
 * @retval ST_ERROR_READ_ONLY `dst` views memory imported read-only.
 * @retval ST_ERROR_DEVICE_UNAVAILABLE `dst` on a CUDA device that cannot be used.
 * @retval ST_ERROR_DEVICE_FAILURE the CUDA runtime reported an error (the
 *         message has its error name and text).
 * @retval ST_ERROR_NOT_IMPLEMENTED no kernel of this build fills `dst`'s memory.
 */
ST_API st_status st_fill(st_tensor dst, double value);

/**
 * @brief st_fill(dst, 0).
 * @param dst The tensor written; a live handle.
 * @retval ST_OK
 * @retval ST_ERROR_INVALID_HANDLE `dst` is not a live handle.
 * @retval ST_ERROR_UNSUPPORTED_DTYPE as st_fill().
 * @retval ST_ERROR_READ_ONLY `dst` views memory imported read-only.
 * @retval ST_ERROR_DEVICE_UNAVAILABLE `dst` on a CUDA device that cannot be used.
 * @retval ST_ERROR_DEVICE_FAILURE as st_fill().
 * @retval ST_ERROR_NOT_IMPLEMENTED as st_fill().
 */
ST_API st_status st_zero(st_tensor dst);

/** @} */

/* ======================================================================== */
/** @name DLPack
 * Zero-copy exchange with any framework that speaks DLPack (NumPy,
 * PyTorch, JAX, CuPy, ...). Include `<dlpack/dlpack.h>` (or a DLPack 1.x
 * header for the versioned struct) to read the structures; this header
 * only names them.
 *
 * Export (st_to_dlpack*) writes one DLPack tensor that holds a reference to
 * the storage until its deleter runs. The consumer must call
 * `out->deleter(out)` exactly once, from any thread; the handle `t` may be
 * released before or after. Every stride is exported exactly as the tensor
 * has it (in elements, negative ones included, size-1 dims untouched);
 * `data` is the address of element (0, …, 0) and `byte_offset` is 0.
 * Dtypes map to DLPack (code, bits): bool → (kDLBool 6, 8), uint8..uint64
 * → kDLUInt, int8..int64 → kDLInt, float16/32/64 → kDLFloat, bfloat16 →
 * (kDLBfloat, 16), complex64/128 → (kDLComplex, 64/128), float8_e4m3fn →
 * (10, 8), float8_e5m2 → (12, 8), float8_e8m0fnu → (14, 8); lanes is 1.
 * DLPack 1.1's narrower types: float6_e2m3fn / float6_e3m2fn → (15 / 16,
 * 6, 1 lane), one value a byte, which DLPack says with the flag
 * DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED (so the classic struct, which
 * has no flags, cannot carry them); float4_e2m1fn_x2 → (17, 4, 2 lanes),
 * as PyTorch exports it (an element is a byte of two values).
 * Devices keep their numbers (st_device_type is DLDeviceType).
 *
 * Import (st_from_dlpack*) wraps the producer's memory without copying:
 * `data + byte_offset` is element (0, …, 0); NULL strides mean row-major;
 * negative strides and empty tensors are accepted; `data` may be NULL only
 * for an empty tensor. On success the library owns `in`: it calls
 * `in->deleter(in)` (when not NULL) exactly once, when the last tensor
 * sharing the memory is released, on whichever thread releases it. On
 * failure the library does not touch `in->deleter`: the caller still owns `in`.
 */
/* ======================================================================== */
/** @{ */

/** The classic DLPack tensor (DLPack 0.x, `<dlpack/dlpack.h>`). */
struct DLManagedTensor;
/** The versioned DLPack tensor (DLPack 1.x). */
struct DLManagedTensorVersioned;

/**
 * @brief Exports `t` as a classic DLManagedTensor, without copying.
 *
 * The classic struct has no read-only flag: a tensor imported read-only is
 * exported all the same, and the consumer is trusted not to write it.
 *
 * @param t The tensor to export; it may be released while the export lives.
 *
 * @param[out] out On success a DLManagedTensor the caller must hand back
 *             through its deleter; NULL on failure.
 * @retval ST_OK
 * @retval ST_ERROR_INVALID_ARGUMENT `out` NULL.
 * @retval ST_ERROR_INVALID_HANDLE `t` is not a live handle.
 * @retval ST_ERROR_UNSUPPORTED_DTYPE `t` is float6_e2m3fn or float6_e3m2fn,
 *         which DLPack describes with a flag that only the versioned
 *         struct has (st_to_dlpack_versioned() exports them).
 * @retval ST_ERROR_OUT_OF_MEMORY the bookkeeping could not be allocated.
 */
ST_API st_status st_to_dlpack(st_tensor t, struct DLManagedTensor** out);

/**
 * @brief Wraps a classic DLManagedTensor as a tensor, without copying.
 *
 * @param in  The producer's tensor; owned by the library on success only.
 * @param[out] out On success one reference to the new tensor; `{0}` on failure.
 * @retval ST_OK
 * @retval ST_ERROR_INVALID_ARGUMENT `in` or `out` NULL, ndim outside
 *         0..ST_MAX_DIMS, `shape` NULL with ndim > 0, a negative size,
 *         `data` NULL for a non-empty tensor, a CPU device_id other than 0,
 *         a negative device_id, a byte_offset past the address space,
 *         elements that would lie outside the address space, or memory that
 *         is not what the device says (as st_tensor_from_data()).
 * @retval ST_ERROR_UNSUPPORTED_DTYPE a (code, bits, lanes) with no stride
 *         dtype: lanes other than 1 (but float4's (17, 4, 2)),
 *         kDLOpaqueHandle, a float8 code with bits other than 8, the
 *         float8 formats other than e4m3fn (10), e5m2 (12) and e8m0fnu
 *         (14), float4 as (17, 4, 1) (values packed two a byte but counted
 *         singly), ...; and the float6 codes (15, 16) here, since the
 *         classic struct cannot say that each value has a byte of its own.
 * @retval ST_ERROR_DEVICE_UNAVAILABLE a device type other than kDLCPU,
 *         kDLCUDA and kDLCUDAHost, or a CUDA device this build or machine
 *         cannot use.
 * @retval ST_ERROR_OUT_OF_MEMORY the span of the strides overflows int64,
 *         or the bookkeeping could not be allocated.
 */
ST_API st_status st_from_dlpack(struct DLManagedTensor* in, st_tensor* out);

/**
 * @brief Exports `t` as a DLManagedTensorVersioned (DLPack 1.0 or 1.1), without copying.
 *
 * `version` is 1.1 for the dtypes whose codes DLPack 1.1 added
 * (float8_e8m0fnu, float4_e2m1fn_x2, float6_e2m3fn, float6_e3m2fn) and 1.0
 * for the others; `flags` has DLPACK_FLAG_BITMASK_READ_ONLY set when `t` was
 * imported read-only and DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED for the
 * float6 dtypes, and nothing else.
 *
 * @param t The tensor to export; it may be released while the export lives.
 * @param[out] out On success a DLManagedTensorVersioned the caller must
 *             hand back through its deleter; NULL on failure.
 * @retval ST_OK
 * @retval ST_ERROR_INVALID_ARGUMENT `out` NULL.
 * @retval ST_ERROR_INVALID_HANDLE `t` is not a live handle.
 * @retval ST_ERROR_OUT_OF_MEMORY the bookkeeping could not be allocated.
 */
ST_API st_status st_to_dlpack_versioned(st_tensor t, struct DLManagedTensorVersioned** out);

/**
 * @brief Wraps a DLManagedTensorVersioned as a tensor, without copying.
 *
 * With DLPACK_FLAG_BITMASK_READ_ONLY in `flags` the memory is read-only:
 * every write into the tensor or a view of it (st_copy, st_fill, st_zero,
 * st_quantize_blocks, st_dequantize_blocks) answers ST_ERROR_READ_ONLY.
 * DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED is required with the float6
 * codes (15, 16, 6 bits); other flags are ignored.
 *
 * @param in  The producer's tensor; owned by the library on success only.
 * @param[out] out On success one reference to the new tensor; `{0}` on failure.
 * @retval ST_OK
 * @retval ST_ERROR_INVALID_ARGUMENT as st_from_dlpack(), and a major
 *         version above 1 (its layout is unknown; the caller keeps `in`
 *         and should call its deleter, as the DLPack specification asks).
 * @retval ST_ERROR_UNSUPPORTED_DTYPE as st_from_dlpack(), except that the
 *         float6 codes (15, 16, 6 bits, 1 lane) are read when `flags` has
 *         DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED (and refused without).
 * @retval ST_ERROR_DEVICE_UNAVAILABLE as st_from_dlpack().
 * @retval ST_ERROR_OUT_OF_MEMORY as st_from_dlpack().
 */
ST_API st_status st_from_dlpack_versioned(struct DLManagedTensorVersioned* in, st_tensor* out);

/** @} */

/* ======================================================================== */
/** @name Runtime */
/* ======================================================================== */
/** @{ */

/** The most threads st_set_num_threads() and ST_NUM_THREADS accept. */
#define ST_MAX_THREADS 1024

/**
 * @brief Sets how many threads CPU kernels may use (process-wide).
 *
 * The default is the number of cores (ST_MAX_THREADS at most), or
 * ST_NUM_THREADS from the environment when it holds an integer from 1 to
 * ST_MAX_THREADS. It is an upper bound: when the system refuses to start
 * that many threads (a limit on processes or address space), a kernel runs
 * on as many as it could start, the calling thread at least; a refused
 * thread never ends the process.
 * @param n The thread count, 1 to ST_MAX_THREADS; 1 runs every kernel on
 *          the calling thread.
 * @retval ST_OK
 * @retval ST_ERROR_INVALID_ARGUMENT `n` < 1 or `n` > ST_MAX_THREADS; the
 *         count does not change.
 */
ST_API st_status st_set_num_threads(int32_t n);

/**
 * @brief The thread count CPU kernels use now.
 * @return The count set by st_set_num_threads(), or the default; >= 1.
 */
ST_API int32_t st_get_num_threads(void);

/**
 * @brief A CPU memory provider (an engine's own heap, a tracking allocator).
 *
 * `alloc` returns memory aligned to `alignment` bytes (a power of two,
 * 64 today), or NULL on failure. `free` receives the pointer and the byte
 * count that `alloc` was given. Both may be called from any thread.
 */
typedef struct st_allocator {
  void* (*alloc)(void* ctx, size_t nbytes, size_t alignment); /**< Returns NULL on failure; `nbytes` > 0. */
  void (*free)(void* ctx, void* ptr, size_t nbytes);          /**< Never called with NULL. */
  void* ctx;                                                  /**< Passed back to both. */
} st_allocator;

/**
 * @brief Routes later CPU allocations to `allocator` (copied); NULL restores the default.
 *
 * A storage is always freed by the allocator it came from, so the old
 * allocator must stay usable until every tensor it allocated is released.
 * Tensors with no elements allocate nothing. Memory wrapped with
 * st_tensor_from_data() never goes through it.
 * The library's own allocator aligns every block to 64 bytes. It may keep
 * some freed memory for reuse by later allocations, within a bounded
 * amount; the sizes it uses and the environment variable that changes them
 * are tuning, not contract, and docs/tuning.md describes them.
 * @param allocator The provider, copied before this returns; NULL for the
 *                  library's own.
 * @retval ST_OK
 * @retval ST_ERROR_INVALID_ARGUMENT `allocator` has a NULL `alloc` or `free`.
 * @retval ST_ERROR_OUT_OF_MEMORY recording the allocator failed; nothing changes.
 */
ST_API st_status st_set_cpu_allocator(const st_allocator* allocator);

/**
 * @brief One piece of the library's work: run items [begin, end) of it.
 *
 * Handed to an ::st_parallel_for_fn. Call it from any thread, any number of
 * times, with disjoint ranges; it never throws or longjmps, and it returns
 * when the range is done.
 * @param task_ctx The `task_ctx` the ::st_parallel_for_fn received.
 * @param begin    First item, >= 0.
 * @param end      One past the last item, > `begin`, <= n.
 */
typedef void (*st_parallel_task)(void* task_ctx, int64_t begin, int64_t end);

/**
 * @brief A host job system that runs the library's CPU work (a game engine's scheduler).
 *
 * Must call `task(task_ctx, begin, end)` over disjoint chunks that together
 * cover [0, `n`) exactly once, each chunk at least `grain` items long except
 * the last, on any threads (the calling one included), and return only once
 * every chunk has returned. It may be called from several threads at once.
 *
 * A job system that breaks this (leaves part of [0, `n`) unrun, runs a
 * chunk twice or chunks that overlap, passes a chunk outside [0, `n`)) is
 * detected: the operator fails with ST_ERROR_INTERNAL and a message that
 * says how much ran. A chunk that overlaps one already run is not run; the
 * others are, so the destination may then be partly written.
 * @param ctx      The pointer given to st_set_parallel_for().
 * @param n        Number of items, > `grain`.
 * @param grain    The smallest chunk worth a thread, >= 1.
 * @param task     The work; pass it `task_ctx` and a chunk.
 * @param task_ctx Opaque to the job system.
 */
typedef void (*st_parallel_for_fn)(void* ctx, int64_t n, int64_t grain, st_parallel_task task, void* task_ctx);

/**
 * @brief Routes the library's CPU parallelism to `fn`; NULL restores the built-in OpenMP threads (process-wide).
 *
 * Work that is smaller than its grain, or that runs while
 * st_get_num_threads() is 1, stays on the calling thread and never reaches
 * `fn`; work started inside a chunk is never split again. Otherwise the job
 * system, not st_set_num_threads(), decides how many threads run the
 * chunks. Calls already running when the hook changes finish with the hook
 * they started with, so `fn` and `ctx` must stay usable after they are
 * replaced. A job system that does not cover [0, n) exactly once makes the
 * operator fail with ST_ERROR_INTERNAL, possibly with the destination
 * partly written (see st_parallel_for_fn).
 * @param fn  The job system, or NULL.
 * @param ctx Passed back to `fn`; must be NULL when `fn` is NULL.
 * @retval ST_OK the hook is installed (or removed).
 * @retval ST_ERROR_INVALID_ARGUMENT `fn` is NULL but `ctx` is not (a hook
 *         that was meant to be installed); nothing changes.
 * @retval ST_ERROR_OUT_OF_MEMORY recording the hook failed; nothing changes.
 */
ST_API st_status st_set_parallel_for(st_parallel_for_fn fn, void* ctx);

/**
 * @brief What the CPU kernels run with in this process, as lines of text
 *        for people: the thread count, the instruction-set level, how long
 *        copies stream and transposes block, and each ST_* environment
 *        variable the library ignored, with the reason. (Since 0.3.)
 *
 * One "name: value" line each, for example
 *
 *     threads: 2
 *     cpu level: avx2 (this CPU's highest: avx512)
 *     stream threshold: 16777216 B
 *     ...
 *     ignored: ST_NUM_THREADS=' 3' ignored: expected a whole number from 1 to 1024
 *
 * The level is the highest the CPU has, or the one `ST_CPU_CAPABILITY` names
 * (`scalar`, `avx2` or `avx512` on x86-64; `scalar` or `neon` on AArch64),
 * read before the first copy; a value that is not a level of this target,
 * or one the CPU lacks, is ignored and listed here. The streaming and
 * transpose settings are measured on the machine by the first copies large
 * enough to be worth it (docs/tuning.md); until then they say "not measured
 * yet". Reading this makes the choices the first copy would (it reads every
 * ST_* variable), so that every ignored value is listed. The environment's
 * rule for its values is in docs/tuning.md; the lines and their wording
 * may change between versions: read them, do not parse them.
 *
 * @return A NUL-terminated string the library owns, never NULL, valid on
 *         the calling thread until its next call of this function.
 */
ST_API const char* st_runtime_settings(void);

/** @} */

/* ======================================================================== */
/** @name CUDA
 * Every function here answers sensibly on a machine without a GPU or a
 * driver, and in a build without CUDA support: there are then no devices,
 * and naming one answers ST_ERROR_DEVICE_UNAVAILABLE with the reason.
 *
 * Work stride queues on a device goes to the calling thread's current
 * stream there (the default stream until st_cuda_set_stream() changes it).
 * Device memory is allocated on that stream and freed on the same stream
 * when the last tensor using it is released, so work queued on it before
 * the release still sees the memory; work on other streams must be
 * synchronized with it by the caller first.
 */
/* ======================================================================== */
/** @{ */

/**
 * @brief The number of CUDA devices this process can use.
 * @param[out] out The count; 0 when stride was built without CUDA, no
 *             driver is installed or no GPU is present (or visible).
 * @retval ST_OK also when there are no devices.
 * @retval ST_ERROR_INVALID_ARGUMENT `out` is NULL (nothing is written).
 */
ST_API st_status st_cuda_device_count(int32_t* out);

/**
 * @brief Sets the calling thread's current stream on CUDA device `device`.
 *
 * Later calls on this thread queue their work for `device` on `stream` and
 * allocate device memory in its order. The stream stays the caller's:
 * stride never destroys it, and it must outlive both the work queued on it
 * and every tensor allocated while it was current (their memory is freed
 * on it).
 *
 * @param device A CUDA device index, 0 to st_cuda_device_count() − 1.
 * @param stream A `cudaStream_t` created on `device`, or NULL for the
 *               default stream.
 * @retval ST_OK
 * @retval ST_ERROR_INVALID_ARGUMENT `device` is negative, or `stream`
 *         belongs to another device.
 * @retval ST_ERROR_DEVICE_UNAVAILABLE no CUDA support, no driver, no device,
 *         or `device` out of range; the message says which.
 * @retval ST_ERROR_DEVICE_FAILURE the CUDA runtime rejected `stream`
 *         (the message has its error name and text).
 */
ST_API st_status st_cuda_set_stream(int32_t device, void* stream);

/**
 * @brief Waits until all work queued on CUDA device `device`, on every
 *        stream, has finished (cudaDeviceSynchronize).
 *
 * Then lets go of the pinned memory that finished non_blocking copies kept
 * alive, and frees the free pinned blocks beyond 256 MiB of them (see
 * st_cuda_empty_cache()): the one place besides st_cuda_empty_cache()
 * where stride frees page-locked memory, because freeing it waits for the
 * device. Device memory of tensors released while their stream was
 * capturing a CUDA graph that did not allocate it is freed here (or at the
 * next allocation or release of device memory) once that capture has
 * ended: a graph frees only its own allocations.
 * @param device A CUDA device index, 0 to st_cuda_device_count() − 1.
 * @retval ST_OK
 * @retval ST_ERROR_INVALID_ARGUMENT `device` is negative.
 * @retval ST_ERROR_DEVICE_UNAVAILABLE as st_cuda_set_stream().
 * @retval ST_ERROR_DEVICE_FAILURE the device reported an error from earlier
 *         work (the message has the runtime's error name and text).
 */
ST_API st_status st_cuda_synchronize(int32_t device);

/**
 * @brief Gives back the memory stride keeps for reuse but no tensor uses:
 *        the free memory of CUDA device `device`'s pool, and every free
 *        block of page-locked host memory (the pinned block pool serves
 *        all devices).
 *
 * stride keeps released device memory in a stream-ordered pool of its own
 * (cudaMallocAsync's, never the device's default pool, which other
 * libraries share), and released pinned blocks (every one until the next
 * st_cuda_synchronize(), which keeps at most 256 MiB of them), so that
 * later tensors and copies do not wait for cudaMalloc or cudaHostAlloc.
 * This returns both to the driver, for other libraries or processes. Blocks
 * still in use by queued work are not touched: call st_cuda_synchronize()
 * first to give back everything released so far. Freeing page-locked
 * memory waits for the device (cudaFreeHost synchronizes it). Tensors stay
 * valid; the next allocations are slower.
 *
 * @param device A CUDA device index, 0 to st_cuda_device_count() − 1.
 * @retval ST_OK
 * @retval ST_ERROR_INVALID_ARGUMENT `device` is negative.
 * @retval ST_ERROR_DEVICE_UNAVAILABLE as st_cuda_set_stream().
 * @retval ST_ERROR_DEVICE_FAILURE the CUDA runtime reported an error (the
 *         message has its error name and text).
 */
ST_API st_status st_cuda_empty_cache(int32_t device);

/** @} */

/* ======================================================================== */
/** @name Observing */
/* ======================================================================== */
/** @{ */

/**
 * @brief Receives one finished operator call (see st_set_trace_callback()).
 *
 * @param ctx         The `ctx` given to st_set_trace_callback().
 * @param op_name     The operator's name, such as "empty_strided" or
 *                    "empty_like". A static string.
 * @param duration_ns Wall-clock time of the call in nanoseconds, from a
 *                    monotonic clock (>= 0), nested calls included.
 *
 * It runs on the thread that made the call, must return normally (never
 * longjmp or throw through the library) and may call any stride function;
 * operators it calls are not reported.
 */
typedef void (*st_trace_fn)(void* ctx, const char* op_name, int64_t duration_ns);

/**
 * @brief Reports every operator call, on any thread, to `fn`; NULL turns it off.
 *
 * While a callback is set, each call of an operator that goes through the
 * dispatcher, and each st_copy_plan_execute() and
 * st_copy_plan_execute_raw() (as "copy_plan_execute"), is reported with its
 * name and duration when it succeeds. A call that fails is not reported,
 * whatever its status and wherever the failure was found (the operators it
 * completed before failing are). A call made by another operator ends first
 * and is reported first: st_tensor_create_like() reports "empty_strided",
 * then "empty_like". Views and metadata queries are not operators and are
 * not reported.
 *
 * Calls that begin after this returns report to the new callback. When it
 * returns, no thread is inside the previous callback or will enter it
 * again, so the previous `ctx` may be freed. Called from inside a callback
 * it switches without that wait, and the previous callback may still be
 * running on other threads.
 *
 * @param fn  The callback, or NULL to stop reporting.
 * @param ctx Passed back to `fn` unchanged; may be NULL.
 * @retval ST_OK always.
 */
ST_API st_status st_set_trace_callback(st_trace_fn fn, void* ctx);

/**
 * @brief The number of live handles: issued and not yet released, in the whole process.
 *
 * A diagnostic for leak checks: once a program has released every handle
 * it was given, the answer is 0. A handle counts once however many
 * references it holds. While other threads create or release handles the
 * answer is a snapshot.
 *
 * @param[out] out The count, >= 0.
 * @retval ST_OK
 * @retval ST_ERROR_INVALID_ARGUMENT `out` is NULL (nothing is written).
 */
ST_API st_status st_live_tensor_count(int64_t* out);

/**
 * @brief The number of live copy plans: created and not yet released, in the whole process.
 *
 * The leak check for plans, as st_live_tensor_count() is for tensors.
 *
 * @param[out] out The count, >= 0.
 * @retval ST_OK
 * @retval ST_ERROR_INVALID_ARGUMENT `out` is NULL (nothing is written).
 */
ST_API st_status st_live_plan_count(int64_t* out);

/** @} */

/* ======================================================================== */
/** @name Copy plans
 * A program that makes the same copy again and again (every frame, every
 * request: the same sizes, strides and dtypes, new data) prepares it once
 * and runs it many times, as FFTW and HPTT do with their plans:
 *
 * @code
 *   st_copy_plan plan;
 *   st_copy_plan_create(dst, src, NULL, ST_PLAN_ESTIMATE, &plan);
 *   for (;;) {   // each frame
 *     st_copy_plan_execute_raw(plan, dst_pixels, frame_pixels, 0);
 *   }
 *   st_copy_plan_release(plan);
 * @endcode
 *
 * A plan holds what st_copy() works out on every call: the checks that
 * depend on metadata alone, the copy's geometry, the kernel, its blocking
 * and its thread split. It keeps no tensor alive: the tensors it was made
 * from may be released, and it runs on any memory laid out as they were.
 * Its results are st_copy()'s, bit for bit, overlap included. One plan may
 * be executed from several threads at once on different data.
 *
 * A plan whose dst and src are on one CUDA device executes on the calling
 * thread's current stream and allocates nothing, neither host nor device
 * memory, so an execute can be captured in a CUDA graph: its kernels are
 * recorded and replay on the addresses it was given. Executes that must
 * stage, as st_copy() would, are the one exception and allocate a
 * temporary: dst and src sharing memory, and a converting or scaled copy
 * whose dst or src address (of element (0, …, 0)) is not a multiple of its
 * dtype's size, as memory wrapped at an odd address may be.
 */
/* ======================================================================== */
/** @{ */

/**
 * @brief A handle to a copy plan: generational like st_tensor.
 *
 * `{0}` is the null plan, never issued. A released plan's handle stays
 * dead: every call given it answers ST_ERROR_INVALID_HANDLE.
 */
typedef struct st_copy_plan {
  uint64_t id; /**< Opaque; 0 is the null plan. */
} st_copy_plan;

/** @brief How much work st_copy_plan_create() puts into choosing the kernel. */
typedef enum st_plan_flags {
  /** st_copy()'s own choice of kernel, blocking and threads; nothing is copied at creation. */
  ST_PLAN_ESTIMATE = 0,
  /** Time the candidates (each thread count from 1 up to st_get_num_threads(),
   *  by doubling: at most 8, each the best of 3 copies, and no new candidate
   *  after 50 ms) on the given tensors and keep the fastest; dst then holds
   *  the copy's result. */
  ST_PLAN_MEASURE = 1
} st_plan_flags;

/**
 * @brief Prepares the copy st_copy(dst, src), or st_copy_scaled(dst, src, ss),
 *        for repeated execution.
 *
 * Checks what st_copy() checks of the operands' metadata: dst writable,
 * src broadcastable to dst, dst free of self-overlap. With
 * ST_PLAN_ESTIMATE nothing is copied; with ST_PLAN_MEASURE dst holds the
 * copy's result afterwards (even when the plan could not be timed because
 * dst and src share memory). A plan of operands on one CUDA device is
 * prepared there: ST_PLAN_MEASURE then takes st_copy()'s own kernel (and
 * copies, so that dst holds the result), and a scaled plan keeps its
 * scales and shifts in device memory, allocated and uploaded on the
 * current stream and freed on that same stream at release. Plans between
 * the host and a device, or between two devices, run st_copy()'s path on
 * each execute.
 *
 * @param dst   The tensor layout to write: its sizes, strides, dtype and device.
 * @param src   The layout to read; broadcast to dst's shape.
 * @param ss    NULL: a plain copy, as st_copy(); else the scale and shift of
 *              st_copy_scaled(), checked as it checks them and copied: the
 *              caller may free the arrays when this returns.
 * @param flags ST_PLAN_ESTIMATE or ST_PLAN_MEASURE.
 * @param[out] out The new plan, to release with st_copy_plan_release(); the
 *             null plan on failure.
 * @retval ST_OK
 * @retval ST_ERROR_INVALID_ARGUMENT `out` is NULL, `flags` is not an
 *         st_plan_flags value, a field of `ss` is invalid (as
 *         st_copy_scaled()), or `ss` is given for operands on one CUDA
 *         device whose current stream is capturing a CUDA graph (the
 *         scales and shifts cannot be uploaded then).
 * @retval ST_ERROR_UNSUPPORTED_DTYPE one of dst and src is float4_e2m1fn_x2
 *         and the other is not; or `ss` is given and dst or src is a dtype
 *         st_copy_scaled() refuses.
 * @retval ST_ERROR_INVALID_HANDLE `dst` or `src` is not a live handle.
 * @retval ST_ERROR_READ_ONLY dst views memory its producer marked read-only.
 * @retval ST_ERROR_SHAPE_MISMATCH src cannot be broadcast to dst's shape.
 * @retval ST_ERROR_OVERLAP dst is not provably free of self-overlap.
 * @retval ST_ERROR_OUT_OF_MEMORY the plan could not be allocated, a stride
 *         overflows int64 in bytes, or (ST_PLAN_MEASURE) the copy's
 *         temporary could not be allocated.
 * @retval ST_ERROR_DEVICE_UNAVAILABLE, ST_ERROR_DEVICE_FAILURE as st_copy()
 *         (operands on one CUDA device are prepared there; ST_PLAN_MEASURE
 *         on CUDA operands copies).
 */
ST_API st_status st_copy_plan_create(st_tensor dst, st_tensor src, const st_scale_shift* ss, int32_t flags,
                                     st_copy_plan* out);

/**
 * @brief Runs the plan's copy from `src` into `dst`.
 *
 * dst and src must have exactly the plan's sizes, strides, dtypes and
 * devices; their storage offsets and data may differ from the tensors the
 * plan was made from. The result is st_copy(dst, src, non_blocking)'s (a
 * scaled plan's: st_copy_scaled()'s), overlap included (memory shared
 * between dst and src is staged through a temporary, as st_copy does).
 * Reported to a trace callback as one operator call, "copy_plan_execute",
 * when it succeeds. On one CUDA device: queued on the calling thread's
 * current stream without allocating (see the group's introduction for the
 * exception) and, unless `non_blocking`, waited for, except on a stream
 * that is capturing a CUDA graph.
 *
 * @param plan A live plan.
 * @param dst  The tensor to write.
 * @param src  The tensor to read.
 * @param non_blocking As st_copy().
 * @retval ST_OK
 * @retval ST_ERROR_INVALID_HANDLE `plan`, `dst` or `src` is not a live
 *         handle (null, released or never issued); nothing is written.
 * @retval ST_ERROR_INVALID_ARGUMENT dst's or src's sizes, strides, dtype or
 *         device differ from the plan's; the message names the first that
 *         does (dst's before src's, in that order); nothing is written.
 * @retval ST_ERROR_READ_ONLY dst views memory its producer marked read-only.
 * @retval ST_ERROR_OUT_OF_MEMORY dst and src share memory and the
 *         temporary could not be allocated; nothing is written.
 * @retval ST_ERROR_DEVICE_UNAVAILABLE, ST_ERROR_DEVICE_FAILURE as st_copy().
 */
ST_API st_status st_copy_plan_execute(st_copy_plan plan, st_tensor dst, st_tensor src, int32_t non_blocking);

/**
 * @brief Runs the plan's copy between raw addresses: the per-frame fast path.
 *
 * `dst_data` and `src_data` are the addresses of element (0, …, 0) of a
 * dst and a src laid out exactly as the plan's tensors (what
 * st_tensor_data_ptr() returns for them); the caller vouches that the
 * memory around them holds every element of those layouts (it is not
 * checked) and stays valid for the call. When the bytes of the two
 * layouts intersect, the copy is staged as st_copy() stages it. Looks up
 * no tensor handle and, for host operands or operands on one CUDA device
 * that share no memory, allocates nothing, with a single exception: a
 * converting or scaled copy on a CUDA device whose `dst_data` or
 * `src_data` is not a multiple of its dtype's size goes through
 * st_copy()'s path, which stages it through an aligned temporary (the
 * device's typed loads and stores need aligned addresses). The bytes of a
 * CUDA operand are checked to be memory of the plan's device.
 *
 * @param plan     A live plan.
 * @param dst_data Element (0, …, 0) of the destination; memory of the plan's dst device.
 * @param src_data Element (0, …, 0) of the source; memory of the plan's src device.
 * @param non_blocking As st_copy().
 * @retval ST_OK
 * @retval ST_ERROR_INVALID_HANDLE `plan` is not a live plan; nothing is written.
 * @retval ST_ERROR_INVALID_ARGUMENT `dst_data` or `src_data` is NULL, or
 *         (CUDA operands) not memory of the plan's device, or (the host
 *         operand of a plan between the host and a device) CUDA device
 *         memory; nothing is written.
 * @retval ST_ERROR_OUT_OF_MEMORY the two spans intersect and the temporary
 *         could not be allocated; nothing is written.
 * @retval ST_ERROR_DEVICE_UNAVAILABLE, ST_ERROR_DEVICE_FAILURE as st_copy().
 */
ST_API st_status st_copy_plan_execute_raw(st_copy_plan plan, void* dst_data, const void* src_data,
                                          int32_t non_blocking);

/**
 * @brief Releases a plan; its handle is dead from then on.
 *
 * Executions of the plan already running on other threads finish
 * normally. Its memory goes once they have returned and each thread whose
 * last executed plan it was has executed another plan, been given this
 * dead handle, or ended (a thread keeps the plan it ran last at hand, so
 * that executing it again takes no atomic read-modify-write).
 *
 * A scaled plan of operands on one CUDA device frees its device copy of the
 * scales and shifts on the stream that was current at its creation, as a
 * tensor's memory: executes queued on other streams must be synchronized
 * with that stream first, and a CUDA graph that captured an execute of it
 * may be replayed only while the plan lives.
 *
 * @param plan A live plan.
 * @retval ST_OK
 * @retval ST_ERROR_INVALID_HANDLE `plan` is null, was released already, or was never issued.
 */
ST_API st_status st_copy_plan_release(st_copy_plan plan);

/** @} */

/* ======================================================================== */
/** @name Printing
 * A tensor's values as text, as NumPy prints an array of them.
 */
/* ======================================================================== */
/** @{ */

/**
 * @brief The print options of st_tensor_format(): NumPy's, 0 meaning NumPy's default.
 *
 * Set `struct_size` to `sizeof(st_format_options)`. Fields are only ever
 * appended; a library older than the caller's header accepts the larger
 * struct as long as the fields it does not know are 0.
 */
typedef struct st_format_options {
  size_t struct_size;  /**< sizeof(st_format_options): 32 bytes in 0.3. */
  int32_t precision;   /**< At most this many digits after the point; 0: NumPy's 8. */
  int32_t edgeitems;   /**< Items kept at each end of a summarized dim; 0: NumPy's 3. */
  int64_t threshold;   /**< More elements than this are summarized; 0: NumPy's 1000. */
  int32_t linewidth;   /**< Lines break before this many characters are passed; 0: NumPy's 75. */
} st_format_options;

/**
 * @brief The text NumPy prints for an array of `t`'s values.
 *
 * The text is NumPy 1.x's `numpy.array2string(a)` with its default
 * separator `' '` and no prefix, for an array `a` of `t`'s shape and
 * values: the form `str(a)` gives for arrays of one or more dims.
 *
 * @code
 *   char text[256];
 *   size_t n;
 *   st_tensor_format(t, NULL, text, sizeof text, &n);  // "[[0. 1. 2.]\n [3. 4. 5.]]", n == 25
 * @endcode
 *
 * - Elements: bools as `True` and `False` (` True` beside `False`); integers
 *   in decimal; float16, float32 and float64 as NumPy prints those dtypes:
 *   the fewest digits that read back as the same value of the dtype (Dragon4),
 *   at most `precision` after the point (the last rounded half to even),
 *   `-0.` for negative zero, `nan`, `inf` and `-inf`, and all in scientific
 *   notation when a nonzero finite magnitude reaches 1e8, falls below 1e-4,
 *   or the largest exceeds 1000 times the smallest; bfloat16,
 *   float8_e4m3fn, float8_e5m2, float8_e8m0fnu, float6_e2m3fn and
 *   float6_e3m2fn as the float32 array of their values;
 *   complex64 and complex128 as NumPy's, `1.+2.j`. Every element of the
 *   text is padded to one width, and floats to one position of the point.
 * - Layout: nested brackets, a line break (and a blank line per dim beyond
 *   the last two) between the blocks of a dim, rows wrapped so that no line
 *   passes `linewidth` characters (an item wider than that stands alone).
 * - A tensor of more than `threshold` elements is summarized: each dim
 *   longer than 2 × `edgeitems` shows its first and last `edgeitems` items
 *   with `...` between them. Only the shown values are read.
 * - A tensor with no elements is `[]`. A 0-d tensor is its value alone, as
 *   array2string writes it: `2.`, where NumPy's `str()` of a 0-d array
 *   gives the value's own str(), `2.0`.
 *
 * The Python, Rust and Go bindings print this text for `str()`, `Display`
 * and `String()` (Rust and Go write bools as `true` and `false`), and wrap
 * it for `repr()`, `Debug` and `GoString()` as
 * `stride.tensor(<text>, dtype=stride.float32)` (Rust: `Tensor(<text>,
 * dtype=float32)`, Go: `stride.Tensor(<text>, dtype=float32)`), the
 * device after the dtype unless the CPU: the text is asked for with
 * `linewidth` less the width of the wrapper's opening and its comma, and
 * its lines after the first are indented under the opening, so that the
 * wrapped text keeps within 75 columns as NumPy's `repr()` does (whose
 * items NumPy separates with `, ` where this text has `' '`).
 *
 * A tensor in CUDA device memory is printed from a copy of its shown
 * values to the host, made as st_copy() makes it: on the calling thread's
 * current stream, and waited for. The values are read once, so a tensor
 * that another thread writes meanwhile prints some mixture of old and new.
 *
 * @param t      A live handle.
 * @param opts   The options, read during the call only; NULL: NumPy's
 *               defaults. `struct_size` must be from
 *               sizeof(st_format_options) to 4096, any byte beyond
 *               sizeof(st_format_options) 0.
 * @param buf    Receives the text and its terminating NUL when `cap` holds
 *               them; nothing is written to it otherwise. May be NULL when
 *               `cap` is 0 (to learn the size).
 * @param cap    The bytes `buf` holds.
 * @param[out] needed The bytes the text takes, its NUL included: written on
 *               success and with ST_ERROR_OUT_OF_BOUNDS, left alone on
 *               every other failure.
 * @retval ST_OK the text and its NUL are in `buf`.
 * @retval ST_ERROR_INVALID_ARGUMENT `needed` NULL; `buf` NULL with `cap`
 *         above 0; `opts->struct_size` below sizeof(st_format_options) or
 *         above 4096, or a nonzero byte past sizeof(st_format_options) (a
 *         field of a newer header); a negative `precision`, `edgeitems`,
 *         `threshold` or `linewidth`; `t` on a CUDA device while the
 *         calling thread's current stream is capturing a CUDA graph (the
 *         copy to the host cannot be captured, as st_copy()).
 * @retval ST_ERROR_INVALID_HANDLE `t` is not a live handle.
 * @retval ST_ERROR_UNSUPPORTED_DTYPE `t` is float4_e2m1fn_x2, whose bytes
 *         hold two values each: it has no element to print.
 * @retval ST_ERROR_OUT_OF_BOUNDS `cap` is less than `*needed`: `*needed`
 *         holds the size, and `buf` is untouched.
 * @retval ST_ERROR_OUT_OF_MEMORY the host copy of the shown values or the
 *         text could not be allocated.
 * @retval ST_ERROR_DEVICE_FAILURE the CUDA runtime reported an error while
 *         the shown values were copied to the host (the message has its
 *         error name and text).
 */
ST_API st_status st_tensor_format(st_tensor t, const st_format_options* opts, char* buf, size_t cap,
                                  size_t* needed);

/** @} */

/* ======================================================================== */
/** @name Block-scaled formats
 * OCP Microscaling (MX v1.0) and NVIDIA's NVFP4 store a tensor as narrow
 * values and one scale per block of consecutive elements along a dim:
 *
 * | format               | values            | scales          | block |
 * |----------------------|-------------------|-----------------|-------|
 * | ST_BLOCK_MXFP8_E4M3  | float8_e4m3fn     | float8_e8m0fnu  | 32    |
 * | ST_BLOCK_MXFP8_E5M2  | float8_e5m2       | float8_e8m0fnu  | 32    |
 * | ST_BLOCK_MXFP6_E2M3  | float6_e2m3fn     | float8_e8m0fnu  | 32    |
 * | ST_BLOCK_MXFP6_E3M2  | float6_e3m2fn     | float8_e8m0fnu  | 32    |
 * | ST_BLOCK_MXFP4_E2M1  | float4_e2m1fn_x2  | float8_e8m0fnu  | 32    |
 * | ST_BLOCK_MXINT8      | int8 (code·2^-6)  | float8_e8m0fnu  | 32    |
 * | ST_BLOCK_NVFP4       | float4_e2m1fn_x2  | float8_e4m3fn   | 16    |
 *
 * Quantizing reads a strided source once and writes values and scales;
 * dequantizing reads them back into float32, float16, bfloat16 or float64.
 * The three tensors may have any strides (negative ones included) and any
 * devices that are one device (pinned host memory counts as the host); the
 * CPU and CUDA give the same bits.
 *
 * @code
 *   // x: (M, K) float32 on any device; K even. Values (M, K/2), scales (M, ceil(K/32)).
 *   st_block_spec spec = {sizeof(st_block_spec), ST_BLOCK_MXFP4_E2M1, -1, ST_SCALE_FLOOR, 0.0f};
 *   st_quantize_blocks(values, scales, x, &spec);
 *   st_dequantize_blocks(y, values, scales, &spec);   // y: (M, K) float32
 * @endcode
 *
 * The rules, for each block (the elements 32b .. 32b + 31 of a line along
 * `dim`, 16b .. 16b + 15 for NVFP4; a final partial block uses the elements
 * present):
 *
 * - **MX scale** X = 2^k, amax the block's largest |x| (exact, from any
 *   source dtype). ST_SCALE_FLOOR (OCP MX v1.0, section 6.3): k =
 *   floor(log2 amax) − emax, emax 8 (E4M3), 15 (E5M2), 2 (E2M3), 4 (E3M2),
 *   2 (E2M1), 0 (INT8), floor(log2) read from the exponent's bits (a float
 *   log2 would round 2^m − 1 ulp up to m). ST_SCALE_RCEIL (TransformerEngine,
 *   cuBLAS, cuDNN): the smallest k with amax <= max · 2^k, max 448, 57344,
 *   7.5, 28, 6 and 127/64, computed exactly (TE's and cuBLAS's float32
 *   amax · (1/max) rounded up to a power of two, which it equals for
 *   float32 sources); it never saturates. k below −127 becomes −127 (an
 *   all-zero block has scale 0x00); k above 127 makes the block NaN.
 * - **Elements** x / X rounded once to nearest even on the element's grid,
 *   subnormals included; a magnitude beyond the largest becomes ±largest,
 *   sign kept (OCP 6.3, torchao, TE, cuDNN; FLOOR may saturate the block's
 *   largest elements, RCEIL never does); −0 stays −0. MXINT8 codes are
 *   −127..127 (symmetric, as microxcaling); 0x80 is never written and
 *   reads as −2. Ties go to even, as the OCP spec says (microxcaling rounds
 *   them away from zero by default and ggml toward zero).
 * - **NaN and infinity (MX)**: a NaN or ±inf anywhere in a block, or k
 *   above 127, gives the scale 0xFF (NaN) and every element the code with
 *   every bit but the sign set: 0x7F for E4M3 and E5M2 (NaN), 0x7F for
 *   INT8, 0x1F for FP6 and 0x7 for FP4 (+largest, the plain conversions'
 *   NaN rule), as torchao and microxcaling poison the block
 *   (TransformerEngine's amax skips NaN, a TODO in its code).
 * - **NVFP4**: g = `global_scale`, 0 meaning 1 (TE takes 1 when the
 *   tensor's amax is 0, so the usual g = amax_tensor / (6 · 448) needs no
 *   special case). The block scale s is amax / (6 g) rounded once to
 *   nearest even on float8_e4m3fn, 448 beyond (TE and torchao), with no
 *   lower clamp (TE and the TRT-LLM, vLLM and FlashInfer kernels; torchao
 *   clamps to 2^-6): s may be 0, and then every element is ±0, sign kept.
 *   Elements: x / (s g) rounded as above on E2M1. A NaN in a block gives
 *   the scale 0x7F (NaN) and elements 0x7; ±inf without NaN gives the
 *   scale 448 (0x7E), ±6 for the infinite elements and x / (448 g) for the
 *   others (torchao and TE agree). Both divisions are done in float64,
 *   where they are exact for these roundings.
 * - **Dequantizing**: element · X (MX) or element · s · g (NVFP4), exact,
 *   then rounded once to the destination dtype (nearest even; overflow
 *   gives ±inf). A NaN scale (e8m0 0xFF, e4m3 0x7F or 0xFF) makes the
 *   whole block NaN; element NaN and infinity codes (E4M3, E5M2) give NaN
 *   and ±inf; every NaN written is the positive quiet NaN of the
 *   destination's dtype (float32 0x7FC00000, float16 0x7E00, bfloat16
 *   0x7FC0, float64 0x7FF8000000000000), whatever the codes' signs, on
 *   every kernel level and device; a zero has IEEE's sign (the element's
 *   sign XOR the scale's).
 *   FLOOR round trips bit for bit: quantizing what it dequantized gives
 *   the same values and scales; RCEIL may choose a smaller scale the second
 *   time.
 *
 * Where OCP, NVIDIA and the API contract leave a choice, stride follows
 * what torchao and TransformerEngine agree on: a −0 global_scale counts as
 * 0 (so as 1); the FP6 and FP4 codes saturate rather than poison; NVFP4's
 * scale_rule is checked but unused (NVFP4 has one rule).
 *
 * cuBLAS and cuDNN read the scales of an (M, K) operand quantized along K
 * in "128x4" tiles (cuBLAS's "1D block scaling factors layout", TE's
 * nvte_swizzle_scaling_factors, torchao's to_blocked): the scales (M, Kb),
 * Kb = ceil(K / B), padded to Mp = 128 ceil(M / 128) rows and Kp = 4
 * ceil(Kb / 4) columns, with scale (r, c) at byte (r / 128 · Kp / 4 + c /
 * 4) · 512 + (r % 32) · 16 + (r / 32 % 4) · 4 + c % 4. Over a buffer D of
 * Mp · Kp bytes that is the view st_as_strided(D, sizes (Mp/128, 4, 32,
 * Kp/4, 4), strides (128 Kp, 4, 16, 512, 1)), whose element (rb, r1, r0,
 * cb, c) is scale (128 rb + 32 r1 + r0, 4 cb + c): st_copy(that view,
 * st_view(S, the same five sizes)) swizzles padded row-major scales S
 * (Mp, Kp). When M % 128 == 0 and K % (4 B) == 0, st_quantize_blocks()
 * writes the swizzled layout itself: view the source and the values as
 * (M/128, 4, 32, K/(4 B), 4 B) (the values 2 B for FP4), quantize along
 * dim −1 and pass that view of D as `scales`.
 */
/* ======================================================================== */
/** @{ */

/** @brief The block-scaled formats. The numbers are ABI. */
typedef enum st_block_format {
  ST_BLOCK_MXFP8_E4M3 = 0, /**< OCP MX v1.0: blocks of 32, float8_e8m0fnu scales, float8_e4m3fn values. */
  ST_BLOCK_MXFP8_E5M2 = 1, /**< OCP MX: float8_e5m2 values. */
  ST_BLOCK_MXFP6_E2M3 = 2, /**< OCP MX: float6_e2m3fn values. */
  ST_BLOCK_MXFP6_E3M2 = 3, /**< OCP MX: float6_e3m2fn values. */
  ST_BLOCK_MXFP4_E2M1 = 4, /**< OCP MX: float4_e2m1fn_x2 values (two a byte). */
  ST_BLOCK_MXINT8 = 5,     /**< OCP MX: int8 values, each code · 2^-6 (−127..127). */
  ST_BLOCK_NVFP4 = 6       /**< NVIDIA: blocks of 16, float8_e4m3fn scales, a float32 global scale,
                                float4_e2m1fn_x2 values. */
} st_block_format;

/** @brief How an MX format chooses a block's power-of-two scale. The numbers are ABI. */
typedef enum st_scale_rule {
  ST_SCALE_FLOOR = 0, /**< OCP MX v1.0 section 6.3: 2^(floor(log2 amax) − emax) (a zeroed spec's default). */
  ST_SCALE_RCEIL = 1  /**< The scale rounded up, as TransformerEngine, cuBLAS and cuDNN: never saturates. */
} st_scale_rule;

/**
 * @brief What st_quantize_blocks() and st_dequantize_blocks() do.
 *
 * Set `struct_size` to sizeof(st_block_spec). Fields are only ever
 * appended: a library reads the fields it knows, and refuses a larger
 * struct whose bytes past them are not all zero (a newer caller's field it
 * cannot honour), as Linux's openat2 does; zeros are accepted.
 */
typedef struct st_block_spec {
  size_t struct_size;        /**< sizeof(st_block_spec): 24 in 0.3; 24 to 4096 accepted. */
  st_block_format format;    /**< The format. */
  int32_t dim;               /**< The dim the blocks run along; negative counts from the end. */
  st_scale_rule scale_rule;  /**< MX formats; checked but unused for NVFP4. */
  float global_scale;        /**< NVFP4's per-tensor decode scale g: finite and >= 0, 0 (or −0) meaning 1;
                                  MX formats ignore it. */
} st_block_spec;

/**
 * @brief Quantizes `src` into block-scaled `values` and `scales` along `spec->dim`.
 *
 * Every line of `src` along `spec->dim` is cut into blocks (the
 * section's table gives their length); each block gets one scale and its
 * elements one value each, by the rules above. `values` has `src`'s shape
 * and the format's value dtype, except that for MXFP4 and NVFP4 (two
 * values a byte) its size along the dim is half of `src`'s, which must be
 * even, and byte j along the dim holds elements 2j (low nibble) and 2j + 1
 * (high nibble). `scales` has `src`'s shape with ceil(n / 32) along the dim
 * (ceil(n / 16) for NVFP4), float8_e8m0fnu (MX) or float8_e4m3fn (NVFP4).
 * Any strides, for all three; an empty `src` writes nothing. On CUDA the
 * work is queued on the calling thread's current stream (st_cuda_set_stream())
 * and waited for. Every check runs before anything is written: on failure
 * neither `values` nor `scales` has changed.
 *
 * @param values The values written; a live handle.
 * @param scales The scales written; a live handle.
 * @param src    The tensor read: float32, float16, bfloat16 or float64.
 * @param spec   The format, dim, scale rule and global scale; read during the call only.
 * @retval ST_OK
 * @retval ST_ERROR_INVALID_ARGUMENT `spec` NULL; `spec->struct_size` below
 *         24 or above 4096, or a larger struct with a nonzero byte past the
 *         24 known; an unknown `format` or `scale_rule`; `dim` out of range
 *         for `src` (a 0-d `src` has none); for NVFP4 a `global_scale`
 *         that is negative, NaN or infinite; for MXFP4 and NVFP4 an odd size
 *         of `src` along the dim (whatever `values`' shape); operands on
 *         different devices (pinned host memory counts as the host).
 * @retval ST_ERROR_INVALID_HANDLE `values`, `scales` or `src` is not a live handle.
 * @retval ST_ERROR_UNSUPPORTED_DTYPE `src` is not float32, float16,
 *         bfloat16 or float64, or `values` or `scales` has another dtype
 *         than the format's.
 * @retval ST_ERROR_SHAPE_MISMATCH `values` or `scales` has another shape
 *         than the one described above.
 * @retval ST_ERROR_OVERLAP `values` or `scales` is not provably free of
 *         self-overlap (st_copy()'s rule), or the bytes of one operand,
 *         from its lowest to its highest element, meet those of `values`
 *         or `scales` (another operand's).
 * @retval ST_ERROR_READ_ONLY `values` or `scales` views memory imported read-only.
 * @retval ST_ERROR_OUT_OF_MEMORY working memory could not be allocated.
 * @retval ST_ERROR_DEVICE_UNAVAILABLE the operands are on a CUDA device that cannot be used.
 * @retval ST_ERROR_DEVICE_FAILURE the CUDA runtime reported an error (the
 *         message has its error name and text).
 * @retval ST_ERROR_NOT_IMPLEMENTED no kernel of this build quantizes the operands' memory.
 */
ST_API st_status st_quantize_blocks(st_tensor values, st_tensor scales, st_tensor src, const st_block_spec* spec);

/**
 * @brief Dequantizes block-scaled `values` and `scales` into `dst` along `spec->dim`.
 *
 * The inverse of st_quantize_blocks(), with the same shapes: `dst` has the
 * shape `src` had there and dtype float32, float16, bfloat16 or float64;
 * each element becomes its value times its block's scale (and, for NVFP4,
 * the global scale), exact, rounded once to `dst`'s dtype. Any strides for
 * all three; an empty `dst` writes nothing. On CUDA the work is queued on
 * the calling thread's current stream and waited for. Every check runs
 * before anything is written: on failure `dst` has not changed.
 *
 * @param dst    The tensor written; a live handle.
 * @param values The values read; a live handle.
 * @param scales The scales read; a live handle.
 * @param spec   The format, dim, scale rule (checked) and global scale; read during the call only.
 * @retval ST_OK
 * @retval ST_ERROR_INVALID_ARGUMENT as st_quantize_blocks(), `dst` in place
 *         of `src` (its size along the dim is the one that must be even
 *         for MXFP4 and NVFP4).
 * @retval ST_ERROR_INVALID_HANDLE `dst`, `values` or `scales` is not a live handle.
 * @retval ST_ERROR_UNSUPPORTED_DTYPE `dst` is not float32, float16,
 *         bfloat16 or float64, or `values` or `scales` has another dtype
 *         than the format's.
 * @retval ST_ERROR_SHAPE_MISMATCH `values` or `scales` has another shape
 *         than `dst` implies.
 * @retval ST_ERROR_OVERLAP `dst` is not provably free of self-overlap, or
 *         its bytes meet those of `values` or `scales`.
 * @retval ST_ERROR_READ_ONLY `dst` views memory imported read-only.
 * @retval ST_ERROR_OUT_OF_MEMORY working memory could not be allocated.
 * @retval ST_ERROR_DEVICE_UNAVAILABLE the operands are on a CUDA device that cannot be used.
 * @retval ST_ERROR_DEVICE_FAILURE the CUDA runtime reported an error.
 * @retval ST_ERROR_NOT_IMPLEMENTED no kernel of this build dequantizes the operands' memory.
 */
ST_API st_status st_dequantize_blocks(st_tensor dst, st_tensor values, st_tensor scales, const st_block_spec* spec);

/** @} */

/* ======================================================================== */
/** @name Loading at run time
 * A host that loads the library with dlopen() (a plugin, an engine) looks
 * up one symbol, st_get_api(), and calls everything else through the table
 * it returns, as with ONNX Runtime's OrtApi:
 *
 * @code
 *   void* lib = dlopen("libstride.so.0", RTLD_NOW | RTLD_LOCAL);
 *   const st_api* (*get)(uint32_t) = (const st_api* (*)(uint32_t))dlsym(lib, "st_get_api");
 *   const st_api* api = get ? get(ST_API_VERSION) : NULL;
 *   if (!api) { ... the library is older than this header ... }
 *   st_tensor t;
 *   api->tensor_create(sizes, 2, ST_FLOAT32, (st_device){ST_DEVICE_CPU, 0}, &t);
 * @endcode
 */
/* ======================================================================== */
/** @{ */

/** The newest version of ::st_api this header describes. */
#define ST_API_VERSION 3

/**
 * @brief Every public function as a pointer, each field named as its
 *        function without the `st_` prefix.
 *
 * Append-only (docs/abi-policy.md): fields are never removed, reordered or
 * retyped; functions added after a release are appended at the end under a
 * new ST_API_VERSION, so a table of version v starts with every field of
 * versions 1 to v. The library pins every field's offset with a static
 * assertion, and a test checks that every function this header declares
 * has its field.
 */
typedef struct st_api {
  /* ---- Version 1 (stride 0.1) ---- */
  /** st_version() */
  uint32_t (*version)(void);
  /** st_version_string() */
  const char* (*version_string)(void);
  /** st_status_name() */
  const char* (*status_name)(st_status s);
  /** st_last_error_message() */
  const char* (*last_error_message)(void);
  /** st_dtype_itemsize() */
  size_t (*dtype_itemsize)(st_dtype d);
  /** st_dtype_name() */
  const char* (*dtype_name)(st_dtype d);
  /** st_tensor_create() */
  st_status (*tensor_create)(const int64_t* sizes, int32_t ndim, st_dtype dtype, st_device device, st_tensor* out);
  /** st_tensor_create_strided() */
  st_status (*tensor_create_strided)(const int64_t* sizes, const int64_t* strides, int32_t ndim, st_dtype dtype,
                                     st_device device, st_tensor* out);
  /** st_tensor_create_like() */
  st_status (*tensor_create_like)(st_tensor src, st_memory_format fmt, st_tensor* out);
  /** st_tensor_from_data() */
  st_status (*tensor_from_data)(void* data, const int64_t* sizes, const int64_t* strides, int32_t ndim,
                                st_dtype dtype, st_device device, st_deleter deleter, void* deleter_ctx,
                                st_tensor* out);
  /** st_tensor_retain() */
  st_status (*tensor_retain)(st_tensor t);
  /** st_tensor_release() */
  st_status (*tensor_release)(st_tensor t);
  /** st_tensor_ndim() */
  st_status (*tensor_ndim)(st_tensor t, int32_t* out);
  /** st_tensor_sizes() */
  st_status (*tensor_sizes)(st_tensor t, int64_t* out, int32_t capacity);
  /** st_tensor_strides() */
  st_status (*tensor_strides)(st_tensor t, int64_t* out, int32_t capacity);
  /** st_tensor_dtype() */
  st_status (*tensor_dtype)(st_tensor t, st_dtype* out);
  /** st_tensor_device() */
  st_status (*tensor_device)(st_tensor t, st_device* out);
  /** st_tensor_numel() */
  st_status (*tensor_numel)(st_tensor t, int64_t* out);
  /** st_tensor_storage_offset() */
  st_status (*tensor_storage_offset)(st_tensor t, int64_t* out);
  /** st_tensor_data_ptr() */
  st_status (*tensor_data_ptr)(st_tensor t, void** out);
  /** st_tensor_is_contiguous() */
  st_status (*tensor_is_contiguous)(st_tensor t, st_memory_format fmt, int32_t* out);
  /** st_as_strided() */
  st_status (*as_strided)(st_tensor src, const int64_t* sizes, const int64_t* strides, int32_t ndim,
                          int64_t storage_offset, st_tensor* out);
  /** st_permute() */
  st_status (*permute)(st_tensor src, const int32_t* dims, int32_t ndim, st_tensor* out);
  /** st_transpose() */
  st_status (*transpose)(st_tensor src, int32_t dim0, int32_t dim1, st_tensor* out);
  /** st_slice() */
  st_status (*slice)(st_tensor src, int32_t dim, int64_t start, int64_t stop, int64_t step, st_tensor* out);
  /** st_select() */
  st_status (*select)(st_tensor src, int32_t dim, int64_t index, st_tensor* out);
  /** st_expand() */
  st_status (*expand)(st_tensor src, const int64_t* sizes, int32_t ndim, st_tensor* out);
  /** st_unsqueeze() */
  st_status (*unsqueeze)(st_tensor src, int32_t dim, st_tensor* out);
  /** st_squeeze() */
  st_status (*squeeze)(st_tensor src, int32_t dim, st_tensor* out);
  /** st_flip() */
  st_status (*flip)(st_tensor src, int32_t dim, st_tensor* out);
  /** st_view() */
  st_status (*view)(st_tensor src, const int64_t* sizes, int32_t ndim, st_tensor* out);
  /** st_reshape() */
  st_status (*reshape)(st_tensor src, const int64_t* sizes, int32_t ndim, st_tensor* out);
  /** st_contiguous() */
  st_status (*contiguous)(st_tensor src, st_memory_format fmt, st_tensor* out);
  /** st_clone() */
  st_status (*clone)(st_tensor src, st_memory_format fmt, st_tensor* out);
  /** st_copy() */
  st_status (*copy)(st_tensor dst, st_tensor src, int32_t non_blocking);
  /** st_to() */
  st_status (*to)(st_tensor src, st_dtype dtype, st_device device, st_memory_format fmt, st_tensor* out);
  /** st_fill() */
  st_status (*fill)(st_tensor dst, double value);
  /** st_zero() */
  st_status (*zero)(st_tensor dst);
  /** st_set_num_threads() */
  st_status (*set_num_threads)(int32_t n);
  /** st_get_num_threads() */
  int32_t (*get_num_threads)(void);
  /** st_set_cpu_allocator() */
  st_status (*set_cpu_allocator)(const st_allocator* allocator);
  /** st_set_parallel_for() */
  st_status (*set_parallel_for)(st_parallel_for_fn fn, void* ctx);
  /** st_cuda_device_count() */
  st_status (*cuda_device_count)(int32_t* out);
  /** st_cuda_set_stream() */
  st_status (*cuda_set_stream)(int32_t device, void* stream);
  /** st_cuda_synchronize() */
  st_status (*cuda_synchronize)(int32_t device);
  /** st_set_trace_callback() */
  st_status (*set_trace_callback)(st_trace_fn fn, void* ctx);
  /** st_live_tensor_count() */
  st_status (*live_tensor_count)(int64_t* out);
  /** st_to_dlpack() */
  st_status (*to_dlpack)(st_tensor t, struct DLManagedTensor** out);
  /** st_from_dlpack() */
  st_status (*from_dlpack)(struct DLManagedTensor* in, st_tensor* out);
  /** st_to_dlpack_versioned() */
  st_status (*to_dlpack_versioned)(st_tensor t, struct DLManagedTensorVersioned** out);
  /** st_from_dlpack_versioned() */
  st_status (*from_dlpack_versioned)(struct DLManagedTensorVersioned* in, st_tensor* out);
  /* ---- Version 2 (stride 0.2) ---- */
  /** st_cuda_empty_cache() */
  st_status (*cuda_empty_cache)(int32_t device);
  /** st_copy_scaled() */
  st_status (*copy_scaled)(st_tensor dst, st_tensor src, const st_scale_shift* ss, int32_t non_blocking);
  /** st_copy_plan_create() */
  st_status (*copy_plan_create)(st_tensor dst, st_tensor src, const st_scale_shift* ss, int32_t flags,
                                st_copy_plan* out);
  /** st_copy_plan_execute() */
  st_status (*copy_plan_execute)(st_copy_plan plan, st_tensor dst, st_tensor src, int32_t non_blocking);
  /** st_copy_plan_execute_raw() */
  st_status (*copy_plan_execute_raw)(st_copy_plan plan, void* dst_data, const void* src_data, int32_t non_blocking);
  /** st_copy_plan_release() */
  st_status (*copy_plan_release)(st_copy_plan plan);
  /** st_live_plan_count() */
  st_status (*live_plan_count)(int64_t* out);
  /* ---- Version 3 (stride 0.3) ---- */
  /** st_quantize_blocks() */
  st_status (*quantize_blocks)(st_tensor values, st_tensor scales, st_tensor src, const st_block_spec* spec);
  /** st_dequantize_blocks() */
  st_status (*dequantize_blocks)(st_tensor dst, st_tensor values, st_tensor scales, const st_block_spec* spec);
  /** st_runtime_settings() */
  const char* (*runtime_settings)(void);
  /** st_tensor_format() */
  st_status (*tensor_format)(st_tensor t, const st_format_options* opts, char* buf, size_t cap, size_t* needed);
} st_api;

/**
 * @brief The table of every public function, for hosts that dlopen() the library.
 *
 * @param version The ST_API_VERSION the caller was compiled with.
 * @return A static table, valid for the life of the process (never freed);
 *         NULL when `version` is 0 or newer than this library, which then
 *         lacks some of the fields the caller expects.
 */
ST_API const st_api* st_get_api(uint32_t version);

/** @} */

#ifdef __cplusplus
} /* extern "C" */
#endif

/* ======================================================================== */
/* The ABI, checked wherever this header is compiled                        */
/* ======================================================================== */
/** @cond
 * stride's ABI is that of the 64-bit platforms, LP64 (Linux, macOS) and
 * LLP64 (Windows x64) alike, since no public type uses `long`: pointers,
 * function pointers and size_t of 8 bytes, int64_t and uint64_t aligned to
 * 8, float of 4, every enum the size and alignment of int32_t. The sizes
 * below are written in bytes from those rules, not read from any one
 * compiler. Each is the sum of its fields' sizes (st_format_options adds 4
 * bytes of padding at its end, to its alignment of 8), so it also fixes
 * every field's offset (no padding between fields).
 * A compiler that lays a type out otherwise (a 32-bit target,
 * -fshort-enums, a #pragma pack around this #include) stops here instead
 * of passing the library misread arguments. st_api grows by 8 bytes with
 * each field appended (src/api/api_table.cpp pins each field's offset).
 * C99 has no alignof: there the sizes alone are checked, through an array
 * type whose size is negative when one is wrong (its name says which).
 */
#if defined(__cplusplus) && (__cplusplus >= 201103L || (defined(_MSC_VER) && _MSC_VER >= 1900))
#  define ST_ABI_LAYOUT_(T, size, align)                                               \
     static_assert(sizeof(T) == (size), "stride.h: sizeof(" #T ") must be " #size); \
     static_assert(alignof(T) == (align), "stride.h: alignof(" #T ") must be " #align)
#elif defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
#  define ST_ABI_LAYOUT_(T, size, align)                                                \
     _Static_assert(sizeof(T) == (size), "stride.h: sizeof(" #T ") must be " #size); \
     _Static_assert(_Alignof(T) == (align), "stride.h: alignof(" #T ") must be " #align)
#else
#  define ST_ABI_LAYOUT_(T, size, align) typedef char st_abi_sizeof_##T[sizeof(T) == (size) ? 1 : -1]
#endif

ST_ABI_LAYOUT_(st_status, 4, 4);
ST_ABI_LAYOUT_(st_dtype, 4, 4);
ST_ABI_LAYOUT_(st_device_type, 4, 4);
ST_ABI_LAYOUT_(st_memory_format, 4, 4);
ST_ABI_LAYOUT_(st_plan_flags, 4, 4);
ST_ABI_LAYOUT_(st_block_format, 4, 4);
ST_ABI_LAYOUT_(st_scale_rule, 4, 4);
ST_ABI_LAYOUT_(st_device, 8, 4);        /* 2 int32_t */
ST_ABI_LAYOUT_(st_tensor, 8, 8);        /* 1 uint64_t */
ST_ABI_LAYOUT_(st_copy_plan, 8, 8);     /* 1 uint64_t */
ST_ABI_LAYOUT_(st_scale_shift, 32, 8);  /* 2 pointers, 1 int64_t, 2 int32_t */
ST_ABI_LAYOUT_(st_allocator, 24, 8);    /* 2 function pointers, 1 pointer */
ST_ABI_LAYOUT_(st_format_options, 32, 8); /* 1 size_t, 2 int32_t, 1 int64_t, 1 int32_t, 4 bytes of tail padding */
ST_ABI_LAYOUT_(st_block_spec, 24, 8);   /* 1 size_t, 3 enums or int32_t, 1 float */
ST_ABI_LAYOUT_(st_api, 496, 8);         /* 62 function pointers (ST_API_VERSION 3) */

#undef ST_ABI_LAYOUT_
/** @endcond */

#endif /* STRIDE_H */
