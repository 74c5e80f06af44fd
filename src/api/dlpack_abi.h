/*
 * The DLPack structures stride exchanges, readable from C and C++.
 *
 * The classic DLManagedTensor comes from the system's dlpack/dlpack.h
 * (Debian's libdlpack-dev, DLPack 0.6). DLPack 1.x added the boolean and
 * float8 type codes and DLManagedTensorVersioned; when the installed
 * header predates them they are defined here, field for field as the 1.x
 * specification lays them out (dlpack.h, "DLManagedTensorVersioned":
 * version, manager_ctx, deleter, flags, dl_tensor).
 */
#ifndef STRIDE_DLPACK_ABI_H
#define STRIDE_DLPACK_ABI_H

#include <stdint.h>

#include <dlpack/dlpack.h>

/* DLPack's type code for bool (kDLBool, DLPack >= 0.8), 8 bits per element. */
#define ST_DLPACK_CODE_BOOL 6

/* DLPack 1.1's codes of the floats narrower than 16 bits. stride reads and
 * writes kDLFloat8_e4m3fn, kDLFloat8_e5m2 and kDLFloat8_e8m0fnu with 8 bits
 * per element, kDLFloat6_e2m3fn and kDLFloat6_e3m2fn with 6 bits in a byte
 * of their own (DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED), and
 * kDLFloat4_e2m1fn with 4 bits and 2 lanes (float4_e2m1fn_x2, as PyTorch);
 * the other formats it has no dtype for. */
#define ST_DLPACK_CODE_FLOAT8_E3M4 7
#define ST_DLPACK_CODE_FLOAT8_E4M3 8
#define ST_DLPACK_CODE_FLOAT8_E4M3B11FNUZ 9
#define ST_DLPACK_CODE_FLOAT8_E4M3FN 10
#define ST_DLPACK_CODE_FLOAT8_E4M3FNUZ 11
#define ST_DLPACK_CODE_FLOAT8_E5M2 12
#define ST_DLPACK_CODE_FLOAT8_E5M2FNUZ 13
#define ST_DLPACK_CODE_FLOAT8_E8M0FNU 14
#define ST_DLPACK_CODE_FLOAT6_E2M3FN 15
#define ST_DLPACK_CODE_FLOAT6_E3M2FN 16
#define ST_DLPACK_CODE_FLOAT4_E2M1FN 17

/* The DLPack major version stride reads and writes in versioned tensors;
 * the minor version of an export: 1.0, or 1.1 for the dtypes DLPack 1.1
 * added (its type codes 14 to 17). */
#define ST_DLPACK_MAJOR 1
#define ST_DLPACK_MINOR 0
#define ST_DLPACK_MINOR_NARROW_FLOATS 1

/* DLPack 1.1's DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED: each value of a
 * type narrower than a byte sits in a byte of its own. Defined here, since
 * headers of DLPack 1.0 and older lack it. */
#define ST_DLPACK_FLAG_SUBBYTE_TYPE_PADDED ((uint64_t)1 << 2)

#if defined(DLPACK_MAJOR_VERSION)
/* A DLPack >= 0.8 header: it defines DLManagedTensorVersioned itself. */
#  define ST_DLPACK_FLAG_READ_ONLY DLPACK_FLAG_BITMASK_READ_ONLY
#  define ST_DLPACK_FLAG_IS_COPIED DLPACK_FLAG_BITMASK_IS_COPIED
#else
typedef struct {
  uint32_t major; /* a new major version changes the layout of everything after `deleter` */
  uint32_t minor;
} DLPackVersion;

struct DLManagedTensorVersioned {
  DLPackVersion version;
  void* manager_ctx;
  void (*deleter)(struct DLManagedTensorVersioned* self);
  uint64_t flags;
  DLTensor dl_tensor;
};
typedef struct DLManagedTensorVersioned DLManagedTensorVersioned;

/* Bits of DLManagedTensorVersioned::flags. */
#  define ST_DLPACK_FLAG_READ_ONLY ((uint64_t)1 << 0)
#  define ST_DLPACK_FLAG_IS_COPIED ((uint64_t)1 << 1)
#endif

#endif /* STRIDE_DLPACK_ABI_H */
