// DLPack exchange: st_to_dlpack, st_from_dlpack and their versioned forms.
//
// Export hands out a DLManagedTensor whose manager_ctx holds a reference to
// the tensor (so the storage lives until the consumer calls the deleter) and
// the shape and strides arrays it points at. Import wraps the producer's
// memory in a storage whose release calls the producer's deleter, exactly
// once, when the last tensor sharing it dies. Both are zero-copy and keep
// every stride as it is: DLPack strides count elements and may be negative.
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "api/dlpack_abi.h"
#include "api/returning.h"
#include "core/foreign.h"

using namespace st;
using namespace st::api;

namespace {

static_assert(sizeof(DLTensor::ndim) == sizeof(int32_t), "DLTensor::ndim is 32-bit");
static_assert(offsetof(DLManagedTensorVersioned, dl_tensor) == 32,
              "DLManagedTensorVersioned follows the DLPack 1.x layout");

// ---- dtypes ---------------------------------------------------------------

// DLPack's (code, bits) of every dtype comes from the dtype table (Note
// [The dtype table]), which keeps DLPack 1.1's numbers.
static_assert(ST_DLPACK_INT == kDLInt && ST_DLPACK_UINT == kDLUInt && ST_DLPACK_FLOAT == kDLFloat &&
                  ST_DLPACK_BFLOAT == kDLBfloat && ST_DLPACK_COMPLEX == kDLComplex &&
                  ST_DLPACK_BOOL == ST_DLPACK_CODE_BOOL && ST_DLPACK_FLOAT8_E4M3FN == ST_DLPACK_CODE_FLOAT8_E4M3FN &&
                  ST_DLPACK_FLOAT8_E5M2 == ST_DLPACK_CODE_FLOAT8_E5M2 &&
                  ST_DLPACK_FLOAT8_E8M0FNU == ST_DLPACK_CODE_FLOAT8_E8M0FNU &&
                  ST_DLPACK_FLOAT6_E2M3FN == ST_DLPACK_CODE_FLOAT6_E2M3FN &&
                  ST_DLPACK_FLOAT6_E3M2FN == ST_DLPACK_CODE_FLOAT6_E3M2FN &&
                  ST_DLPACK_FLOAT4_E2M1FN == ST_DLPACK_CODE_FLOAT4_E2M1FN,
              "the dtype table's DLPack codes are the installed dlpack.h's (or DLPack 1.1's)");

DLDataType to_dl_dtype(ScalarType t) {
  const DTypeInfo& info = dtype_info(t);
  DLDataType d;
  d.code = info.dlpack_code;
  d.bits = info.dlpack_bits;
  d.lanes = static_cast<uint16_t>(dlpack_lanes(t));
  return d;
}

// The dtypes DLPack 1.1 added codes for (14 to 17): a versioned export of
// them says 1.1.
bool needs_dlpack_1_1(ScalarType t) { return dtype_info(t).dlpack_code > ST_DLPACK_CODE_FLOAT8_E5M2FNUZ; }

// The st dtype of a DLPack (code, bits, lanes), or false when stride has none.
bool dtype_of(const DLDataType& d, ScalarType* out) {
  for (const DTypeInfo& info : kDTypes) {
    if (info.dlpack_code == d.code && info.dlpack_bits == d.bits && dlpack_lanes(info.type) == d.lanes) {
      *out = info.type;
      return true;
    }
  }
  return false;
}

// `padded`: the producer set DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED (a
// classic DLManagedTensor has no flags).
ScalarType read_dl_dtype(DLDataType d, bool padded) {
  ScalarType t;
  ST_CHECK(dtype_of(d, &t), ST_ERROR_UNSUPPORTED_DTYPE,
           "in->dl_tensor.dtype (code %u, %u bits, %u lanes) has no stride dtype", static_cast<unsigned>(d.code),
           static_cast<unsigned>(d.bits), static_cast<unsigned>(d.lanes));
  // Without the flag, DLPack packs the 6-bit values with no gaps, which no
  // stride dtype holds.
  ST_CHECK(!dlpack_padded(t) || padded, ST_ERROR_UNSUPPORTED_DTYPE,
           "in->dl_tensor.dtype is %s (code %u, %u bits) without DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED: "
           "stride reads one value a byte only",
           dtype_name(static_cast<int32_t>(t)), static_cast<unsigned>(d.code), static_cast<unsigned>(d.bits));
  return t;
}

// ---- devices: st_device_type has DLDeviceType's numbers ----------------------

DLDevice to_dl_device(Device d) {
  DLDevice out;
  out.device_type = static_cast<DLDeviceType>(static_cast<int32_t>(d.type));
  out.device_id = d.index;
  return out;
}

Device read_dl_device(const DLDevice& d) {
  // Read as the 32-bit integer it is: a producer may send device types this
  // header's enum does not list, and loading those as the enum is undefined.
  static_assert(sizeof(d.device_type) == sizeof(int32_t), "DLDeviceType is 32-bit");
  int32_t type;
  std::memcpy(&type, &d.device_type, sizeof type);
  ST_CHECK(type == kDLCPU || type == kDLCUDA || type == kDLCUDAHost, ST_ERROR_DEVICE_UNAVAILABLE,
           "in->dl_tensor.device.device_type = %d is not one stride handles (CPU 1, CUDA 2, CUDA host 3)", type);
  return read_device(st_device{type, static_cast<int32_t>(d.device_id)}, "in->dl_tensor.device");
}

// ---- export -----------------------------------------------------------------

// What one exported DLPack tensor owns: a reference to the tensor and the
// arrays its DLTensor points at. Freed by the deleter, on any thread.
template <typename Managed>
struct Export {
  Managed managed{};
  Tensor tensor;
  int64_t shape[kMaxDims];
  int64_t strides[kMaxDims];
};

template <typename Managed>
void delete_export(Managed* self) noexcept {
  if (self) delete static_cast<Export<Managed>*>(self->manager_ctx);
}

template <typename Managed>
Managed* export_tensor(const Tensor& t) {
  auto* e = new Export<Managed>();
  e->tensor = t;
  for (int d = 0; d < t.ndim(); ++d) {
    e->shape[d] = t.size(d);
    e->strides[d] = t.stride(d);
  }
  DLTensor& dl = e->managed.dl_tensor;
  dl.data = t.data();  // element (0, …, 0); with negative strides others lie below it
  dl.device = to_dl_device(t.device());
  dl.ndim = t.ndim();
  dl.dtype = to_dl_dtype(t.dtype());
  dl.shape = e->shape;
  dl.strides = e->strides;
  dl.byte_offset = 0;
  e->managed.manager_ctx = e;
  e->managed.deleter = delete_export<Managed>;
  return &e->managed;
}

// ---- import -----------------------------------------------------------------

template <typename Managed>
void run_producer_deleter(const MemoryRelease& r) {
  reinterpret_cast<void (*)(Managed*)>(r.fn)(static_cast<Managed*>(r.ptr));
}

// A new handle over `in`'s memory. Everything that can fail runs before the
// storage adopts the producer's deleter, so on failure `in` stays the caller's.
template <typename Managed>
st_tensor import_tensor(Managed* in, bool read_only, bool padded) {
  const DLTensor& dl = in->dl_tensor;
  check_ndim(dl.ndim, "in->dl_tensor.ndim");
  DimVector sizes = read_dims(dl.shape, dl.ndim, "in->dl_tensor.shape");
  DimVector strides;
  if (dl.strides) strides = read_dims(dl.strides, dl.ndim, "in->dl_tensor.strides");
  ScalarType dtype = read_dl_dtype(dl.dtype, padded);
  Device device = read_dl_device(dl.device);
  void* data = nullptr;
  if (dl.data) {
    const uintptr_t base = reinterpret_cast<uintptr_t>(dl.data);
    ST_CHECK(dl.byte_offset <= UINTPTR_MAX - base, ST_ERROR_INVALID_ARGUMENT,
             "in->dl_tensor.byte_offset = %llu runs past the end of the address space",
             static_cast<unsigned long long>(dl.byte_offset));
    data = reinterpret_cast<void*>(base + static_cast<uintptr_t>(dl.byte_offset));
  }
  Tensor t = wrap_foreign(data, sizes, dl.strides ? &strides : nullptr, dtype, device, read_only, "in->dl_tensor.data");
  Storage storage = t.storage();
  st_tensor handle = HandleTable::instance().insert(std::move(t));
  if (in->deleter) {
    MemoryRelease release;
    release.run = run_producer_deleter<Managed>;
    release.fn = reinterpret_cast<MemoryRelease::GenericFn>(in->deleter);
    release.ptr = in;
    storage->adopt_release(release);
  }
  return handle;
}

}  // namespace

