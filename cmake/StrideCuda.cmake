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
  set(_stride_local_sass "")
  if(CMAKE_CUDA_COMPILER)
    stride_local_gpu_architectures(_stride_local_sass)
  endif()
  if(CMAKE_CUDA_COMPILER AND _stride_cuda_mode STREQUAL "AUTO" AND NOT _stride_local_sass)
    # A machine with nvcc and no GPU cannot run the kernels, and compiling
    # them is most of a build's time (the README's demo: about 80 CPU
    # seconds without them, 290 with them as PTX alone). A package, a build
    # machine or the test command asks for them with STRIDE_WITH_CUDA=ON.
    message(STATUS "stride: CUDA backend OFF (nvcc found, but no GPU of compute capability 7.5 or newer here; "
                   "-DSTRIDE_WITH_CUDA=ON builds it anyway)")
  elseif(CMAKE_CUDA_COMPILER)
    # Note [Architectures and images] (src/cuda/runtime/device_status.h). By
    # default one PTX pass for compute_75, kept in the library so that the
    # driver compiles it for any GPU of compute capability 7.5 or newer, and
    # ptxas turns it into SASS for the architectures in STRIDE_CUDA_SASS
    # only: the GPUs of the machine that configures, none on one without a
    # GPU. A source build for its own machine then compiles what it runs
    # and no more (ptxas for five architectures more than doubled the CUDA
    # part of the build). A package sets STRIDE_CUDA_SASS=all: SASS for
    # every architecture of STRIDE_CUDA_RELEASE_SASS, so that no GPU it
    # supports has to wait for the driver's compile (docs/cuda.md).
    # CMAKE_CUDA_ARCHITECTURES or the CUDAARCHS environment variable replace
    # all of this, in CMake's form.
    # A build folder configured before this default keeps the former one
    # in its cache; it is recognized by its description and dropped.
    get_property(_stride_arch_help CACHE CMAKE_CUDA_ARCHITECTURES PROPERTY HELPSTRING)
    if("${CMAKE_CUDA_ARCHITECTURES}" STREQUAL "80-real;90" AND _stride_arch_help STREQUAL "CUDA architectures to build for")
      unset(CMAKE_CUDA_ARCHITECTURES CACHE)
    endif()
    set(STRIDE_CUDA_RELEASE_SASS 75 80 90 100 120)
    set(STRIDE_CUDA_DEFAULT_PTX 75)
    if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES AND "$ENV{CUDAARCHS}" STREQUAL "")
      if(NOT DEFINED STRIDE_CUDA_SASS)
        set(STRIDE_CUDA_SASS "${_stride_local_sass}" CACHE STRING
            "SASS architectures built from the compute_${STRIDE_CUDA_DEFAULT_PTX} PTX (e.g. 80;90), 'all' for ${STRIDE_CUDA_RELEASE_SASS}, empty for none; first default: this machine's GPUs")
      endif()
      set(_stride_sass "${STRIDE_CUDA_SASS}")
      if(_stride_sass STREQUAL "all")
        set(_stride_sass ${STRIDE_CUDA_RELEASE_SASS})
      endif()
      set(STRIDE_CUDA_IMAGES "compute_${STRIDE_CUDA_DEFAULT_PTX}")
      foreach(_sm IN LISTS _stride_sass)
        if(NOT _sm MATCHES "^[0-9]+[af]?$" OR _sm LESS STRIDE_CUDA_DEFAULT_PTX)
          message(FATAL_ERROR "STRIDE_CUDA_SASS: '${_sm}' is not an architecture of ${STRIDE_CUDA_DEFAULT_PTX} or newer")
        endif()
        string(APPEND STRIDE_CUDA_IMAGES ",sm_${_sm}")
      endforeach()
      # No architecture flags from CMake: ours come with every CUDA target (stride_cuda_options).
      set(CMAKE_CUDA_ARCHITECTURES OFF)
      set(STRIDE_CUDA_GENCODE "--generate-code=arch=compute_${STRIDE_CUDA_DEFAULT_PTX},code=[${STRIDE_CUDA_IMAGES}]")
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
