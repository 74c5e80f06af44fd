# Decides whether the CUDA backend is built (STRIDE_WITH_CUDA: AUTO, ON or
# OFF) and, when it is, enables the CUDA language and finds the toolkit.
# Sets STRIDE_HAVE_CUDA for src/ and tests/.
include(CheckLanguage)

string(TOUPPER "${STRIDE_WITH_CUDA}" _stride_cuda_mode)
if(NOT _stride_cuda_mode STREQUAL "AUTO")
  if(STRIDE_WITH_CUDA)
    set(_stride_cuda_mode ON)
  else()
    set(_stride_cuda_mode OFF)
  endif()
endif()

set(STRIDE_HAVE_CUDA OFF)
if(NOT _stride_cuda_mode STREQUAL "OFF")
  # CMake looks for nvcc on PATH and in $CUDA_PATH/bin only; the toolkit's
  # standard home is /usr/local/cuda, often not on PATH. Offer it through
  # CUDACXX so check_language() still tests that the compiler works.
  if(NOT DEFINED CMAKE_CUDA_COMPILER AND "$ENV{CUDACXX}" STREQUAL "" AND "$ENV{CUDA_PATH}" STREQUAL "")
    # PATH only, as CMake's own search (it runs before the system paths are known).
    find_program(_stride_nvcc_on_path nvcc PATHS ENV PATH NO_DEFAULT_PATH)
    if(NOT _stride_nvcc_on_path AND EXISTS /usr/local/cuda/bin/nvcc)
      set(ENV{CUDACXX} /usr/local/cuda/bin/nvcc)
    endif()
    unset(_stride_nvcc_on_path CACHE)
  endif()

  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    # SASS for sm_80 (runs on every 8.x GPU) and sm_90, plus compute_90 PTX
    # that the driver compiles for newer GPUs. CMAKE_CUDA_ARCHITECTURES or
    # the CUDAARCHS environment variable override it.
    if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES AND "$ENV{CUDAARCHS}" STREQUAL "")
      set(CMAKE_CUDA_ARCHITECTURES "80-real;90" CACHE STRING "CUDA architectures to build for")
    endif()
    set(CMAKE_CUDA_STANDARD 17)
    set(CMAKE_CUDA_STANDARD_REQUIRED ON)
    set(CMAKE_CUDA_EXTENSIONS OFF)
    # The static runtime: libstride.so must load where no driver is installed.
    set(CMAKE_CUDA_RUNTIME_LIBRARY Static)
    enable_language(CUDA)
    find_package(CUDAToolkit REQUIRED)
    set(STRIDE_HAVE_CUDA ON)
    message(STATUS "stride: CUDA backend ON (nvcc ${CMAKE_CUDA_COMPILER_VERSION}, architectures ${CMAKE_CUDA_ARCHITECTURES})")
  elseif(_stride_cuda_mode STREQUAL "ON")
    message(FATAL_ERROR "STRIDE_WITH_CUDA=ON, but no working CUDA compiler was found: put nvcc on PATH, "
                        "or set CUDACXX or CMAKE_CUDA_COMPILER to its path")
  else()
    message(STATUS "stride: CUDA backend OFF (no working nvcc found)")
  endif()
else()
  message(STATUS "stride: CUDA backend OFF (STRIDE_WITH_CUDA=OFF)")
endif()
