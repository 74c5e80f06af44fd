"""
    Stride

Julia wrappers of libstride's C API (`include/stride.h`) through `ccall`:
strided tensors, views, copies between any layouts and dtypes, block-scaled
formats (MXFP8, MXFP6, MXFP4, MXINT8, NVFP4), DLPack.

Tensors feel like Julia arrays where they can: dims and indices are
1-based, new tensors are column-major (the first dim moves fastest), and
`size`, `strides`, `similar`, `permutedims`, `reshape`, `selectdim`,
`reverse`, `dropdims`, `copyto!`, `fill!`, `copy`, `Array` and `show`
are Base's own functions. Views share memory, as the C library's do.

The library is loaded when the module is (`__init__`): the file
`ENV["STRIDE_LIBRARY"]` names, else `libstride.so.0` from the loader path.
A `Tensor` owns one reference to a library handle; `release!` drops it,
and a finalizer does so for forgotten tensors. Failing calls throw a
`StrideError` with the status and a message that names the function called
and goes on with the library's: `size: the tensor was released`.
"""
module Stride

using Libdl

export Tensor, StrideError, DType, DeviceType, Device, MemoryFormat,
       empty_strided, from_array, release!, retain,
       dtype, device, numel, storage_offset, data_ptr, is_contiguous,
       as_strided, expand, unsqueeze, contiguous, clone, to, zero!, copy_scaled!,
       to_dlpack, to_dlpack_versioned, from_dlpack, from_dlpack_versioned,
       version, set_num_threads, num_threads, live_tensor_count,
       CopyPlan, execute!, execute_raw!, live_plan_count,
       BlockFormat, ScaleRule, quantize_blocks, quantize_blocks!, dequantize_blocks, dequantize_blocks!

# ---- the C API ------------------------------------------------------------------

# The C structs, enums (DType, DeviceType, MemoryFormat), #defines, `libstride`
# and one function per C function (st_tensor_create, ...) that ccalls it:
# capi.jl, which tools/gen_bindings.py writes from include/stride.h.
include("capi.jl")

"""ST_API_VERSION: the newest `st_api` table the header describes."""
const API_VERSION = ST_API_VERSION

# Note [Loading the library at run time]
# Every ccall (capi.jl) names the library by its SONAME, `libstride`
# (libstride.so.<ST_VERSION_MAJOR>), a constant, as ccall needs. __init__
# runs when the module is loaded, after any precompilation, and dlopens the file ENV["STRIDE_LIBRARY"] names, if set:
# the dynamic loader then answers every later dlopen of that SONAME, the
# ccalls' included, with the library already loaded. Without the variable
# the loader's own search path finds it (LD_LIBRARY_PATH, ldconfig's cache).
const LIBRARY_PATH = Ref("")

function __init__()
    path = get(ENV, "STRIDE_LIBRARY", "")
    handle = Libdl.dlopen(isempty(path) ? libstride : path, Libdl.RTLD_LAZY | Libdl.RTLD_GLOBAL; throw_error=false)
    if handle === nothing
        where = isempty(path) ? "$libstride on the loader path" : "STRIDE_LIBRARY=$path"
        @warn "Stride: cannot load $where; set STRIDE_LIBRARY to libstride.so or put its folder on LD_LIBRARY_PATH"
        return
    end
    LIBRARY_PATH[] = Libdl.dlpath(handle)
end

"""The file of the loaded libstride."""
library_path() = LIBRARY_PATH[]

struct Device
    type::DeviceType
    index::Int32
end
Device(type::DeviceType) = Device(type, 0)
stdevice(d::Device) = StDevice(Int32(d.type), d.index)

const JULIA_DTYPES = Dict{DataType,DType}(
    Bool => BOOL, UInt8 => UINT8, Int8 => INT8, Int16 => INT16, Int32 => INT32, Int64 => INT64,
    UInt16 => UINT16, UInt32 => UINT32, UInt64 => UINT64, Float16 => FLOAT16, Float32 => FLOAT32, Float64 => FLOAT64,
    ComplexF32 => COMPLEX64, ComplexF64 => COMPLEX128)

"""
The Julia type of a dtype's elements; Float32 for BFLOAT16, the float8 and
the float6 dtypes, which Base lacks (their values are exact in Float32):
`Array(t)` converts them, and `copyto!` from a Float32 array rounds into
them. FLOAT4_E2M1FN_X2 (two values a byte) copies only to itself: its
elements are their bytes, UInt8.
"""
julia_type(d::DType) =
    d in (BFLOAT16, FLOAT8_E4M3FN, FLOAT8_E5M2, FLOAT8_E8M0FNU, FLOAT6_E2M3FN, FLOAT6_E3M2FN) ? Float32 :
    d == FLOAT4_E2M1FN_X2 ? UInt8 : only(k for (k, v) in JULIA_DTYPES if v == d)
stride_dtype(::Type{T}) where {T} =
    haskey(JULIA_DTYPES, T) ? JULIA_DTYPES[T] : throw(ArgumentError("no stride dtype for $T"))

# ---- errors -------------------------------------------------------------------

struct StrideError <: Exception
    status::Int32
    name::String
    message::String
end

Base.showerror(io::IO, e::StrideError) = print(io, e.name, ": ", e.message)

