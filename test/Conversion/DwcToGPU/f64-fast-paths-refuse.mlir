// The optimised kernels take f32/f16/bf16 only: the tensor-core and GEMV
// passes leave f64 depthwise convolutions alone (no error), and the direct
// kernel, run after them as in dwc-to-nvvm, takes them.
// RUN: dwc-opt %s --dwc-select-kernels --convert-dwc-to-gpu-mma --convert-dwc-to-gpu-gemv | FileCheck %s --check-prefix=FAST
// RUN: dwc-opt %s --dwc-select-kernels --convert-dwc-to-gpu-mma --convert-dwc-to-gpu-gemv --convert-dwc-to-gpu | FileCheck %s --check-prefix=DIRECT

// FAST-LABEL: func.func @f64_stride1
// FAST-NOT: gpu.launch
// FAST: dwc.depthwise_conv2d ins({{.*}} : memref<1x16x32x64xf64>, memref<31x31x64xf64>)
// DIRECT-LABEL: func.func @f64_stride1
// DIRECT-NOT: dwc.depthwise_conv2d
// DIRECT: gpu.launch
// DIRECT: vector.fma {{.*}} : vector<2xf64>
func.func @f64_stride1(%x: memref<1x16x32x64xf64>, %w: memref<31x31x64xf64>, %y: memref<1x16x32x64xf64>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<1x16x32x64xf64>, memref<31x31x64xf64>)
    outs(%y : memref<1x16x32x64xf64>) strides = [1, 1] dilations = [1, 1] padding = [15, 15, 15, 15]
  return
}

// An f32 one next to it still takes the GEMV kernel (the refusal is per op).
// FAST-LABEL: func.func @f32_stride1
// FAST-NOT: dwc.depthwise_conv2d
// FAST: gpu.launch
func.func @f32_stride1(%x: memref<1x16x32x64xf32>, %w: memref<3x3x64xf32>, %y: memref<1x16x32x64xf32>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<1x16x32x64xf32>, memref<3x3x64xf32>)
    outs(%y : memref<1x16x32x64xf32>) strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1]
  return
}
