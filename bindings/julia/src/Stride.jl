"""
    Stride

Julia wrappers of libstride's C API (`include/stride.h`) through `ccall`:
strided tensors, views, copies between any layouts and dtypes, DLPack.

The library is `ENV["STRIDE_LIBRARY"]` when set (a path), else `libstride`
from the system's search path. A `Tensor` owns one reference to a library
handle; `release!` drops it, and a finalizer does so for forgotten tensors.
Failing calls throw a `StrideError` with the status and the library's message.
"""
module Stride

export Tensor, StrideError, DType, DeviceType, Device, MemoryFormat,
       empty_tensor, empty_strided, empty_like, from_array, release!, retain,
       dtype, device, numel, storage_offset, data_ptr, is_contiguous,
       as_strided, permute, transpose_dims, slice, select, expand, unsqueeze, squeeze, flip,
       view_as, reshape_as, contiguous, clone, copy_from!, to, fill_value!, zero!,
       to_dlpack, to_dlpack_versioned, from_dlpack, from_dlpack_versioned,
       version, set_num_threads, num_threads, live_tensor_count

const libstride = get(ENV, "STRIDE_LIBRARY", "libstride")
const MAX_DIMS = 25

# ---- the C types --------------------------------------------------------------

struct StTensor
    id::UInt64
end

struct StDevice
    type::Int32
    index::Int32
end

struct StAllocator
    alloc::Ptr{Cvoid}
    free::Ptr{Cvoid}
    ctx::Ptr{Cvoid}
end

@enum DType::Int32 begin
    BOOL = 0
    UINT8 = 1
    INT8 = 2
    INT16 = 3
    INT32 = 4
    INT64 = 5
    FLOAT16 = 6
    BFLOAT16 = 7
    FLOAT32 = 8
    FLOAT64 = 9
    COMPLEX64 = 10
    COMPLEX128 = 11
end

@enum DeviceType::Int32 begin
    CPU = 1
    CUDA = 2
    CUDA_HOST = 3
end

@enum MemoryFormat::Int32 begin
    CONTIGUOUS = 0
    CHANNELS_LAST = 1
    CHANNELS_LAST_3D = 2
    PRESERVE = 3
end

struct Device
    type::DeviceType
    index::Int32
end
Device(type::DeviceType) = Device(type, 0)
stdevice(d::Device) = StDevice(Int32(d.type), d.index)

const JULIA_DTYPES = Dict{DataType,DType}(
    Bool => BOOL, UInt8 => UINT8, Int8 => INT8, Int16 => INT16, Int32 => INT32, Int64 => INT64,
    Float16 => FLOAT16, Float32 => FLOAT32, Float64 => FLOAT64,
    ComplexF32 => COMPLEX64, ComplexF64 => COMPLEX128)

# ---- errors -------------------------------------------------------------------

struct StrideError <: Exception
    status::Int32
    name::String
    message::String
end

Base.showerror(io::IO, e::StrideError) = print(io, e.name, ": ", e.message)

function status_name(s::Integer)
    unsafe_string(ccall((:st_status_name, libstride), Cstring, (Int32,), Int32(s)))
end

# The message is per thread; Julia tasks do not move between threads inside
# one synchronous ccall sequence without a yield point, so it is read right away.
function check(s::Int32)
    s == 0 && return nothing
    msg = unsafe_string(ccall((:st_last_error_message, libstride), Cstring, ()))
    throw(StrideError(s, status_name(s), msg))
end

# ---- Tensor -------------------------------------------------------------------

mutable struct Tensor
    h::StTensor
    function Tensor(h::StTensor)
        t = new(h)
        finalizer(t) do x
            # Finalizers must not block or throw; releasing a handle does neither.
            x.h.id != 0 && ccall((:st_tensor_release, libstride), Int32, (StTensor,), x.h)
        end
        return t
    end
end

"""Drops this reference now; later calls throw ST_ERROR_INVALID_HANDLE."""
function release!(t::Tensor)
    h = t.h
    t.h = StTensor(0)
    check(ccall((:st_tensor_release, libstride), Int32, (StTensor,), h))