function status_name(s::Integer)
    unsafe_string(st_status_name(Int32(s)))
end

# The message is per thread; Julia tasks do not move between threads inside
# one synchronous ccall sequence without a yield point, so it is read right away.
# The error names `fn`, the function the caller called, and keeps the
# library's message after it, less its leading C function name ("st_fill: ").
function check(s::Int32, fn)
    s == 0 && return nothing
    msg = unsafe_string(st_last_error_message())
    m = match(r"^st_\w+: (.*)$"s, msg)
    throw(StrideError(s, status_name(s), string(fn, ": ", m === nothing ? msg : m.captures[1])))
end

"""`t`'s handle for a call of `fn`; a StrideError saying `t` (called `name`) was released when it was."""
function handle(t, fn, name="the tensor")
    t.h.id == 0 && throw(StrideError(ST_ERROR_INVALID_HANDLE, status_name(ST_ERROR_INVALID_HANDLE),
                                     string(fn, ": ", name, " was released")))
    return t.h
end

# ---- Tensor -------------------------------------------------------------------

mutable struct Tensor
    h::StTensor
    function Tensor(h::StTensor)
        t = new(h)
        finalizer(t) do x
            # Finalizers must not block or throw; releasing a handle does neither.
            x.h.id != 0 && st_tensor_release(x.h)
        end
        return t
    end
end

"""Drops this reference now; later calls throw ST_ERROR_INVALID_HANDLE ("size: the tensor was released")."""
function release!(t::Tensor)
    h = t.h
    t.h = StTensor(0)
    check(st_tensor_release(h), :release!)
end

"""Another `Tensor` holding its own reference to the same handle."""
function retain(t::Tensor)
    h = handle(t, :retain)
    check(st_tensor_retain(h), :retain)
    return Tensor(h)
end

function newtensor(f, fn)
    out = Ref(StTensor(0))
    check(f(out), fn)
    return Tensor(out[])
end

dims64(v) = Int64[Int64(x) for x in v]

# Note [Dims are 1-based]
# Julia numbers dims and indices from 1; the C API from 0. Every dim and
# index crosses through cdim/cdims/cindex, which check the Julia range (so
# that 0 never turns into the C API's -1, "the last dim") and subtract 1.
function cdim(t::Tensor, d::Integer; extra::Integer=0)
    n = ndims(t) + extra
    1 <= d <= n || throw(ArgumentError("dim $d is out of range 1:$n"))
    return Int32(d - 1)
end
cdims(t::Tensor, ds) = Int32[cdim(t, d) for d in ds]
function cindex(t::Tensor, d::Integer, i::Integer)
    n = size(t, d)
    1 <= i <= n || throw(BoundsError(1:n, i))
    return Int64(i - 1)
end

# ---- making tensors -------------------------------------------------------------

"""
    Tensor(undef, dtype, dims...; device=Device(CPU))

An uninitialized column-major tensor (the first dim moves fastest), as a Julia `Array`.
"""
function Tensor(::UndefInitializer, dt::DType, dims::Integer...; device::Device=Device(CPU))
    # Row-major in the reversed sizes, then the dims reversed: column-major.
    s = reverse(dims64(dims))
    rowmajor = newtensor(out -> st_tensor_create(s, Int32(length(s)), Int32(dt), stdevice(device), out), :Tensor)
    return permutedims(rowmajor, length(s):-1:1)
end
Tensor(::UndefInitializer, dt::DType, dims::Tuple; kw...) = Tensor(undef, dt, dims...; kw...)

"""A tensor with any strides (in elements, >= 0), in Julia's dim order."""
function empty_strided(shape, strides; dtype::DType=FLOAT32, device::Device=Device(CPU))
    s, st = dims64(shape), dims64(strides)
    length(s) == length(st) || throw(ArgumentError("$(length(s)) sizes but $(length(st)) strides"))
    newtensor(out -> st_tensor_create_strided(s, st, Int32(length(s)), Int32(dtype), stdevice(device), out), :empty_strided)
end

"""An uninitialized tensor of `t`'s size, dtype and device, in `t`'s stride order."""
Base.similar(t::Tensor) =
    newtensor(out -> st_tensor_create_like(handle(t, :similar), Int32(PRESERVE), out), :similar)
Base.similar(t::Tensor, dt::DType, dims::Dims=size(t)) = Tensor(undef, dt, dims...; device=device(t))
Base.similar(t::Tensor, ::Type{T}, dims::Dims=size(t)) where {T} = similar(t, stride_dtype(T), dims)

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
    from_array(A, dtype)
    Tensor(A)

