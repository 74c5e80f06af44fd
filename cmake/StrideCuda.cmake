# Decides whether the CUDA backend is built (STRIDE_WITH_CUDA: AUTO, ON or
# OFF) and, when it is, enables the CUDA language and finds the toolkit.
# Sets STRIDE_HAVE_CUDA for src/ and tests/.
include(CheckLanguage)
include(${CMAKE_CURRENT_LIST_DIR}/StrideCudaFlags.cmake)
string(TOUPPER "${CMAKE_BUILD_TYPE}" _stride_config)

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
    # Note [Architectures and images] (src/cuda/device_status.h). By
    # default one PTX pass for compute_75, which ptxas turns into SASS for
    # sm_75 (Turing), sm_80 (every 8.x), sm_90, sm_100 and sm_120, and which
    # is kept in the library so that the driver compiles it for GPUs newer
    # still. One front-end pass instead of one per architecture keeps the
    # build near the cost of the former two architectures (docs/cuda.md
    # has the figures). CMAKE_CUDA_ARCHITECTURES or the CUDAARCHS
    # environment variable override it, in CMake's form.
    # A build folder configured before this default keeps the former one
    # in its cache; it is recognized by its description and dropped.
    get_property(_stride_arch_help CACHE CMAKE_CUDA_ARCHITECTURES PROPERTY HELPSTRING)
    if("${CMAKE_CUDA_ARCHITECTURES}" STREQUAL "80-real;90" AND _stride_arch_help STREQUAL "CUDA architectures to build for")
      unset(CMAKE_CUDA_ARCHITECTURES CACHE)
    endif()
    set(STRIDE_CUDA_DEFAULT_SASS 75 80 90 100 120)
    set(STRIDE_CUDA_DEFAULT_PTX 75)
    if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES AND "$ENV{CUDAARCHS}" STREQUAL "")
      set(_stride_codes "compute_${STRIDE_CUDA_DEFAULT_PTX}")
      set(STRIDE_CUDA_IMAGES "compute_${STRIDE_CUDA_DEFAULT_PTX}")
      foreach(_sm IN LISTS STRIDE_CUDA_DEFAULT_SASS)
        string(APPEND _stride_codes ",sm_${_sm}")
        string(APPEND STRIDE_CUDA_IMAGES ",sm_${_sm}")
      endforeach()
      # No architecture flags from CMake: ours come with every CUDA target (stride_cuda_options).
      set(CMAKE_CUDA_ARCHITECTURES OFF)
      set(STRIDE_CUDA_GENCODE "--generate-code=arch=compute_${STRIDE_CUDA_DEFAULT_PTX},code=[${_stride_codes}]")
    endif()
    set(CMAKE_CUDA_STANDARD 17)
    set(CMAKE_CUDA_STANDARD_REQUIRED ON)
    set(CMAKE_CUDA_EXTENSIONS OFF)
    # The static runtime: libstride.so must load where no driver is installed.
    set(CMAKE_CUDA_RUNTIME_LIBRARY Static)
    enable_language(CUDA)
    find_package(CUDAToolkit REQUIRED)
    set(STRIDE_HAVE_CUDA ON)
    if(NOT DEFINED STRIDE_CUDA_IMAGES)
      stride_cuda_images_of("${CMAKE_CUDA_ARCHITECTURES}" STRIDE_CUDA_IMAGES)
    endif()
    stride_check_cuda_flags("${CMAKE_CUDA_FLAGS} ${CMAKE_CUDA_FLAGS_${_stride_config}}")
    message(STATUS "stride: CUDA backend ON (nvcc ${CMAKE_CUDA_COMPILER_VERSION}, images ${STRIDE_CUDA_IMAGES})")
  elseif(_stride_cuda_mode STREQUAL "ON")
    message(FATAL_ERROR "STRIDE_WITH_CUDA=ON, but no working CUDA compiler was found: put nvcc on PATH, "
                        "or set CUDACXX or CMAKE_CUDA_COMPILER to its path")
  else()
    message(STATUS "stride: CUDA backend OFF (no working nvcc found)")
  endif()
else()
  message(STATUS "stride: CUDA backend OFF (STRIDE_WITH_CUDA=OFF)")
endif()

# Line tables in the device code, for compute-sanitizer and profilers
# (-lineinfo: the code itself is the same). They triple the size of the
# device code (the library grows from about 38 MB to 118 MB), so release
# builds leave them out unless asked; tools/gpu-check.sh asks.
if(CMAKE_BUILD_TYPE MATCHES "^(Debug|RelWithDebInfo)$")
  set(_stride_lineinfo_default ON)
else()
  set(_stride_lineinfo_default OFF)
endif()
option(STRIDE_CUDA_LINEINFO "Compile CUDA device code with -lineinfo" ${_stride_lineinfo_default})

# The options every CUDA compile of stride's own targets gets (added by
# stride_cuda_options): the default architectures, -lineinfo (above), and
# ptxas warnings for register spills and any local memory, which turn into
# errors with STRIDE_WERROR (--Werror=all-warnings): the copy kernels keep
# every value in registers.
function(stride_cuda_options target)
  if(STRIDE_HAVE_CUDA)
    target_compile_options(${target} PRIVATE
      "$<$<COMPILE_LANGUAGE:CUDA>:${STRIDE_CUDA_GENCODE};-Xptxas=-warn-spills,-warn-lmem-usage>"
      "$<$<AND:$<COMPILE_LANGUAGE:CUDA>,$<BOOL:${STRIDE_CUDA_LINEINFO}>>:-lineinfo>")
  endif()
endfunction()