end

"""Another `Tensor` holding its own reference to the same handle."""
function retain(t::Tensor)
    check(ccall((:st_tensor_retain, libstride), Int32, (StTensor,), t.h))
    return Tensor(t.h)
end

function newtensor(f)
    out = Ref(StTensor(0))
    check(f(out))
    return Tensor(out[])
end

dims64(v) = Int64[Int64(x) for x in v]

# ---- making tensors -------------------------------------------------------------

"""An uninitialized row-major tensor (in stride's order: the last dim moves fastest)."""
function empty_tensor(shape; dtype::DType=FLOAT32, device::Device=Device(CPU))
    s = dims64(shape)
    newtensor(out -> ccall((:st_tensor_create, libstride), Int32,
                           (Ptr{Int64}, Int32, Int32, StDevice, Ref{StTensor}),
                           s, Int32(length(s)), Int32(dtype), stdevice(device), out))
end

function empty_strided(shape, strides; dtype::DType=FLOAT32, device::Device=Device(CPU))
    s, st = dims64(shape), dims64(strides)
    length(s) == length(st) || throw(ArgumentError("$(length(s)) sizes but $(length(st)) strides"))
    newtensor(out -> ccall((:st_tensor_create_strided, libstride), Int32,
                           (Ptr{Int64}, Ptr{Int64}, Int32, Int32, StDevice, Ref{StTensor}),
                           s, st, Int32(length(s)), Int32(dtype), stdevice(device), out))
end

function empty_like(t::Tensor, fmt::MemoryFormat=PRESERVE)
    newtensor(out -> ccall((:st_tensor_create_like, libstride), Int32,
                           (StTensor, Int32, Ref{StTensor}), t.h, Int32(fmt), out))
end

# Arrays wrapped by from_array stay here until the library lets go of them.
const KEPT = Dict{UInt,Any}()
const KEPT_LOCK = ReentrantLock()
const NEXT_TOKEN = Ref{UInt}(0)

function release_kept(data::Ptr{Cvoid}, ctx::Ptr{Cvoid})
    lock(KEPT_LOCK) do
        delete!(KEPT, UInt(ctx))
    end
    return nothing
end

"""
    from_array(A)

A tensor over the memory of the Julia array `A`, without copying, with
`A`'s own dims and strides (column-major: the first dim moves fastest).
`A` is kept alive until the last tensor using it is released.
"""
function from_array(A::StridedArray{T}) where {T}
    haskey(JULIA_DTYPES, T) || throw(ArgumentError("no stride dtype for $T"))
    s = dims64(size(A))
    st = dims64(strides(A))
    token = lock(KEPT_LOCK) do
        NEXT_TOKEN[] += 1
        KEPT[NEXT_TOKEN[]] = A
        NEXT_TOKEN[]
    end
    deleter = @cfunction(release_kept, Cvoid, (Ptr{Cvoid}, Ptr{Cvoid}))
    try
        GC.@preserve A begin
            return newtensor(out -> ccall((:st_tensor_from_data, libstride), Int32,
                                          (Ptr{Cvoid}, Ptr{Int64}, Ptr{Int64}, Int32, Int32, StDevice,
                                           Ptr{Cvoid}, Ptr{Cvoid}, Ref{StTensor}),
                                          pointer(A), s, st, Int32(length(s)), Int32(JULIA_DTYPES[T]),
                                          StDevice(Int32(CPU), 0), deleter, Ptr{Cvoid}(token), out))
        end
    catch
        # On failure the library never calls the deleter.
        lock(KEPT_LOCK) do
            delete!(KEPT, token)
        end
        rethrow()
    end
end

# ---- metadata -----------------------------------------------------------------

function Base.ndims(t::Tensor)
    n = Ref{Int32}(0)
    check(ccall((:st_tensor_ndim, libstride), Int32, (StTensor, Ref{Int32}), t.h, n))
    return Int(n[])
end

function Base.size(t::Tensor)
    buf = zeros(Int64, MAX_DIMS)
    check(ccall((:st_tensor_sizes, libstride), Int32, (StTensor, Ptr{Int64}, Int32), t.h, buf, Int32(MAX_DIMS)))
    return Tuple(buf[1:ndims(t)])