A tensor over the memory of the Julia array `A`, without copying, with
`A`'s own size and strides. `A` is kept alive until the last tensor using
it is released. With a `dtype`, `A`'s elements are read as that dtype's,
which must have their size: `from_array(B, Stride.FLOAT8_E8M0FNU)` over a
`UInt8` array `B` holds e8m0 bytes.
"""
function from_array(A::StridedArray{T}, dt::DType=stride_dtype(T)) where {T}
    dtype_itemsize(dt) == sizeof(T) ||
        throw(ArgumentError("from_array: $T elements are $(sizeof(T)) bytes, $dt ones $(dtype_itemsize(dt))"))
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
            return newtensor(out -> st_tensor_from_data(pointer(A), s, st, Int32(length(s)), Int32(dt),
                                                        StDevice(Int32(CPU), 0), deleter, Ptr{Cvoid}(token), out), :from_array)
        end
    catch
        # On failure the library never calls the deleter.
        lock(KEPT_LOCK) do
            delete!(KEPT, token)
        end
        rethrow()
    end
end
Tensor(A::StridedArray) = from_array(A)

# ---- metadata -----------------------------------------------------------------

function Base.ndims(t::Tensor)
    n = Ref{Int32}(0)
    check(st_tensor_ndim(handle(t, :ndims), n), :ndims)
    return Int(n[])
end

function Base.size(t::Tensor)
    handle(t, :size)
    n = ndims(t)
    buf = zeros(Int64, max(n, 1))
    check(st_tensor_sizes(handle(t, :size), buf, Int32(n)), :size)
    return Tuple(buf[1:n])
end
Base.size(t::Tensor, d::Integer) = size(t)[d]

"""Strides in elements, any sign."""
function Base.strides(t::Tensor)
    handle(t, :strides)
    n = ndims(t)
    buf = zeros(Int64, max(n, 1))
    check(st_tensor_strides(handle(t, :strides), buf, Int32(n)), :strides)
    return Tuple(buf[1:n])
end
Base.stride(t::Tensor, d::Integer) = strides(t)[d]
Base.length(t::Tensor) = numel(t)
Base.eltype(t::Tensor) = julia_type(dtype(t))

function dtype(t::Tensor)
    d = Ref{Int32}(0)
    check(st_tensor_dtype(handle(t, :dtype), d), :dtype)
    return DType(d[])
end

function device(t::Tensor)
    d = Ref(StDevice(0, 0))
    check(st_tensor_device(handle(t, :device), d), :device)
    return Device(DeviceType(d[].type), d[].index)
end

function numel(t::Tensor)
    n = Ref{Int64}(0)
    check(st_tensor_numel(handle(t, :numel), n), :numel)
    return n[]
end

function storage_offset(t::Tensor)
    n = Ref{Int64}(0)
    check(st_tensor_storage_offset(handle(t, :storage_offset), n), :storage_offset)
    return n[]
end

"""
The address of element (1, …, 1). It stays valid while `t` (or a view of
its memory) lives: as with Base's `pointer(A)`, use it inside
`GC.@preserve t begin ... end`, or `t`'s finalizer may free the memory first.
"""
function data_ptr(t::Tensor)
    p = Ref{Ptr{Cvoid}}(C_NULL)
    check(st_tensor_data_ptr(handle(t, :data_ptr), p), :data_ptr)
    return p[]
end
Base.pointer(t::Tensor) = data_ptr(t)

"""Whether `t` is laid out as `fmt` says; CONTIGUOUS is stride's row-major order (the last dim fastest)."""
function is_contiguous(t::Tensor, fmt::MemoryFormat=CONTIGUOUS)
    r = Ref{Int32}(0)
    check(st_tensor_is_contiguous(handle(t, :is_contiguous), Int32(fmt), r), :is_contiguous)
    return r[] != 0
end

# ---- views (no copy; 1-based dims and indices, see Note [Dims are 1-based]) ----

function as_strided(t::Tensor, shape, strides, offset::Integer=0)
    s, st = dims64(shape), dims64(strides)
    length(s) == length(st) || throw(ArgumentError("$(length(s)) sizes but $(length(st)) strides"))
    newtensor(out -> st_as_strided(handle(t, :as_strided), s, st, Int32(length(s)), Int64(offset), out), :as_strided)
end

"""Dim `i` of the result is dim `perm[i]` of `t`: a view, unlike Base's `permutedims` of an Array."""
Base.permutedims(t::Tensor, perm) =
    newtensor(out -> st_permute(handle(t, :permutedims), cdims(t, perm), Int32(length(perm)), out), :permutedims)

"""The two dims of a matrix swapped (a view)."""
function Base.transpose(t::Tensor)
    handle(t, :transpose)
    ndims(t) == 2 || throw(ArgumentError("transpose needs a 2-d tensor; use permutedims"))
    newtensor(out -> st_transpose(handle(t, :transpose), cdim(t, 1), cdim(t, 2), out), :transpose)
end

"""Index `i` of dim `d`, which the result drops (a view)."""
Base.selectdim(t::Tensor, d::Integer, i::Integer) =
    newtensor(out -> st_select(handle(t, :selectdim), cdim(t, d), cindex(t, d, i), out), :selectdim)

"""Indices `r` (a range of positive step) of dim `d` (a view)."""
function Base.selectdim(t::Tensor, d::Integer, r::AbstractRange{<:Integer})
    handle(t, :selectdim)
    step(r) >= 1 || throw(ArgumentError("selectdim takes a range of positive step, not $r"))
    isempty(r) || (cindex(t, d, first(r)); cindex(t, d, last(r)))
    newtensor(out -> st_slice(handle(t, :selectdim), cdim(t, d), Int64(first(r) - 1), Int64(isempty(r) ? first(r) - 1 : last(r)),
                              Int64(step(r)), out), :selectdim)
end

