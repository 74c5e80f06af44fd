# Checks of the CUDA compile flags, usable from a configure and in script
# mode (cmake -DFLAGS=... -P StrideCudaFlags.cmake, as a ctest does).

# Fast math would make the device flush subnormals to zero and approximate
# division, where the CPU kernels convert exactly: the same copy would give
# different bits on the two backends. nvcc 13 defines no macro for
# --use_fast_math (the kernels' #error in cuda/kernels/copy_kernels.cuh catches
# the compilers that do), so the configure refuses the flags themselves.
function(stride_check_cuda_flags flags)
  string(REGEX MATCH "(^| )(-|--)(use_fast_math|use-fast-math|ftz(=| )+true|prec-div(=| )+false|prec_div(=| )+false)"
    _bad "${flags}")
  if(_bad)
    message(FATAL_ERROR "stride: the CUDA flags contain '${CMAKE_MATCH_0}': fast math flushes subnormals and "
                        "approximates division on the device only, so GPU copies would differ from CPU copies. "
                        "Remove it from CMAKE_CUDA_FLAGS.")
  endif()
endfunction()

# The images of a CMAKE_CUDA_ARCHITECTURES list, in the form of Note
# [Architectures and images] (src/cuda/runtime/device_status.h): "86-real" is
# sm_86, "86-virtual" compute_86, "86" both; all, all-major and native
# give an empty list (not checked at run time).
function(stride_cuda_images_of archs out)
  set(images "")
  foreach(a IN LISTS archs)
    if(a MATCHES "^([0-9]+[af]?)-real$")
      list(APPEND images "sm_${CMAKE_MATCH_1}")
    elseif(a MATCHES "^([0-9]+[af]?)-virtual$")
      list(APPEND images "compute_${CMAKE_MATCH_1}")
    elseif(a MATCHES "^([0-9]+[af]?)$")
      list(APPEND images "sm_${CMAKE_MATCH_1}" "compute_${CMAKE_MATCH_1}")
    else()
      set(${out} "" PARENT_SCOPE)
      return()
    endif()
  endforeach()
  string(REPLACE ";" "," images "${images}")
  set(${out} "${images}" PARENT_SCOPE)
endfunction()

# The compute capabilities of this machine's GPUs as SASS architectures
# ("90;120"), from the toolkit's own query (the one nvcc -arch=native
# runs); empty without a GPU or a driver.
function(stride_local_gpu_architectures out)
  set(archs "")
  get_filename_component(bin "${CMAKE_CUDA_COMPILER}" DIRECTORY)
  find_program(_stride_device_query __nvcc_device_query HINTS "${bin}" NO_CACHE)
  if(_stride_device_query)
    execute_process(COMMAND "${_stride_device_query}" OUTPUT_VARIABLE listed RESULT_VARIABLE failed
                    ERROR_QUIET TIMEOUT 60)
    if(NOT failed)
      string(REGEX MATCHALL "[0-9]+" listed "${listed}")
      foreach(a IN LISTS listed)
        if(NOT a LESS 75)
          list(APPEND archs ${a})
        endif()
      endforeach()
      list(REMOVE_DUPLICATES archs)
    endif()
  endif()
  set(${out} "${archs}" PARENT_SCOPE)
endfunction()

if(CMAKE_SCRIPT_MODE_FILE AND DEFINED FLAGS)
  stride_check_cuda_flags("${FLAGS}")
  message(STATUS "CUDA flags accepted: ${FLAGS}")
endif()