end

"""Strides in elements, any sign, in stride's dim order."""
function Base.strides(t::Tensor)
    buf = zeros(Int64, MAX_DIMS)
    check(ccall((:st_tensor_strides, libstride), Int32, (StTensor, Ptr{Int64}, Int32), t.h, buf, Int32(MAX_DIMS)))
    return Tuple(buf[1:ndims(t)])
end

function dtype(t::Tensor)
    d = Ref{Int32}(0)
    check(ccall((:st_tensor_dtype, libstride), Int32, (StTensor, Ref{Int32}), t.h, d))
    return DType(d[])
end

function device(t::Tensor)
    d = Ref(StDevice(0, 0))
    check(ccall((:st_tensor_device, libstride), Int32, (StTensor, Ref{StDevice}), t.h, d))
    return Device(DeviceType(d[].type), d[].index)
end

function numel(t::Tensor)
    n = Ref{Int64}(0)
    check(ccall((:st_tensor_numel, libstride), Int32, (StTensor, Ref{Int64}), t.h, n))
    return n[]
end

function storage_offset(t::Tensor)
    n = Ref{Int64}(0)
    check(ccall((:st_tensor_storage_offset, libstride), Int32, (StTensor, Ref{Int64}), t.h, n))
    return n[]
end

function data_ptr(t::Tensor)
    p = Ref{Ptr{Cvoid}}(C_NULL)
    check(ccall((:st_tensor_data_ptr, libstride), Int32, (StTensor, Ref{Ptr{Cvoid}}), t.h, p))
    return p[]
end

function is_contiguous(t::Tensor, fmt::MemoryFormat=CONTIGUOUS)
    r = Ref{Int32}(0)
    check(ccall((:st_tensor_is_contiguous, libstride), Int32, (StTensor, Int32, Ref{Int32}), t.h, Int32(fmt), r))
    return r[] != 0
end

# ---- views (dims are 0-based, as in the C API; -1 is the last) -----------------

function as_strided(t::Tensor, shape, strides, offset::Integer=0)
    s, st = dims64(shape), dims64(strides)
    length(s) == length(st) || throw(ArgumentError("$(length(s)) sizes but $(length(st)) strides"))
    newtensor(out -> ccall((:st_as_strided, libstride), Int32,
                           (StTensor, Ptr{Int64}, Ptr{Int64}, Int32, Int64, Ref{StTensor}),
                           t.h, s, st, Int32(length(s)), Int64(offset), out))
end

function permute(t::Tensor, dims)
    d = Int32[Int32(x) for x in dims]
    newtensor(out -> ccall((:st_permute, libstride), Int32, (StTensor, Ptr{Int32}, Int32, Ref{StTensor}),
                           t.h, d, Int32(length(d)), out))
end

transpose_dims(t::Tensor, d0::Integer, d1::Integer) =
    newtensor(out -> ccall((:st_transpose, libstride), Int32, (StTensor, Int32, Int32, Ref{StTensor}),
                           t.h, Int32(d0), Int32(d1), out))

slice(t::Tensor, dim::Integer, start::Integer, stop::Integer, step::Integer=1) =
    newtensor(out -> ccall((:st_slice, libstride), Int32, (StTensor, Int32, Int64, Int64, Int64, Ref{StTensor}),
                           t.h, Int32(dim), Int64(start), Int64(stop), Int64(step), out))

select(t::Tensor, dim::Integer, index::Integer) =
    newtensor(out -> ccall((:st_select, libstride), Int32, (StTensor, Int32, Int64, Ref{StTensor}),
                           t.h, Int32(dim), Int64(index), out))

function expand(t::Tensor, shape)
    s = dims64(shape)
    newtensor(out -> ccall((:st_expand, libstride), Int32, (StTensor, Ptr{Int64}, Int32, Ref{StTensor}),
                           t.h, s, Int32(length(s)), out))
end

