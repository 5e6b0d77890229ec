// Differential check of the raising: the linalg program and its raised form
// both run on the CPU (dwc-to-llvm-cpu, mlir-runner) and must print the same
// numbers. Inputs are small integers, so every sum is exact and the results
// must agree bit for bit (f16 included). Covers a padded strided depthwise
// convolution with bias, a padded dense convolution, padded max pooling and
// count_include_pad average pooling, and channel sums (bias gradients, f16
// widened to f32 and f32 NCHW).
// RUN: cat %s %S/Inputs/differential-helpers.mlir > %t.mlir
// RUN: dwc-opt %t.mlir --raise-linalg-to-dwc | FileCheck %s --check-prefix=RAISED
// RUN: dwc-opt %t.mlir --dwc-to-llvm-cpu | %PYTHON %S/Inputs/run-cpu.py mlir-runner > %t.linalg
// RUN: dwc-opt %t.mlir --raise-linalg-to-dwc --dwc-to-llvm-cpu | %PYTHON %S/Inputs/run-cpu.py mlir-runner > %t.dwc
// RUN: FileCheck %s --input-file=%t.dwc --check-prefix=OUT
// RUN: diff %t.linalg %t.dwc

// RAISED-COUNT-1: dwc.depthwise_conv2d {{.*}} bias({{.*}}) {{.*}} strides = [2, 2] dilations = [1, 1] padding = [1, 2, 2, 1]
// RAISED-COUNT-1: dwc.conv2d {{.*}} padding = [1, 1, 1, 1]
// RAISED-COUNT-1: dwc.pool2d max {{.*}} padding = [1, 1, 1, 1]
// RAISED-COUNT-1: dwc.pool2d avg {{.*}} padding = [1, 1, 1, 1] count_include_pad
// RAISED-COUNT-1: dwc.pool2d avg {{.*}} window = [2, 2] strides = [2, 2] padding = [0, 0, 0, 0] -> tensor<2x4x4x4xf16>
// RAISED-COUNT-2: dwc.conv2d_backward_bias
// RAISED-NOT: linalg.depthwise
// RAISED-NOT: linalg.conv_2d
// RAISED-NOT: linalg.pooling

// OUT-COUNT-7: Unranked Memref