"""`t` broadcast to `shape` (dims of size 1 repeated with stride 0, new leading dims)."""
function expand(t::Tensor, shape)
    s = dims64(shape)
    newtensor(out -> st_expand(handle(t, :expand), s, Int32(length(s)), out), :expand)
end

"""A new dim of size 1 at position `d` (1 to ndims(t) + 1)."""
unsqueeze(t::Tensor, d::Integer) =
    newtensor(out -> st_unsqueeze(handle(t, :unsqueeze), cdim(t, d; extra=1), out), :unsqueeze)

"""The dims `dims` (each of size 1) dropped (a view)."""
function Base.dropdims(t::Tensor; dims)
    handle(t, :dropdims)
    for d in sort(collect(Int, dims); rev=true)  # the later dims first: the earlier keep their numbers
        size(t, d) == 1 || throw(ArgumentError("dropdims: dim $d has size $(size(t, d)), not 1"))
        t = newtensor(out -> st_squeeze(handle(t, :dropdims), cdim(t, d), out), :dropdims)
    end
    return t
end

"""The order along `dims` reversed: a view with negative strides, unlike Base's copy of an Array."""
function Base.reverse(t::Tensor; dims)
    for d in dims
        t = newtensor(out -> st_flip(handle(t, :reverse), cdim(t, d), out), :reverse)
    end
    return t
end

# Note [Column-major reshape]
# Julia reshapes in column-major order; the C API in row-major order. The
# column-major order of t is the row-major order of t with its dims reversed,
# so a Julia reshape is: reverse the dims, reshape to the reversed sizes in
# C, reverse the dims back. All three are views when the strides allow.
function reshaped(t::Tensor, dims, fn::Symbol)
    handle(t, fn)
    s = reverse(dims64(dims))
    r = permutedims(t, ndims(t):-1:1)
    c = if fn === :reshape_view
        newtensor(out -> st_view(r.h, s, Int32(length(s)), out), fn)
    else
        newtensor(out -> st_reshape(r.h, s, Int32(length(s)), out), fn)
    end
    return permutedims(c, length(s):-1:1)
end

"""The same elements in Julia's (column-major) order with a new size: a view when the strides allow, else a copy."""
Base.reshape(t::Tensor, dims::Dims) = reshaped(t, dims, :reshape)
Base.reshape(t::Tensor, dims::Integer...) = reshape(t, Dims(dims))

"""As `reshape`, but never a copy: ST_ERROR_SHAPE_MISMATCH when the strides do not allow a view (see st_view)."""
reshape_view(t::Tensor, dims) = reshaped(t, dims, :reshape_view)

# ---- operators ------------------------------------------------------------------

"""`t` itself (another reference) when already laid out as `fmt`, else a copy; CONTIGUOUS is row-major."""
contiguous(t::Tensor, fmt::MemoryFormat=CONTIGUOUS) =
    newtensor(out -> st_contiguous(handle(t, :contiguous), Int32(fmt), out), :contiguous)

"""A copy in new memory, laid out as `fmt` (PRESERVE: `t`'s stride order)."""
clone(t::Tensor, fmt::MemoryFormat=PRESERVE) =
    newtensor(out -> st_clone(handle(t, :clone), Int32(fmt), out), :clone)
Base.copy(t::Tensor) = clone(t)

# Julia's default deepcopy would copy the handle's id into a new wrapper
# that has no finalizer: releasing either would kill the other. A deep copy
# is a copy of the data instead, one per original (the `seen` dictionary).
Base.deepcopy_internal(t::Tensor, seen::IdDict) =
    haskey(seen, t) ? seen[t]::Tensor : (seen[t] = clone(t))

"""Writes `src`, broadcast to `dst`'s size and converted to its dtype, into `dst`."""
function Base.copyto!(dst::Tensor, src::Tensor)
    check(st_copy(handle(dst, :copyto!, "dst"), handle(src, :copyto!, "src"), Int32(0)), :copyto!)
    return dst
end
Base.copyto!(dst::Tensor, src::StridedArray) = copyto!(dst, from_array(src))

"""
    copy_scaled!(dst, src; scale=nothing, shift=nothing, dim=1, saturate=false)

Writes `R(fma(x, scale[c], shift[c]))` into `dst` (st_copy_scaled), `c` the
element's index along `dim` of `dst` when `scale` or `shift` holds more than
one value (as many as `size(dst, dim)`); one value (or a number) applies to
every element, `nothing` means scales of 1 or shifts of 0. Integer
destinations round half to even and clamp; `saturate` clamps a floating
destination's overflow to its largest finite value.
"""
function copy_scaled!(dst::Tensor, src::Tensor; scale=nothing, shift=nothing, dim::Integer=1, saturate::Bool=false)
    handle(dst, :copy_scaled!, "dst")
    a = scale === nothing ? nothing : Float64[Float64(x) for x in scale]
    b = shift === nothing ? nothing : Float64[Float64(x) for x in shift]
    na, nb = a === nothing ? 0 : length(a), b === nothing ? 0 : length(b)
    n = max(na, nb, 1)
    if n > 1
        cdim(dst, dim)                               # an ArgumentError for a dim out of range
        m = size(dst, dim)
        if (na > 1 && na != m) || (nb > 1 && nb != m)
            throw(ArgumentError("copy_scaled!: scale has $na values and shift $nb: each may have 1 or size(dst, $dim) = $m"))
        end
        na == 1 && (a = fill(a[1], n))               # one value for every index along the dim
        nb == 1 && (b = fill(b[1], n))
    end
    GC.@preserve a b begin
        ss = Ref(StScaleShift(a === nothing ? Ptr{Cdouble}(C_NULL) : pointer(a),
                              b === nothing ? Ptr{Cdouble}(C_NULL) : pointer(b),
                              Int64(n), n == 1 ? Int32(0) : cdim(dst, dim), Int32(saturate)))
        check(st_copy_scaled(handle(dst, :copy_scaled!, "dst"), handle(src, :copy_scaled!, "src"), ss, Int32(0)), :copy_scaled!)
    end
    return dst
