# Tests for a machine with Julia (tools/test-bindings.sh julia runs them when
# julia is on the PATH). Run with STRIDE_LIBRARY set:
#   STRIDE_LIBRARY=build/src/libstride.so julia --project=bindings/julia bindings/julia/test/runtests.jl
using Test
using Stride

"""What `f()` throws, or nothing."""
function caught(f)
    try
        f()
        return nothing
    catch e
        return e
    end
end

@testset "Stride" begin
    t = Tensor(undef, Stride.INT16, 2, 3)
    @test size(t) == (2, 3)
    @test strides(t) == (1, 2)                       # column-major, as a Julia Array
    @test dtype(t) == Stride.INT16
    @test length(t) == 6
    @test eltype(t) == Int16
    @test size(similar(t)) == (2, 3) && strides(similar(t)) == (1, 2)
    @test dtype(similar(t, Float64)) == Stride.FLOAT64

    A = reshape(collect(Float64, 1:12), 3, 4)      # column-major: strides (1, 3)
    a = Tensor(A)
    @test strides(a) == (1, 3)
    @test data_ptr(a) == pointer(A)
    @test Array(a) == A
    r = reverse(a; dims=2)                           # dims are 1-based
    @test strides(r) == (1, -3)
    @test Array(r) == reverse(A; dims=2)
    @test Array(permutedims(a, (2, 1))) == permutedims(A, (2, 1))
    @test Array(transpose(a)) == permutedims(A, (2, 1))
    @test Array(selectdim(a, 2, 3)) == A[:, 3]
    @test Array(selectdim(a, 1, 1:2:3)) == A[1:2:3, :]
    @test Array(reshape(a, 4, 3)) == reshape(A, 4, 3)
    @test Array(reshape(permutedims(a, (2, 1)), 2, 6)) == reshape(permutedims(A, (2, 1)), 2, 6)
    @test size(dropdims(unsqueeze(a, 1); dims=1)) == (3, 4)
    @test_throws ArgumentError selectdim(a, 3, 1)     # no dim 3
    @test_throws BoundsError selectdim(a, 1, 0)       # index 0 is not the last one

    err = try
        Stride.as_strided(a, (3, 4), (1, 3), 1)       # past the end of A
        nothing
    catch e
        e
    end
    @test err isa StrideError
    @test err.name == "ST_ERROR_OUT_OF_BOUNDS"
    # The function called, then the library's message less its C function's name.
    @test startswith(err.message, "as_strided: ") && !occursin("st_as_strided", err.message)

    b = similar(a, Float32)
    copyto!(b, a)                                    # converts float64 to float32
    @test Array(b) == Float32.(A)
    fill!(b, 2.5)
    @test all(==(2.5f0), Array(b))
    fill!(b, 0)
    @test all(iszero, Array(b))
    B = zeros(Float32, 3, 4)
    copyto!(B, r)
    @test B == Float32.(reverse(A; dims=2))
    @test occursin("3×4 Stride.Tensor FLOAT64", sprint(show, MIME"text/plain"(), a))
    @test sprint(show, a) == sprint(show, A)

    # QuantizeLinear per row (y_scale 0.5 and 0.25, zero points 1 and -2), ties to even, clamped; then back.
    q = Tensor(undef, Stride.INT8, 2, 3)
    copy_scaled!(q, Float32[0.25 0.75 100; -0.125 0.375 -40]; scale=[2, 4], shift=[1, -2], dim=1)
    @test Array(q) == Int8[2 2 127; -2 0 -128]
    deq = Tensor(undef, Stride.FLOAT32, 2, 3)
    copy_scaled!(deq, q; scale=0.5, shift=-0.5)
    @test Array(deq) == Float32[0.5 0.5 63; -1.5 -0.5 -64.5]
    err = try
        copy_scaled!(deq, q; scale=[1, 2], dim=2)
        nothing
    catch e
        e
    end
    @test err isa ArgumentError
    @test err.msg == "copy_scaled!: scale has 2 values and shift 0: each may have 1 or size(dst, 2) = 3"

    # ToTensor + Normalize: (x / 255 - mean) / std per channel, from a uint8 batch whose channels are
    # adjacent in memory (C's NHWC: Julia size (C, W, H, N)) into float32 planes (C's NCHW: (W, H, C, N)).
    P = UInt8[(i * 37) % 256 for i in 0:(3 * 5 * 3 * 2 - 1)]
    pixels = reshape(P, 3, 5, 3, 2)
    mean, std = [0.485, 0.456, 0.406], [0.229, 0.224, 0.225]
    out = Tensor(undef, Stride.FLOAT32, 5, 3, 3, 2)
    copy_scaled!(out, permutedims(Tensor(pixels), (2, 3, 1, 4)); scale=1 ./ (255 .* std), shift=-mean ./ std, dim=3)
    want = [(pixels[c, x, y, n] / 255 - mean[c]) / std[c] for x in 1:5, y in 1:3, c in 1:3, n in 1:2]
    @test isapprox(Array(out), want; rtol=1e-6)

    release!(t)
    @test sprint(show, t) == "Stride.Tensor(released)"
    # Every function says which was called and that the tensor was released.
    for (f, name) in [(size, "size"), (strides, "strides"), (dtype, "dtype"), (data_ptr, "data_ptr"),
                      (x -> fill!(x, 1), "fill!"), (zero!, "zero!"), (copy, "clone"), (Array, "Array"),
                      (x -> selectdim(x, 1, 1), "selectdim"), (x -> copyto!(x, a), "copyto!")]
        e = caught(() -> f(t))
        @test e isa StrideError && e.name == "ST_ERROR_INVALID_HANDLE"
        @test e.message == name * ": " * (name == "copyto!" ? "dst" : "the tensor") * " was released"
    end
    e = caught(() -> copyto!(a, t))
    @test e isa StrideError && e.message == "copyto!: src was released"

    m = to_dlpack(a)
    c = from_dlpack(m)
    @test data_ptr(c) == data_ptr(a)
    @test strides(c) == strides(a)

    @test strides(contiguous(a)) == (4, 1)           # stride's CONTIGUOUS is row-major
    @test Array(copy(r)) == reverse(A; dims=2)
    # deepcopy copies the data; the original survives the copy's release.
    d = deepcopy(r)
    @test data_ptr(d) != data_ptr(r) && Array(d) == reverse(A; dims=2)
    fill!(d, 0)
    release!(d)
    @test Array(r) == reverse(A; dims=2)
    dd = deepcopy([r, r])
    @test dd[1] === dd[2] && data_ptr(dd[1]) != data_ptr(r)
    @test Stride.library_path() != ""

    # The unsigned widths and float8 (values worked by hand from the formats).
    U = UInt64[typemax(UInt64), 1]
    @test dtype(Tensor(U)) == Stride.UINT64 && Array(Tensor(U)) == U
    w = similar(Tensor(Int64[-1, 65541]), UInt16)
    copyto!(w, Tensor(Int64[-1, 65541]))             # two's complement wrap
    @test Array(w) == UInt16[65535, 5]
    f8 = Tensor(undef, Stride.FLOAT8_E4M3FN, 4)
    @test eltype(f8) == Float32
    copyto!(f8, Float32[1, 464, 500, 2^-9])          # 464 ties to 448; 500 is NaN (no infinity)
    V = Array(f8)
    @test V[[1, 2, 4]] == Float32[1, 448, 2^-9] && isnan(V[3])
    e5 = Tensor(undef, Stride.FLOAT8_E5M2, 2)
    copyto!(e5, Float32[61440, -3])                  # 61440 ties up to inf
    @test Array(e5) == Float32[Inf, -3]
    @test Stride.API_VERSION == 3

    # Copy plans: a transpose prepared once, run on tensors and on raw memory.
    M = Float32[1 2 3; 4 5 6]
    src = permutedims(Tensor(M), (2, 1))
    dst = Tensor(undef, Stride.FLOAT32, 3, 2)
    plan = CopyPlan(dst, src; measure=true)
    @test Array(dst) == permutedims(M, (2, 1))       # a measured plan leaves the copy
    fill!(dst, 0)
    execute!(plan, dst, src)
    @test Array(dst) == permutedims(M, (2, 1))
    @test_throws StrideError execute!(plan, Tensor(undef, Stride.FLOAT32, 2, 3), src)
    @test_throws StrideError execute_raw!(plan, Ptr{Cvoid}(0), data_ptr(src))
    @test_throws ArgumentError deepcopy(plan)
    release!(plan)
    @test_throws StrideError execute!(plan, dst, src)
    @test live_plan_count() == 0
