// dwc-to-nvvm with format=bin: the kernels become an embedded cubin and the
// host code translates to LLVM IR, with a C-interface entry point per
// function (inputs then outputs, as memref descriptor pointers) that calls
// the mgpu* runtime functions.
// REQUIRES: ptxas
// RUN: dwc-opt %s --dwc-to-nvvm="format=bin toolkit=%cuda_toolkit" > %t.mlir
// RUN: FileCheck %s --check-prefix=MLIR < %t.mlir
// RUN: mlir-translate --mlir-to-llvmir %t.mlir -o %t.ll
// RUN: FileCheck %s < %t.ll
// RUN: FileCheck %s --check-prefix=DECL < %t.ll

// RUN: dwc-opt %s --dwc-to-nvvm="format=bin toolkit=%cuda_toolkit opt-level=0" | FileCheck %s --check-prefix=O0
// RUN: dwc-opt %s --dwc-to-nvvm="format=bin toolkit=%cuda_toolkit opt-level=2" | FileCheck %s --check-prefix=O2

// ptxas gets the requested level through the target's ptxas-cmd-options;
// the target's O (LLVM's level) is the requested one for kernels of at most
// 10,000 operations like these (larger ones: dwc-to-nvvm-large-kernels.mlir).
// MLIR: gpu.binary @chain_direct  [#gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80", flags = {"ptxas-cmd-options" = ["--opt-level", "3"]}>, properties = {{.*}}, bin = "\7FELF
// O0: gpu.binary @chain_direct  [#gpu.object<#nvvm.target<O = 0, chip = "sm_90", features = "+ptx80", flags = {"ptxas-cmd-options" = ["--opt-level", "0"]}>
// (O = 2 is the default and not printed.)
// O2: gpu.binary @chain_direct  [#gpu.object<#nvvm.target<chip = "sm_90", features = "+ptx80", flags = {"ptxas-cmd-options" = ["--opt-level", "2"]}>

// The cubins are embedded and loaded by global constructors.
// CHECK: @chain_direct_binary = internal constant [{{[0-9]+}} x i8] c"\7FELF
// CHECK: @llvm.global_ctors = appending global [2 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 123, ptr @chain_direct_load, ptr null }, { i32, ptr, ptr } { i32 123, ptr @chain_direct_0_load, ptr null }]

// Device buffers flow through one stream: allocate the intermediate, launch
// both kernels (31 and 22 parameters: the expanded memref descriptors),
// free, synchronise.
// CHECK-LABEL: define void @chain(
// CHECK: %[[S:.*]] = call ptr @mgpuStreamCreate()
// CHECK: %[[T:.*]] = call ptr @mgpuMemAlloc(i64 8192, ptr %[[S]], i8 0)
// CHECK: %[[F0:.*]] = call ptr @mgpuModuleGetFunction(ptr %{{.*}}, ptr @chain_direct_chain_direct_name)
// CHECK: call void @mgpuLaunchKernel(ptr %[[F0]], i64 2, i64 1, i64 1, i64 256, i64 1, i64 1, i32 0, ptr %[[S]], ptr %{{.*}}, ptr null, i64 31)
// CHECK: %[[F1:.*]] = call ptr @mgpuModuleGetFunction(ptr %{{.*}}, ptr @chain_direct_0_chain_direct_name)
// CHECK: call void @mgpuLaunchKernel(ptr %[[F1]], i64 1, i64 1, i64 1, i64 256, i64 1, i64 1, i32 0, ptr %[[S]], ptr %{{.*}}, ptr null, i64 22)
// CHECK: call void @mgpuMemFree(ptr %[[T]], ptr %[[S]])
// CHECK: call void @mgpuStreamSynchronize(ptr %[[S]])
// CHECK: call void @mgpuStreamDestroy(ptr %[[S]])
// CHECK: ret void

// _mlir_ciface_chain(x, w, out): pointers to the memref descriptors of the
// inputs, then of the (former) result.
// CHECK-LABEL: define void @_mlir_ciface_chain(ptr %0, ptr %1, ptr %2)
// CHECK: load { ptr, ptr, i64, [4 x i64], [4 x i64] }, ptr %0
// CHECK: load { ptr, ptr, i64, [3 x i64], [3 x i64] }, ptr %1
// CHECK: load { ptr, ptr, i64, [4 x i64], [4 x i64] }, ptr %2
// CHECK: call void @chain(
// CHECK: define internal void @chain_direct_load()
// CHECK: call ptr @mgpuModuleLoad(ptr @chain_direct_binary, i64 {{[0-9]+}})

// The runtime entry points the host code needs:
// DECL-DAG: declare ptr @mgpuStreamCreate()
// DECL-DAG: declare void @mgpuStreamSynchronize(ptr)
// DECL-DAG: declare void @mgpuStreamDestroy(ptr)
// DECL-DAG: declare ptr @mgpuMemAlloc(i64, ptr, i8)
// DECL-DAG: declare void @mgpuMemFree(ptr, ptr)
// DECL-DAG: declare ptr @mgpuModuleLoad(ptr, i64)
// DECL-DAG: declare void @mgpuModuleUnload(ptr)
// DECL-DAG: declare ptr @mgpuModuleGetFunction(ptr, ptr)
// DECL-DAG: declare void @mgpuLaunchKernel(ptr, i64, i64, i64, i64, i64, i64, i32, ptr, ptr, ptr, i64)

func.func @chain(%x: tensor<1x8x8x32xf32>, %w: tensor<3x3x32xf32>) -> tensor<1x4x4x32xf32> {
  %i0 = tensor.empty() : tensor<1x8x8x32xf32>
  %y = dwc.depthwise_conv2d ins(%x, %w : tensor<1x8x8x32xf32>, tensor<3x3x32xf32>)
    outs(%i0 : tensor<1x8x8x32xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] {dwc.kernel = #dwc.direct} -> tensor<1x8x8x32xf32>
  %i1 = tensor.empty() : tensor<1x4x4x32xf32>
  %z = dwc.pool2d max ins(%y : tensor<1x8x8x32xf32>) outs(%i1 : tensor<1x4x4x32xf32>)
    window = [2, 2] strides = [2, 2] padding = [0, 0, 0, 0] {dwc.kernel = #dwc.direct} -> tensor<1x4x4x32xf32>
  return %z : tensor<1x4x4x32xf32>
}
