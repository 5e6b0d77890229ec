# Installation of dwc as a CMake package: `cmake --install build --prefix P`
# puts headers (with the generated .inc files), the static libraries, the
# runtime, the plugin and the tools under P, and P/lib/cmake/dwc/ holds
# dwcConfig.cmake and dwcConfigVersion.cmake for find_package(dwc). The
# libraries themselves are installed by add_mlir_library.
include(CMakePackageConfigHelpers)

set(DWC_PACKAGE_LIBS
  MLIRDwcPipelines
  MLIRDwcLinalgToDwc
  MLIRDwcDwcToLinalg
  MLIRDwcDwcToGPUIm2win
  MLIRDwcDwcToGPUMmaStream
  MLIRDwcDwcToGPUMma
  MLIRDwcDwcToGPUGemv
  MLIRDwcDwcToGPUPool
  MLIRDwcDwcToGPUBackwardFilter
  MLIRDwcDwcToGPUStrided
  MLIRDwcDwcToGPUGlobalPool
  MLIRDwcDwcToGPU
  MLIRDwcKernelSelection
  MLIRDwcHostLinalgToGPU
  MLIRDwcTransforms
  MLIRDwc)

install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/dwc ${PROJECT_BINARY_DIR}/include/dwc
  DESTINATION include
  FILES_MATCHING PATTERN "*.h" PATTERN "*.inc" PATTERN "*.td"
  PATTERN "CMakeFiles" EXCLUDE)
# The installed tools find libMLIR.so/libLLVM.so where they were built.
set_target_properties(dwc-opt dwc-aot PROPERTIES
  INSTALL_RPATH "${LLVM_LIBRARY_DIR}")
install(TARGETS dwc-opt dwc-aot RUNTIME DESTINATION bin)
install(TARGETS DwcPlugin LIBRARY DESTINATION lib)

configure_file(${PROJECT_SOURCE_DIR}/cmake/dwcConfig.cmake.in
  ${PROJECT_BINARY_DIR}/lib/cmake/dwc/dwcConfig.cmake @ONLY)
write_basic_package_version_file(
  ${PROJECT_BINARY_DIR}/lib/cmake/dwc/dwcConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES
  ${PROJECT_BINARY_DIR}/lib/cmake/dwc/dwcConfig.cmake
  ${PROJECT_BINARY_DIR}/lib/cmake/dwc/dwcConfigVersion.cmake
  DESTINATION lib/cmake/dwc)
