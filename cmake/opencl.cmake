# ---- OpenCL backend (issue 29) -------------------------------------------------
# AXB_OPENCL: AUTO (default) builds src/backend/opencl/ when the OpenCL
# headers, the ICD loader and CLBlast are all found (Debian:
# ocl-icd-opencl-dev, opencl-c-headers, libclblast-dev); ON makes them
# required; OFF leaves the backend out (src/backend/stub/opencl_stub.c
# answers AXB_ERR_NOT_COMPILED).  CLBlast is required, not optional: the
# trailing updates and the triangular solves are its GEMM/SYRK/TRSM, and a
# hand-written stand-in would be a second, slower BLAS to test and tune
# (docs/notes/opencl.md).
# The kernels (src/backend/opencl/*.cl) are embedded at build time as C
# strings (cmake/embed_cl.cmake) and compiled at run time once per context.
set(AXB_OPENCL "AUTO" CACHE STRING "OpenCL backend: ON, OFF or AUTO (on when OpenCL and CLBlast are found)")
set_property(CACHE AXB_OPENCL PROPERTY STRINGS ON OFF AUTO)
set(AXB_HAVE_OPENCL OFF)
if(NOT AXB_OPENCL STREQUAL "OFF")
  find_package(OpenCL QUIET)
  find_package(CLBlast CONFIG QUIET)
  if(OpenCL_FOUND AND CLBlast_FOUND)
    set(AXB_HAVE_OPENCL ON)
  else()
    set(axb_ocl_missing "")
    if(NOT OpenCL_FOUND)
      string(APPEND axb_ocl_missing " OpenCL headers/ICD loader (ocl-icd-opencl-dev opencl-c-headers)")
    endif()
    if(NOT CLBlast_FOUND)
      string(APPEND axb_ocl_missing " CLBlast (libclblast-dev)")
    endif()
    if(AXB_OPENCL STREQUAL "ON")
      message(FATAL_ERROR "AXB_OPENCL=ON but missing:${axb_ocl_missing}")
    endif()
    message(STATUS "axb: OpenCL backend off, missing:${axb_ocl_missing}; "
                   "--backend opencl will say it is not compiled")
  endif()
endif()

# Called after add_library(axb): sources, embedded kernels, links.
function(axb_opencl_configure)
  if(NOT AXB_HAVE_OPENCL)
    return()
  endif()
  file(GLOB cl_files CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/src/backend/opencl/*.cl)
  set(out ${PROJECT_BINARY_DIR}/generated/ocl_sources.c)
  string(REPLACE ";" "|" cl_joined "${cl_files}") # one argument
  add_custom_command(OUTPUT ${out}
    COMMAND ${CMAKE_COMMAND} -DOUT=${out} -DFILES=${cl_joined}
            -P ${PROJECT_SOURCE_DIR}/cmake/embed_cl.cmake VERBATIM
    DEPENDS ${cl_files} ${PROJECT_SOURCE_DIR}/cmake/embed_cl.cmake
    COMMENT "Embedding the OpenCL kernels")
  target_sources(axb PRIVATE ${out})
  target_compile_definitions(axb PRIVATE AXB_HAVE_OPENCL=1
                             CL_TARGET_OPENCL_VERSION=120)
  target_link_libraries(axb PRIVATE OpenCL::OpenCL clblast)
endfunction()