end

@testset "block-scaled formats" begin
    # Codes and scales worked by hand from include/stride.h's rules.
    E2M1 = Float32[0, 0.5, 1, 1.5, 2, 3, 4, 6]
    # A block of 32 E2M1 codes: magnitude code i % 8, negative (+8) for i in 8:15 and 24:31.
    codes = UInt8[i % 8 + ((i ÷ 8) % 2 == 1 ? 8 : 0) for i in 0:31]
    value(c, k) = (c & 8 != 0 ? -1f0 : 1f0) * E2M1[(c & 7) + 1] * 2f0^k
    bytes(t) = (B = Array{UInt8}(undef, size(t)); copyto!(from_array(B, dtype(t)), t); B)

    # One block per column (dim 1), column 1 at 2^2, column 2 at 2^-5: amax 6 · 2^k, floor(log2 amax) =
    # 2 + k and E2M1's emax is 2, so X = 2^k, the e8m0 byte is 127 + k and each element is its code.
    X = Float32[value(c, k) for c in codes, k in (2, -5)]
    values, scales = quantize_blocks(Tensor(X), Stride.MXFP4_E2M1)
    @test size(values) == (16, 2) && dtype(values) == Stride.FLOAT4_E2M1FN_X2
    @test size(scales) == (1, 2) && dtype(scales) == Stride.FLOAT8_E8M0FNU
    @test bytes(scales) == UInt8[129 122]
    @test Array(scales) == Float32[4 2f0^-5]
    # Byte j: element 2j - 1 in the low nibble, 2j in the high one.
    col = UInt8[codes[2j - 1] | codes[2j] << 4 for j in 1:16]
    @test Array(values) == hcat(col, col)
    Y = dequantize_blocks(values, scales, Stride.MXFP4_E2M1)
    @test size(Y) == (32, 2) && dtype(Y) == Stride.FLOAT32
    @test reinterpret(UInt32, Array(Y)) == reinterpret(UInt32, X)   # exact, -0 included

    # The same blocks along dim 2 of the transpose, into tensors of ours; back into a transposed FLOAT64.
    xt = permutedims(Tensor(X), (2, 1))
    tv, ts = Tensor(undef, Stride.FLOAT4_E2M1FN_X2, 2, 16), Tensor(undef, Stride.FLOAT8_E8M0FNU, 2, 1)
    quantize_blocks!(tv, ts, xt, Stride.MXFP4_E2M1; dim=2)
    @test Array(tv) == permutedims(hcat(col, col), (2, 1))
    @test bytes(ts) == reshape(UInt8[129, 122], 2, 1)
    y64 = Tensor(undef, Stride.FLOAT64, 32, 2)
    dequantize_blocks!(permutedims(y64, (2, 1)), tv, ts, Stride.MXFP4_E2M1; dim=2)
    @test reinterpret(UInt64, Array(y64)) == reinterpret(UInt64, Float64.(X))

    # NVFP4, g = 1 (0): s = 1/6 rounded on E4M3 = 11 · 2^-6 = 0.171875 (0x23); 1 / s = 5.82 rounds to
    # E2M1's 6 (code 7, bytes 0x77), which dequantizes to 6 · 0.171875 = 1.03125. 40 = 16 + 16 + 8.
    v4, s4 = quantize_blocks(ones(Float32, 40, 3), Stride.NVFP4)
    @test size(v4) == (20, 3) && size(s4) == (3, 3) && dtype(s4) == Stride.FLOAT8_E4M3FN
    @test all(==(0x77), Array(v4)) && all(==(0x23), bytes(s4))
    @test all(==(1.03125f0), Array(dequantize_blocks(v4, s4, Stride.NVFP4)))

    # Errors, with the outputs unchanged.
    e = caught(() -> quantize_blocks(zeros(Float32, 31), Stride.MXFP4_E2M1))  # odd size along the dim
    @test e isa StrideError && e.name == "ST_ERROR_INVALID_ARGUMENT"
    @test caught(() -> quantize_blocks(zeros(Float32, 32), Stride.MXFP4_E2M1; dim=2)) isa ArgumentError
    V, S = fill(0xA5, 16), fill(0x5A, 1)
    e = caught(() -> quantize_blocks!(Tensor(V), from_array(S, Stride.FLOAT8_E8M0FNU), Tensor(zeros(Float32, 32)),
                                      Stride.MXFP4_E2M1))                     # UINT8 values
    @test e isa StrideError && e.name == "ST_ERROR_UNSUPPORTED_DTYPE" && startswith(e.message, "quantize_blocks!: ")
    @test all(==(0xA5), V) && S == [0x5A]
    e = caught(() -> dequantize_blocks(values, scales, Stride.MXFP4_E2M1; dtype=Stride.INT32))
    @test e isa StrideError && e.name == "ST_ERROR_UNSUPPORTED_DTYPE"
end
