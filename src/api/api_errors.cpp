// st_version*, st_status_name, st_last_error_message, st_dtype_*.
#include "api/args.h"
#include "api/guard.h"
#include "core/numeric/dtype.h"
#include "stride.h"

#define ST_STRINGIFY2(x) #x
#define ST_STRINGIFY(x) ST_STRINGIFY2(x)

extern "C" {

uint32_t st_version(void) { return ST_VERSION_MAJOR * 10000u + ST_VERSION_MINOR * 100u + ST_VERSION_PATCH; }

const char* st_version_string(void) {
  return ST_STRINGIFY(ST_VERSION_MAJOR) "." ST_STRINGIFY(ST_VERSION_MINOR) "." ST_STRINGIFY(ST_VERSION_PATCH);
}

const char* st_status_name(st_status s) {
  switch (st::api::enum_bits(s)) {
    case ST_OK: return "ST_OK";
    case ST_ERROR_INVALID_ARGUMENT: return "ST_ERROR_INVALID_ARGUMENT";
    case ST_ERROR_INVALID_HANDLE: return "ST_ERROR_INVALID_HANDLE";
    case ST_ERROR_OUT_OF_MEMORY: return "ST_ERROR_OUT_OF_MEMORY";
    case ST_ERROR_SHAPE_MISMATCH: return "ST_ERROR_SHAPE_MISMATCH";
    case ST_ERROR_UNSUPPORTED_DTYPE: return "ST_ERROR_UNSUPPORTED_DTYPE";
    case ST_ERROR_DEVICE_UNAVAILABLE: return "ST_ERROR_DEVICE_UNAVAILABLE";
    case ST_ERROR_OVERLAP: return "ST_ERROR_OVERLAP";
    case ST_ERROR_OUT_OF_BOUNDS: return "ST_ERROR_OUT_OF_BOUNDS";
    case ST_ERROR_NOT_IMPLEMENTED: return "ST_ERROR_NOT_IMPLEMENTED";
    case ST_ERROR_DEVICE_FAILURE: return "ST_ERROR_DEVICE_FAILURE";
    case ST_ERROR_INTERNAL: return "ST_ERROR_INTERNAL";
    case ST_ERROR_READ_ONLY: return "ST_ERROR_READ_ONLY";
  }
  return "ST_UNKNOWN_STATUS";
}

const char* st_last_error_message(void) { return st::api::last_error_message(); }

size_t st_dtype_itemsize(st_dtype d) {
  const int32_t v = st::api::enum_bits(d);
  return st::is_valid_dtype(v) ? st::itemsize(static_cast<st::ScalarType>(v)) : 0;
}

const char* st_dtype_name(st_dtype d) { return st::dtype_name(st::api::enum_bits(d)); }

}  // extern "C"