extern "C" {

st_status st_to_dlpack(st_tensor t, DLManagedTensor** out) {
  if (out) *out = nullptr;
  return guarded("st_to_dlpack", [&] {
    check_out(out);
    PinnedHandle h(t, "t");
    const ScalarType dtype = h->dtype();
    ST_CHECK(!dlpack_padded(dtype), ST_ERROR_UNSUPPORTED_DTYPE,
             "t has dtype %s, which DLPack marks with a flag the classic DLManagedTensor lacks "
             "(use st_to_dlpack_versioned)",
             dtype_name(static_cast<int32_t>(dtype)));
    *out = export_tensor<DLManagedTensor>(*h);
  });
}

st_status st_to_dlpack_versioned(st_tensor t, DLManagedTensorVersioned** out) {
  if (out) *out = nullptr;
  return guarded("st_to_dlpack_versioned", [&] {
    check_out(out);
    PinnedHandle h(t, "t");
    DLManagedTensorVersioned* m = export_tensor<DLManagedTensorVersioned>(*h);
    const ScalarType dtype = h->dtype();
    m->version.major = ST_DLPACK_MAJOR;
    m->version.minor = needs_dlpack_1_1(dtype) ? ST_DLPACK_MINOR_NARROW_FLOATS : ST_DLPACK_MINOR;
    m->flags = (h->storage()->read_only() ? ST_DLPACK_FLAG_READ_ONLY : 0) |
               (dlpack_padded(dtype) ? ST_DLPACK_FLAG_SUBBYTE_TYPE_PADDED : 0);
    *out = m;
  });
}

st_status st_from_dlpack(DLManagedTensor* in, st_tensor* out) {
  if (out) out->id = 0;
  return guarded("st_from_dlpack", [&] {
    check_out(out);
    check_out(in, "in");
    *out = import_tensor(in, false, false);
  });
}

st_status st_from_dlpack_versioned(DLManagedTensorVersioned* in, st_tensor* out) {
  if (out) out->id = 0;
  return guarded("st_from_dlpack_versioned", [&] {
    check_out(out);
    check_out(in, "in");
    ST_CHECK(in->version.major <= ST_DLPACK_MAJOR, ST_ERROR_INVALID_ARGUMENT,
             "in->version = %u.%u; this library reads DLPack %d.x and older",
             static_cast<unsigned>(in->version.major), static_cast<unsigned>(in->version.minor), ST_DLPACK_MAJOR);
    *out = import_tensor(in, (in->flags & ST_DLPACK_FLAG_READ_ONLY) != 0,
                         (in->flags & ST_DLPACK_FLAG_SUBBYTE_TYPE_PADDED) != 0);
  });
}

}  // extern "C"
