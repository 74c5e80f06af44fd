# Tests for a machine with Julia (not run where the library is developed:
# there, tools/check_julia_ccalls.py checks every ccall against the header
# and the built library instead). Run with STRIDE_LIBRARY set:
#   STRIDE_LIBRARY=build/src/libstride.so julia --project=bindings/julia bindings/julia/test/runtests.jl
using Test
using Stride

@testset "Stride" begin
    t = empty_tensor((2, 3); dtype=Stride.INT16)
    @test size(t) == (2, 3)
    @test strides(t) == (3, 1)
    @test dtype(t) == Stride.INT16
    @test numel(t) == 6
    @test is_contiguous(t)

    A = reshape(collect(Float64, 1:12), 3, 4)      # column-major: strides (1, 3)
    a = from_array(A)
    @test strides(a) == (1, 3)
    @test data_ptr(a) == pointer(A)
    r = flip(a, 1)                                   # dims are 0-based, as in the C API
    @test strides(r) == (1, -3)
    @test unsafe_load(Ptr{Float64}(data_ptr(r))) == A[1, 4]

    err = try
        select(a, 0, 7)
        nothing
    catch e
        e
    end
    @test err isa StrideError
    @test err.name == "ST_ERROR_OUT_OF_BOUNDS"
    @test occursin("st_select", err.message)

    release!(t)
    @test_throws StrideError size(t)

    m = to_dlpack(a)
    b = from_dlpack(m)
    @test data_ptr(b) == data_ptr(a)
    @test strides(b) == strides(a)

    c = contiguous(a)
    @test strides(c) == (4, 1)
    @test unsafe_load(Ptr{Float64}(data_ptr(c)), 2) == A[1, 2]
end