unsqueeze(t::Tensor, dim::Integer) =
    newtensor(out -> ccall((:st_unsqueeze, libstride), Int32, (StTensor, Int32, Ref{StTensor}), t.h, Int32(dim), out))

squeeze(t::Tensor, dim::Integer) =
    newtensor(out -> ccall((:st_squeeze, libstride), Int32, (StTensor, Int32, Ref{StTensor}), t.h, Int32(dim), out))

flip(t::Tensor, dim::Integer) =
    newtensor(out -> ccall((:st_flip, libstride), Int32, (StTensor, Int32, Ref{StTensor}), t.h, Int32(dim), out))

"""The same elements with a new shape, without copying (`st_view`)."""
function view_as(t::Tensor, shape)
    s = dims64(shape)
    newtensor(out -> ccall((:st_view, libstride), Int32, (StTensor, Ptr{Int64}, Int32, Ref{StTensor}),
                           t.h, s, Int32(length(s)), out))
end

"""A view when the strides allow one, else a contiguous copy (`st_reshape`)."""
function reshape_as(t::Tensor, shape)
    s = dims64(shape)
    newtensor(out -> ccall((:st_reshape, libstride), Int32, (StTensor, Ptr{Int64}, Int32, Ref{StTensor}),
                           t.h, s, Int32(length(s)), out))
end

# ---- operators ------------------------------------------------------------------

contiguous(t::Tensor, fmt::MemoryFormat=CONTIGUOUS) =
    newtensor(out -> ccall((:st_contiguous, libstride), Int32, (StTensor, Int32, Ref{StTensor}), t.h, Int32(fmt), out))

clone(t::Tensor, fmt::MemoryFormat=PRESERVE) =
    newtensor(out -> ccall((:st_clone, libstride), Int32, (StTensor, Int32, Ref{StTensor}), t.h, Int32(fmt), out))

"""Writes `src`, broadcast to `dst`'s shape and converted to its dtype, into `dst`."""
function copy_from!(dst::Tensor, src::Tensor; non_blocking::Bool=false)
    check(ccall((:st_copy, libstride), Int32, (StTensor, StTensor, Int32), dst.h, src.h, Int32(non_blocking)))
    return dst
end

to(t::Tensor, dt::DType, dev::Device=device(t), fmt::MemoryFormat=PRESERVE) =
    newtensor(out -> ccall((:st_to, libstride), Int32, (StTensor, Int32, StDevice, Int32, Ref{StTensor}),
                           t.h, Int32(dt), stdevice(dev), Int32(fmt), out))

function fill_value!(t::Tensor, value::Real)
    check(ccall((:st_fill, libstride), Int32, (StTensor, Cdouble), t.h, Float64(value)))
    return t
end

function zero!(t::Tensor)
    check(ccall((:st_zero, libstride), Int32, (StTensor,), t.h))
    return t
end

# ---- DLPack (pointers to DLManagedTensor / DLManagedTensorVersioned) ------------

"""Exports `t` without copying; the consumer must call the returned tensor's deleter once."""
function to_dlpack(t::Tensor)
    p = Ref{Ptr{Cvoid}}(C_NULL)
    check(ccall((:st_to_dlpack, libstride), Int32, (StTensor, Ref{Ptr{Cvoid}}), t.h, p))
    return p[]
end

function to_dlpack_versioned(t::Tensor)
    p = Ref{Ptr{Cvoid}}(C_NULL)
    check(ccall((:st_to_dlpack_versioned, libstride), Int32, (StTensor, Ref{Ptr{Cvoid}}), t.h, p))
    return p[]
end

"""Wraps a producer's DLManagedTensor; on success the library owns it."""
from_dlpack(m::Ptr{Cvoid}) =
    newtensor(out -> ccall((:st_from_dlpack, libstride), Int32, (Ptr{Cvoid}, Ref{StTensor}), m, out))

from_dlpack_versioned(m::Ptr{Cvoid}) =
    newtensor(out -> ccall((:st_from_dlpack_versioned, libstride), Int32, (Ptr{Cvoid}, Ref{StTensor}), m, out))

# ---- runtime --------------------------------------------------------------------