#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32

  // Depthwise 3x3, stride 2, padding [1, 2, 2, 1], bias.
  %x = call @gen_x_dw() : () -> tensor<1x9x9x8xf32>
  %w = call @gen_w_dw() : () -> tensor<3x3x8xf32>
  %b = call @gen_b_dw() : () -> tensor<8xf32>
  %xp = tensor.pad %x low[0, 1, 2, 0] high[0, 2, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x9x9x8xf32> to tensor<1x12x12x8xf32>
  %e0 = tensor.empty() : tensor<1x5x5x8xf32>
  %bb = linalg.broadcast ins(%b : tensor<8xf32>) outs(%e0 : tensor<1x5x5x8xf32>) dimensions = [0, 1, 2]
  %y0 = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
          ins(%xp, %w : tensor<1x12x12x8xf32>, tensor<3x3x8xf32>) outs(%bb : tensor<1x5x5x8xf32>) -> tensor<1x5x5x8xf32>
  call @print_1x5x5x8_f32(%y0) : (tensor<1x5x5x8xf32>) -> ()

  // Dense 3x3, padding 1.
  %xc = call @gen_x_cv() : () -> tensor<1x6x6x4xf32>
  %wc = call @gen_w_cv() : () -> tensor<3x3x4x8xf32>
  %xcp = tensor.pad %xc low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x6x6x4xf32> to tensor<1x8x8x4xf32>
  %e1 = tensor.empty() : tensor<1x6x6x8xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x6x6x8xf32>) -> tensor<1x6x6x8xf32>
  %y1 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
          ins(%xcp, %wc : tensor<1x8x8x4xf32>, tensor<3x3x4x8xf32>) outs(%f1 : tensor<1x6x6x8xf32>) -> tensor<1x6x6x8xf32>
  call @print_1x6x6x8_f32(%y1) : (tensor<1x6x6x8xf32>) -> ()

  // Max 3x3, stride 2, -inf padding 1.
  %xq = call @gen_x_pool() : () -> tensor<1x9x9x4xf32>
  %xqm = tensor.pad %xq low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %ninf : f32
  } : tensor<1x9x9x4xf32> to tensor<1x11x11x4xf32>
  %win3 = tensor.empty() : tensor<3x3xf32>
  %e2 = tensor.empty() : tensor<1x5x5x4xf32>
  %f2 = linalg.fill ins(%ninf : f32) outs(%e2 : tensor<1x5x5x4xf32>) -> tensor<1x5x5x4xf32>
  %y2 = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
          ins(%xqm, %win3 : tensor<1x11x11x4xf32>, tensor<3x3xf32>) outs(%f2 : tensor<1x5x5x4xf32>) -> tensor<1x5x5x4xf32>
  call @print_1x5x5x4_f32(%y2) : (tensor<1x5x5x4xf32>) -> ()

  // Average 3x3, stride 2, zero padding 1 (padding counts: divide by 9).
  %xqa = tensor.pad %xq low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x9x9x4xf32> to tensor<1x11x11x4xf32>
  %f3 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x5x5x4xf32>) -> tensor<1x5x5x4xf32>
  %s3 = linalg.pooling_nhwc_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
          ins(%xqa, %win3 : tensor<1x11x11x4xf32>, tensor<3x3xf32>) outs(%f3 : tensor<1x5x5x4xf32>) -> tensor<1x5x5x4xf32>
  %y3 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
          ins(%s3 : tensor<1x5x5x4xf32>) outs(%e2 : tensor<1x5x5x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %nine = arith.constant 9.0 : f32
    %d = arith.divf %in, %nine : f32
    linalg.yield %d : f32
  } -> tensor<1x5x5x4xf32>
  call @print_1x5x5x4_f32(%y3) : (tensor<1x5x5x4xf32>) -> ()

  // Average 2x2, stride 2, f16.
  %zh = arith.constant 0.0 : f16
  %xh = call @gen_x_h() : () -> tensor<2x8x8x4xf16>
  %win2 = tensor.empty() : tensor<2x2xf16>
  %e4 = tensor.empty() : tensor<2x4x4x4xf16>
  %f4 = linalg.fill ins(%zh : f16) outs(%e4 : tensor<2x4x4x4xf16>) -> tensor<2x4x4x4xf16>
  %s4 = linalg.pooling_nhwc_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
          ins(%xh, %win2 : tensor<2x8x8x4xf16>, tensor<2x2xf16>) outs(%f4 : tensor<2x4x4x4xf16>) -> tensor<2x4x4x4xf16>
  %y4 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
          ins(%s4 : tensor<2x4x4x4xf16>) outs(%e4 : tensor<2x4x4x4xf16>) {
  ^bb0(%in: f16, %out: f16):
    %four = arith.constant 4.0 : f16
    %d = arith.divf %in, %four : f16
    linalg.yield %d : f16
  } -> tensor<2x4x4x4xf16>
  call @print_2x4x4x4_f16(%y4) : (tensor<2x4x4x4xf16>) -> ()

  // Bias gradients: f16 NHWC summed in f32 over N, H, W; f32 NCHW.
  %e5 = tensor.empty() : tensor<4xf32>
  %f5 = linalg.fill ins(%zero : f32) outs(%e5 : tensor<4xf32>) -> tensor<4xf32>
  %y5 = linalg.reduce ins(%xh : tensor<2x8x8x4xf16>) outs(%f5 : tensor<4xf32>) dimensions = [0, 1, 2]
    (%a: f16, %acc: f32) {
      %w5 = arith.extf %a : f16 to f32
      %r5 = arith.addf %acc, %w5 : f32
      linalg.yield %r5 : f32
    }
  call @print_4_f32(%y5) : (tensor<4xf32>) -> ()
  %e6 = tensor.empty() : tensor<6xf32>
  %f6 = linalg.fill ins(%zero : f32) outs(%e6 : tensor<6xf32>) -> tensor<6xf32>
  %y6 = linalg.generic {indexing_maps = [#id, affine_map<(n, c, h, w) -> (c)>],
                        iterator_types = ["reduction", "parallel", "reduction", "reduction"]}
          ins(%y1 : tensor<1x6x6x8xf32>) outs(%f6 : tensor<6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r6 = arith.addf %in, %out : f32
    linalg.yield %r6 : f32
  } -> tensor<6xf32>
  call @print_6_f32(%y6) : (tensor<6xf32>) -> ()
  return
}

func.func @print_4_f32(%x: tensor<4xf32>) {
  %m = bufferization.to_buffer %x : tensor<4xf32> to memref<4xf32>
  %u = memref.cast %m : memref<4xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}

func.func @print_6_f32(%x: tensor<6xf32>) {
  %m = bufferization.to_buffer %x : tensor<6xf32> to memref<6xf32>
  %u = memref.cast %m : memref<6xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