end
copy_scaled!(dst::Tensor, src::StridedArray; kw...) = copy_scaled!(dst, from_array(src); kw...)
function Base.copyto!(dst::StridedArray, src::Tensor)
    copyto!(from_array(dst), src)
    return dst
end

"""
A Julia `Array` holding a copy of the values (BFLOAT16, the float8 and the
float6 dtypes as Float32; FLOAT4_E2M1FN_X2 as its bytes, UInt8).
"""
function Base.Array(t::Tensor)
    handle(t, :Array)
    A = Array{eltype(t)}(undef, size(t))
    # float4_e2m1fn_x2 copies only to itself: into A's bytes seen as it.
    copyto!(dtype(t) == FLOAT4_E2M1FN_X2 ? from_array(A, FLOAT4_E2M1FN_X2) : from_array(A), t)
    return A
end
Base.collect(t::Tensor) = Array(t)

to(t::Tensor, dt::DType, dev::Device=device(t), fmt::MemoryFormat=PRESERVE) =
    newtensor(out -> st_to(handle(t, :to), Int32(dt), stdevice(dev), Int32(fmt), out), :to)

"""Writes `value`, converted to `t`'s dtype, into every element."""
function Base.fill!(t::Tensor, value::Real)
    handle(t, :fill!)
    iszero(value) && return zero!(t)
    check(st_fill(handle(t, :fill!), Float64(value)), :fill!)
    return t
end

"""Writes zero into every element (any dtype, complex included)."""
function zero!(t::Tensor)
    check(st_zero(handle(t, :zero!)), :zero!)
    return t
end

# ---- DLPack (pointers to DLManagedTensor / DLManagedTensorVersioned) ------------

"""Exports `t` without copying; the consumer must call the returned tensor's deleter once."""
function to_dlpack(t::Tensor)
    p = Ref{Ptr{Cvoid}}(C_NULL)
    check(st_to_dlpack(handle(t, :to_dlpack), p), :to_dlpack)
    return p[]
end

function to_dlpack_versioned(t::Tensor)
    p = Ref{Ptr{Cvoid}}(C_NULL)
    check(st_to_dlpack_versioned(handle(t, :to_dlpack_versioned), p), :to_dlpack_versioned)
    return p[]
end

"""Wraps a producer's DLManagedTensor; on success the library owns it."""
from_dlpack(m::Ptr{Cvoid}) =
    newtensor(out -> st_from_dlpack(m, out), :from_dlpack)

from_dlpack_versioned(m::Ptr{Cvoid}) =
    newtensor(out -> st_from_dlpack_versioned(m, out), :from_dlpack_versioned)

# ---- runtime --------------------------------------------------------------------

function version()
    v = st_version()
    return VersionNumber(v ÷ 10000, v ÷ 100 % 100, v % 100)
end

version_string() = unsafe_string(st_version_string())

dtype_itemsize(d::DType) = Int(st_dtype_itemsize(Int32(d)))
dtype_name(d::DType) = unsafe_string(st_dtype_name(Int32(d)))

set_num_threads(n::Integer) = check(st_set_num_threads(Int32(n)), :set_num_threads)
num_threads() = Int(st_get_num_threads())

# Allocator structs handed to the library are kept for the process: a storage
# is freed by the allocator it came from.
const ALLOCATORS = Any[]

# The C function pointer of a closure (`@cfunction($f, ...)`) lives as long
# as its CFunction object: the ones handed to the library are kept for the
# process, as the library may call an old callback after it is replaced.
const CALLBACKS = Any[]
const CALLBACKS_LOCK = ReentrantLock()
function keep(f::Base.CFunction)
    lock(() -> push!(CALLBACKS, f), CALLBACKS_LOCK)
    return Base.unsafe_convert(Ptr{Cvoid}, f)
end

"""
    set_cpu_allocator(alloc, free, ctx=C_NULL)

Routes CPU allocations to C-callable functions (`@cfunction`s, pointers
or closures' `CFunction`s, which are kept): `alloc(ctx, nbytes,
alignment)::Ptr{Cvoid}` and `free(ctx, ptr, nbytes)`.
`set_cpu_allocator(nothing)` restores the default.

The library writes every byte it asks for, so `alloc` must return `nbytes`
bytes aligned to `alignment`, used by nothing else until `free` gets them
back (once, on any thread, perhaps after the allocator was replaced), or
C_NULL; memory the Julia GC owns qualifies only while something keeps it
alive. Both may run on several threads at once, must not throw, and must
not call this module's tensor functions. `ctx` must stay valid for the
process.
"""
function set_cpu_allocator(alloc::Ptr{Cvoid}, free::Ptr{Cvoid}, ctx::Ptr{Cvoid}=C_NULL)
    a = Ref(StAllocator(alloc, free, ctx))
    push!(ALLOCATORS, a)
    check(st_set_cpu_allocator(a), :set_cpu_allocator)