function version()
    v = ccall((:st_version, libstride), UInt32, ())
    return VersionNumber(v ÷ 10000, v ÷ 100 % 100, v % 100)
end

version_string() = unsafe_string(ccall((:st_version_string, libstride), Cstring, ()))

dtype_itemsize(d::DType) = Int(ccall((:st_dtype_itemsize, libstride), Csize_t, (Int32,), Int32(d)))
dtype_name(d::DType) = unsafe_string(ccall((:st_dtype_name, libstride), Cstring, (Int32,), Int32(d)))

set_num_threads(n::Integer) = check(ccall((:st_set_num_threads, libstride), Int32, (Int32,), Int32(n)))
num_threads() = Int(ccall((:st_get_num_threads, libstride), Int32, ()))

# Allocator structs handed to the library are kept for the process: a storage
# is freed by the allocator it came from.
const ALLOCATORS = Any[]

"""
    set_cpu_allocator(alloc, free)

Routes CPU allocations to C-callable function pointers (`@cfunction`s):
`alloc(ctx, nbytes, alignment)::Ptr{Cvoid}` and `free(ctx, ptr, nbytes)`.
`set_cpu_allocator(nothing)` restores the default.
"""
function set_cpu_allocator(alloc::Ptr{Cvoid}, free::Ptr{Cvoid}, ctx::Ptr{Cvoid}=C_NULL)
    a = Ref(StAllocator(alloc, free, ctx))
    push!(ALLOCATORS, a)
    check(ccall((:st_set_cpu_allocator, libstride), Int32, (Ref{StAllocator},), a))
end

set_cpu_allocator(::Nothing) =
    check(ccall((:st_set_cpu_allocator, libstride), Int32, (Ptr{StAllocator},), C_NULL))

"""Hands all CPU parallelism to a C-callable job system `fn(ctx, n, grain, task, task_ctx)`; C_NULL restores the pool."""
set_parallel_for(fn::Ptr{Cvoid}, ctx::Ptr{Cvoid}=C_NULL) =
    check(ccall((:st_set_parallel_for, libstride), Int32, (Ptr{Cvoid}, Ptr{Cvoid}), fn, ctx))

"""Calls a C-callable `fn(ctx, op_name::Cstring, duration_ns::Int64)` after every operator; C_NULL turns it off."""
set_trace_callback(fn::Ptr{Cvoid}, ctx::Ptr{Cvoid}=C_NULL) =
    check(ccall((:st_set_trace_callback, libstride), Int32, (Ptr{Cvoid}, Ptr{Cvoid}), fn, ctx))

function cuda_device_count()
    n = Ref{Int32}(0)
    check(ccall((:st_cuda_device_count, libstride), Int32, (Ref{Int32},), n))
    return Int(n[])
end

cuda_set_stream(device::Integer, stream::Ptr{Cvoid}) =
    check(ccall((:st_cuda_set_stream, libstride), Int32, (Int32, Ptr{Cvoid}), Int32(device), stream))

cuda_synchronize(device::Integer=0) =
    check(ccall((:st_cuda_synchronize, libstride), Int32, (Int32,), Int32(device)))

"""Gives back the device pool's unused memory and the free pinned host blocks (st_cuda_empty_cache)."""
cuda_empty_cache(device::Integer=0) =
    check(ccall((:st_cuda_empty_cache, libstride), Int32, (Int32,), Int32(device)))

"""The number of live handles in the process: 0 once everything is released (a leak check)."""
function live_tensor_count()
    n = Ref{Int64}(0)
    check(ccall((:st_live_tensor_count, libstride), Int32, (Ref{Int64},), n))
    return Int(n[])
end

"""The library's table of function pointers (`st_api`) for `version`, or C_NULL when the library is older."""
get_api(version::Integer=1) = ccall((:st_get_api, libstride), Ptr{Cvoid}, (UInt32,), UInt32(version))

function Base.show(io::IO, t::Tensor)
    if t.h.id == 0
        print(io, "Stride.Tensor(released)")
    else
        print(io, "Stride.Tensor(size=", size(t), ", strides=", strides(t), ", dtype=", dtype(t), ")")
    end
end

end # module