end

set_cpu_allocator(alloc::Base.CFunction, free::Base.CFunction, ctx::Ptr{Cvoid}=C_NULL) =
    set_cpu_allocator(keep(alloc), keep(free), ctx)

set_cpu_allocator(::Nothing) =
    check(st_set_cpu_allocator(C_NULL), :set_cpu_allocator)

"""
Hands all CPU parallelism to a C-callable job system `fn(ctx, n, grain,
task, task_ctx)` (a pointer, or a closure's `CFunction`, which is kept);
C_NULL restores the pool. It must run `task(task_ctx, begin, end)` over
chunks that cover [0, n) once (the library detects one that does not),
must not throw, and may run them on any thread.
"""
set_parallel_for(fn::Ptr{Cvoid}, ctx::Ptr{Cvoid}=C_NULL) =
    check(st_set_parallel_for(fn, ctx), :set_parallel_for)
set_parallel_for(fn::Base.CFunction, ctx::Ptr{Cvoid}=C_NULL) = set_parallel_for(keep(fn), ctx)

"""
Calls a C-callable `fn(ctx, op_name::Cstring, duration_ns::Int64)` (a
pointer, or a closure's `CFunction`, which is kept) after every operator,
on the calling thread; C_NULL turns it off. It must not throw; it may call
any of this module's functions.
"""
set_trace_callback(fn::Ptr{Cvoid}, ctx::Ptr{Cvoid}=C_NULL) =
    check(st_set_trace_callback(fn, ctx), :set_trace_callback)
set_trace_callback(fn::Base.CFunction, ctx::Ptr{Cvoid}=C_NULL) = set_trace_callback(keep(fn), ctx)

function cuda_device_count()
    n = Ref{Int32}(0)
    check(st_cuda_device_count(n), :cuda_device_count)
    return Int(n[])
end

cuda_set_stream(device::Integer, stream::Ptr{Cvoid}) =
    check(st_cuda_set_stream(Int32(device), stream), :cuda_set_stream)

cuda_synchronize(device::Integer=0) =
    check(st_cuda_synchronize(Int32(device)), :cuda_synchronize)

"""Gives back the device pool's unused memory and the free pinned host blocks (st_cuda_empty_cache)."""
cuda_empty_cache(device::Integer=0) =
    check(st_cuda_empty_cache(Int32(device)), :cuda_empty_cache)

"""The number of live handles in the process: 0 once everything is released (a leak check)."""
function live_tensor_count()
    n = Ref{Int64}(0)
    check(st_live_tensor_count(n), :live_tensor_count)
    return Int(n[])
end

# ---- copy plans ------------------------------------------------------------------

"""
    CopyPlan(dst, src; measure=false)

`copyto!(dst, src)` prepared once (st_copy_plan_create) for tensors laid out
as these. `execute!(plan, dst, src)` runs it on tensors of the same sizes,
strides, dtypes and devices; `execute_raw!(plan, dst_ptr, src_ptr)` on the
addresses of element (0, …, 0) of such tensors. With `measure=true` the
plan times its candidates on dst and src, which then holds the copy. The
plan keeps neither tensor; `release!` (or the finalizer) frees it.
"""
mutable struct CopyPlan
    h::StCopyPlan
    function CopyPlan(dst::Tensor, src::Tensor; measure::Bool=false)
        out = Ref(StCopyPlan(0))
        check(st_copy_plan_create(handle(dst, :CopyPlan, "dst"), handle(src, :CopyPlan, "src"), C_NULL,
                                  measure ? ST_PLAN_MEASURE : ST_PLAN_ESTIMATE, out), :CopyPlan)
        p = new(out[])
        finalizer(p) do x
            x.h.id != 0 && st_copy_plan_release(x.h)
        end
        return p
    end
end

"""Runs the plan's copy from `src` into `dst`, which must match its layouts."""
function execute!(p::CopyPlan, dst::Tensor, src::Tensor; non_blocking::Bool=false)
    check(st_copy_plan_execute(handle(p, :execute!, "the plan"), handle(dst, :execute!, "dst"), handle(src, :execute!, "src"),
                                Int32(non_blocking)), :execute!)
    return dst
end

"""
Runs the plan's copy between the addresses of element (0, …, 0) of a dst
and a src laid out as its tensors. Keep the memory's owners alive around
the call (`GC.@preserve A B execute_raw!(p, pointer(A), pointer(B))`).
"""
function execute_raw!(p::CopyPlan, dst::Ptr, src::Ptr; non_blocking::Bool=false)
    check(st_copy_plan_execute_raw(handle(p, :execute_raw!, "the plan"), dst, src, Int32(non_blocking)), :execute_raw!)
    return nothing
end

# A plan cannot be copied (the handle would be shared): make another.
Base.deepcopy_internal(::CopyPlan, ::IdDict) =
    throw(ArgumentError("a CopyPlan cannot be copied: make another with CopyPlan(dst, src)"))

"""Frees the plan now; later calls throw ST_ERROR_INVALID_HANDLE."""
function release!(p::CopyPlan)
    h = p.h
    p.h = StCopyPlan(0)
    check(st_copy_plan_release(h), :release!)
end

function live_plan_count()
    n = Ref{Int64}(0)
    check(st_live_plan_count(n), :live_plan_count)
    return Int(n[])
end

"""The library's table of function pointers (`st_api`) for `version`, or C_NULL when the library is older."""
get_api(version::Integer=1) = st_get_api(UInt32(version))

# ---- block-scaled formats -------------------------------------------------------------

"""
The block-scaled formats (`st_block_format`), as `Stride.MXFP4_E2M1`:

| format       | values            | scales          | block |
|--------------|-------------------|-----------------|-------|
| `MXFP8_E4M3` | FLOAT8_E4M3FN     | FLOAT8_E8M0FNU  | 32    |
| `MXFP8_E5M2` | FLOAT8_E5M2       | FLOAT8_E8M0FNU  | 32    |
| `MXFP6_E2M3` | FLOAT6_E2M3FN     | FLOAT8_E8M0FNU  | 32    |
| `MXFP6_E3M2` | FLOAT6_E3M2FN     | FLOAT8_E8M0FNU  | 32    |
| `MXFP4_E2M1` | FLOAT4_E2M1FN_X2  | FLOAT8_E8M0FNU  | 32    |
| `MXINT8`     | INT8 (code·2^-6)  | FLOAT8_E8M0FNU  | 32    |
| `NVFP4`      | FLOAT4_E2M1FN_X2  | FLOAT8_E4M3FN   | 16    |

The first six are OCP Microscaling (MX v1.0); NVFP4 is NVIDIA's, with a
float32 global scale. include/stride.h, "Block-scaled formats", has the rules.
"""
@enum BlockFormat::Int32 begin
    MXFP8_E4M3 = ST_BLOCK_MXFP8_E4M3
    MXFP8_E5M2 = ST_BLOCK_MXFP8_E5M2
    MXFP6_E2M3 = ST_BLOCK_MXFP6_E2M3
    MXFP6_E3M2 = ST_BLOCK_MXFP6_E3M2
    MXFP4_E2M1 = ST_BLOCK_MXFP4_E2M1
    MXINT8 = ST_BLOCK_MXINT8
    NVFP4 = ST_BLOCK_NVFP4
end

"""
How an MX format picks a block's power-of-two scale (`st_scale_rule`):
`Stride.FLOOR`, OCP MX v1.0 section 6.3 (may saturate a block's largest
elements, round trips bit for bit), or `Stride.RCEIL`, the smallest that
fits, as TransformerEngine and cuBLAS (never saturates).
"""
@enum ScaleRule::Int32 begin
    FLOOR = ST_SCALE_FLOOR
    RCEIL = ST_SCALE_RCEIL
end

"""Elements per block: 32, or 16 for NVFP4."""
block_size(f::BlockFormat) = f == NVFP4 ? 16 : 32

"""The dtype of a format's values."""
value_dtype(f::BlockFormat) =
    f == MXFP8_E4M3 ? FLOAT8_E4M3FN : f == MXFP8_E5M2 ? FLOAT8_E5M2 : f == MXFP6_E2M3 ? FLOAT6_E2M3FN :
    f == MXFP6_E3M2 ? FLOAT6_E3M2FN : f == MXINT8 ? INT8 : FLOAT4_E2M1FN_X2

"""The dtype of a format's scales: FLOAT8_E8M0FNU (MX) or FLOAT8_E4M3FN (NVFP4)."""
scale_dtype(f::BlockFormat) = f == NVFP4 ? FLOAT8_E4M3FN : FLOAT8_E8M0FNU

values_per_byte(f::BlockFormat) = value_dtype(f) == FLOAT4_E2M1FN_X2 ? 2 : 1

block_spec(t::Tensor, format::BlockFormat, dim::Integer, rule::ScaleRule, global_scale::Real) =
    Ref(StBlockSpec(sizeof(StBlockSpec), Int32(format), cdim(t, dim), Int32(rule), Float32(global_scale)))

"""`size(t)` with the size along `dim` replaced by `f` of it."""
function with_dim(f, t::Tensor, dim::Integer)
    cdim(t, dim)                                     # an ArgumentError for a dim out of range
    return ntuple(d -> d == dim ? f(size(t, d)) : size(t, d), ndims(t))
end

"""
    quantize_blocks(src, format; dim=1, rule=Stride.FLOOR, global_scale=0) -> (values, scales)

Quantizes `src` (FLOAT32, FLOAT16, BFLOAT16 or FLOAT64) into new
column-major `values` and `scales` on its device, in blocks along `dim`
(1 is the fastest dim of a Julia array). `values` has `src`'s size and the
format's value dtype, the size along `dim` halved for MXFP4_E2M1 and NVFP4
(byte j holds elements 2j - 1, low nibble, and 2j); `scales` has
`cld(n, block_size(format))` along `dim`. `rule` picks the MX scales
(checked but unused for NVFP4); `global_scale` is NVFP4's decode scale g
(finite, >= 0, 0 meaning 1; MX formats ignore it). Throws an
`ArgumentError` for a dim out of range and a `StrideError` for what the
library refuses (ST_ERROR_INVALID_ARGUMENT for an odd size along `dim` with
MXFP4_E2M1 and NVFP4, ST_ERROR_UNSUPPORTED_DTYPE for `src`'s dtype, ...).
"""
function quantize_blocks(src::Tensor, format::BlockFormat; dim::Integer=1, rule::ScaleRule=FLOOR,
                         global_scale::Real=0)
    handle(src, :quantize_blocks, "src")
    per, b = values_per_byte(format), block_size(format)
    # An odd size rounds up here so that the library, which checks it, reports it.
    values = Tensor(undef, value_dtype(format), with_dim(n -> cld(n, per), src, dim)...; device=device(src))
    scales = Tensor(undef, scale_dtype(format), with_dim(n -> cld(n, b), src, dim)...; device=device(src))
    spec = block_spec(src, format, dim, rule, global_scale)
    check(st_quantize_blocks(values.h, scales.h, src.h, spec), :quantize_blocks)
    return values, scales
end
quantize_blocks(src::StridedArray, format::BlockFormat; kw...) = quantize_blocks(from_array(src), format; kw...)

"""
    quantize_blocks!(values, scales, src, format; dim=1, rule=Stride.FLOOR, global_scale=0) -> (values, scales)

Quantizes `src` into the given `values` and `scales` (any strides, one
device), which have the sizes and dtypes `quantize_blocks` describes. Every
check runs first: on a `StrideError` neither has changed
(ST_ERROR_UNSUPPORTED_DTYPE when they are not of the format's dtypes,
ST_ERROR_SHAPE_MISMATCH for other sizes, ...).
"""
function quantize_blocks!(values::Tensor, scales::Tensor, src::Tensor, format::BlockFormat; dim::Integer=1,
                          rule::ScaleRule=FLOOR, global_scale::Real=0)
    fn = :quantize_blocks!
    hv, hs, hx = handle(values, fn, "values"), handle(scales, fn, "scales"), handle(src, fn, "src")
    check(st_quantize_blocks(hv, hs, hx, block_spec(src, format, dim, rule, global_scale)), fn)
    return values, scales
end

"""
    dequantize_blocks(values, scales, format; dim=1, global_scale=0, dtype=Stride.FLOAT32) -> Tensor

Dequantizes `values` and `scales` into a new column-major tensor of `dtype`
(FLOAT32, FLOAT16, BFLOAT16 or FLOAT64) on their device: each element its
value times its block's scale (and NVFP4's `global_scale`), exact, rounded
once to `dtype`. Its size is `values`' with `dim` doubled for MXFP4_E2M1
and NVFP4. Throws an `ArgumentError` for a dim out of range and a
`StrideError` for what the library refuses (ST_ERROR_UNSUPPORTED_DTYPE for
another `dtype`, ST_ERROR_SHAPE_MISMATCH for scales of other sizes, ...).
"""
function dequantize_blocks(values::Tensor, scales::Tensor, format::BlockFormat; dim::Integer=1,
                           global_scale::Real=0, dtype::DType=FLOAT32)
    fn = :dequantize_blocks
    hv, hs = handle(values, fn, "values"), handle(scales, fn, "scales")
    per = values_per_byte(format)
    dst = Tensor(undef, dtype, with_dim(n -> n * per, values, dim)...; device=device(values))
    check(st_dequantize_blocks(dst.h, hv, hs, block_spec(dst, format, dim, FLOOR, global_scale)), fn)
    return dst
end

"""
    dequantize_blocks!(dst, values, scales, format; dim=1, global_scale=0) -> dst

Dequantizes `values` and `scales` into `dst` (any strides), which has the
size the source had. Every check runs first: on a `StrideError` `dst` has
not changed.
"""
function dequantize_blocks!(dst::Tensor, values::Tensor, scales::Tensor, format::BlockFormat; dim::Integer=1,
                            global_scale::Real=0)
    fn = :dequantize_blocks!
    hd, hv, hs = handle(dst, fn, "dst"), handle(values, fn, "values"), handle(scales, fn, "scales")
    check(st_dequantize_blocks(hd, hv, hs, block_spec(dst, format, dim, FLOOR, global_scale)), fn)
    return dst
end

# ---- printing -------------------------------------------------------------------

function Base.summary(io::IO, t::Tensor)
    print(io, join(size(t), "×"), ndims(t) == 1 ? "-element " : " ", "Stride.Tensor ", dtype(t))
    device(t) == Device(CPU) || print(io, " on ", device(t).type, ":", device(t).index)
end

"""The values, as Julia shows an `Array` of them (a copy: `Array(t)`)."""
function Base.show(io::IO, t::Tensor)
    t.h.id == 0 && return print(io, "Stride.Tensor(released)")
    show(io, Array(t))
end

function Base.show(io::IO, ::MIME"text/plain", t::Tensor)
    t.h.id == 0 && return print(io, "Stride.Tensor(released)")
    summary(io, t)
    println(io, ", strides ", strides(t), ":")
    Base.print_array(IOContext(io, :compact => true, :limit => true), Array(t))
end

end # module
