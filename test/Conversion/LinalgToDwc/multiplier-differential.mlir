// Differential check of the channel-multiplier raising: the three
// front-end forms of Conv2d(C, M*C, k, groups=C) run on the CPU as linalg
// and raised (dwc-to-llvm-cpu, mlir-runner) and must print the same
// numbers. Inputs are small integers, so every sum is exact and the results
// agree bit for bit. TOSA's depthwise_conv_2d_nhwc_hwcm (M = 2, stride 2,
// padding), conv_2d_ngchw_gfchw with a bias (M = 3), StableHLO's grouped
// generic (M = 2).
// RUN: dwc-opt %s --raise-linalg-to-dwc | FileCheck %s --check-prefix=RAISED
// RUN: dwc-opt %s --dwc-to-llvm-cpu | %PYTHON %S/Inputs/run-cpu.py mlir-runner > %t.linalg
// RUN: dwc-opt %s --raise-linalg-to-dwc --dwc-to-llvm-cpu | %PYTHON %S/Inputs/run-cpu.py mlir-runner > %t.dwc
// RUN: FileCheck %s --input-file=%t.dwc --check-prefix=OUT
// RUN: diff %t.linalg %t.dwc

// RAISED-COUNT-1: dwc.depthwise_conv2d {{.*}} strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1] channel_multiplier = 2 -> tensor<1x4x4x6xf32>
// RAISED-COUNT-1: dwc.depthwise_conv2d {{.*}} bias({{.*}}) {{.*}} padding = [1, 1, 1, 1] channel_multiplier = 3 -> tensor<1x7x7x9xf32>
// RAISED-COUNT-1: dwc.depthwise_conv2d {{.*}} padding = [1, 1, 1, 1] channel_multiplier = 2 -> tensor<1x6x6x8xf32>
// RAISED-NOT: linalg.depthwise
// RAISED-NOT: linalg.conv_2d

// OUT-COUNT-3: Unranked Memref

#in = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d7, d0, d1, d3 + d4, d5 + d6)>
#f = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d2, d1, d4, d6)>
#out = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d7, d0, d2, d3, d5)>
#bc = affine_map<(d0, d1, d2, d3, d4) -> ()>
#id5 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %zero = arith.constant 0.0 : f32

  // TOSA: NHWC input, HWCM filter, M = 2, stride 2, padding 1.
  %xa = arith.constant dense<[[[[0.0, -4.0, 4.0], [3.0, 1.0, 2.0], [-4.0, -2.0, -2.0], [2.0, -2.0, 1.0], [3.0, -4.0, -4.0], [4.0, 2.0, 3.0], [-4.0, -1.0, -3.0]], [[-2.0, -2.0, 3.0], [-1.0, 0.0, 3.0], [3.0, 2.0, -3.0], [-4.0, 2.0, -3.0], [2.0, 1.0, 4.0], [-2.0, -2.0, 2.0], [4.0, 4.0, -2.0]], [[0.0, -3.0, 1.0], [-2.0, 2.0, 2.0], [-4.0, -1.0, -4.0], [-1.0, 4.0, 3.0], [3.0, -2.0, -2.0], [-3.0, -2.0, -3.0], [-2.0, -1.0, 0.0]], [[-1.0, 4.0, 2.0], [-3.0, 4.0, -2.0], [-1.0, -2.0, 4.0], [-1.0, 3.0, -2.0], [-1.0, 4.0, 2.0], [4.0, -1.0, -3.0], [-2.0, -4.0, -4.0]], [[1.0, 0.0, -3.0], [2.0, -4.0, -2.0], [4.0, -2.0, -3.0], [2.0, 4.0, -4.0], [-2.0, 0.0, 3.0], [-4.0, -2.0, 4.0], [-2.0, -2.0, -2.0]], [[-3.0, -1.0, 1.0], [-1.0, 1.0, 0.0], [-1.0, -2.0, -3.0], [0.0, -4.0, -3.0], [-1.0, -1.0, 4.0], [1.0, 1.0, 1.0], [1.0, 0.0, -4.0]], [[-2.0, 2.0, 0.0], [-3.0, 3.0, -1.0], [-4.0, 1.0, -2.0], [0.0, 0.0, 1.0], [2.0, 4.0, 3.0], [-4.0, 3.0, 0.0], [-3.0, 4.0, -4.0]]]]> : tensor<1x7x7x3xf32>
  %wa = arith.constant dense<[[[[-3.0, 3.0], [3.0, -1.0], [-3.0, 0.0]], [[-4.0, 0.0], [0.0, 4.0], [-2.0, -4.0]], [[1.0, 4.0], [-1.0, -1.0], [-3.0, 1.0]]], [[[3.0, -3.0], [-1.0, 1.0], [-2.0, -4.0]], [[-3.0, 4.0], [-2.0, 4.0], [-1.0, 0.0]], [[4.0, 0.0], [4.0, 0.0], [2.0, -3.0]]], [[[3.0, -2.0], [4.0, -4.0], [1.0, -1.0]], [[0.0, 1.0], [-1.0, -1.0], [-4.0, -2.0]], [[-3.0, 3.0], [2.0, -2.0], [-2.0, 2.0]]]]> : tensor<3x3x3x2xf32>
  %xap = tensor.pad %xa low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x7x7x3xf32> to tensor<1x9x9x3xf32>
  %ea = tensor.empty() : tensor<1x4x4x3x2xf32>
  %fa = linalg.fill ins(%zero : f32) outs(%ea : tensor<1x4x4x3x2xf32>) -> tensor<1x4x4x3x2xf32>
  %ya = linalg.depthwise_conv_2d_nhwc_hwcm {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
          ins(%xap, %wa : tensor<1x9x9x3xf32>, tensor<3x3x3x2xf32>) outs(%fa : tensor<1x4x4x3x2xf32>) -> tensor<1x4x4x3x2xf32>
  %ca = tensor.collapse_shape %ya [[0], [1], [2], [3, 4]] : tensor<1x4x4x3x2xf32> into tensor<1x4x4x6xf32>
  call @print_1x4x4x6(%ca) : (tensor<1x4x4x6xf32>) -> ()

  // linalg-on-tensors: NCHW, groups = 3, M = 3, bias, padding 1.
  %xb = arith.constant dense<[[[[1.0, -1.0, -3.0, 2.0, 4.0, 2.0, 3.0], [3.0, -3.0, 3.0, 3.0, 2.0, -1.0, 2.0], [-3.0, 2.0, -3.0, 0.0, 0.0, 4.0, 4.0], [-3.0, 4.0, 1.0, 2.0, 2.0, 0.0, -2.0], [4.0, 4.0, 0.0, -4.0, 3.0, -2.0, 3.0], [3.0, -2.0, 1.0, -1.0, 2.0, 3.0, 4.0], [4.0, 0.0, 3.0, -3.0, -3.0, 1.0, 2.0]], [[2.0, -4.0, -1.0, 2.0, 0.0, -2.0, 3.0], [-2.0, -2.0, -3.0, 0.0, 2.0, -4.0, 3.0], [-3.0, -3.0, -1.0, 0.0, 2.0, -1.0, 4.0], [-4.0, 1.0, -1.0, -1.0, -3.0, -3.0, -4.0], [-2.0, 2.0, 2.0, 4.0, 2.0, -2.0, -2.0], [2.0, 0.0, 4.0, 0.0, -3.0, 1.0, 1.0], [2.0, -4.0, -1.0, 0.0, 4.0, 4.0, -4.0]], [[-4.0, 1.0, 4.0, 4.0, -3.0, 4.0, 4.0], [0.0, 0.0, 2.0, 1.0, 2.0, -4.0, 4.0], [-3.0, -1.0, 1.0, -2.0, 1.0, 2.0, 4.0], [-4.0, -3.0, -2.0, -4.0, 2.0, 2.0, 2.0], [4.0, -3.0, 3.0, -2.0, -2.0, -2.0, -2.0], [0.0, -4.0, 2.0, 3.0, 0.0, -1.0, 3.0], [1.0, 1.0, 1.0, 3.0, 3.0, -4.0, 2.0]]]]> : tensor<1x3x7x7xf32>
  %wb = arith.constant dense<[[[[-4.0, -4.0, 4.0], [-3.0, -4.0, -4.0], [0.0, -4.0, -3.0]]], [[[-1.0, -3.0, 2.0], [3.0, -1.0, -4.0], [3.0, -1.0, -3.0]]], [[[-1.0, 3.0, 1.0], [4.0, -3.0, 2.0], [4.0, 1.0, -2.0]]], [[[1.0, 4.0, 0.0], [-4.0, -3.0, -2.0], [3.0, 1.0, 3.0]]], [[[0.0, 1.0, -1.0], [-2.0, -1.0, 2.0], [-1.0, -2.0, -4.0]]], [[[0.0, -1.0, -3.0], [3.0, 2.0, 1.0], [-2.0, 4.0, 0.0]]], [[[-1.0, 1.0, -3.0], [-1.0, -1.0, 3.0], [0.0, 3.0, -2.0]]], [[[4.0, 3.0, 4.0], [-2.0, 3.0, -3.0], [4.0, -1.0, 0.0]]], [[[4.0, 0.0, 3.0], [2.0, -1.0, 3.0], [2.0, 3.0, 0.0]]]]> : tensor<9x1x3x3xf32>
  %bb = arith.constant dense<[0.0, 2.0, 4.0, 3.0, -1.0, 3.0, 4.0, -1.0, 0.0]> : tensor<9xf32>
  %xbp = tensor.pad %xb low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x3x7x7xf32> to tensor<1x3x9x9xf32>
  %eb = tensor.empty() : tensor<1x9x7x7xf32>
  %bbb = linalg.broadcast ins(%bb : tensor<9xf32>) outs(%eb : tensor<1x9x7x7xf32>) dimensions = [0, 2, 3]
  %xb5 = tensor.expand_shape %xbp [[0], [1, 2], [3], [4]] output_shape [1, 3, 1, 9, 9] : tensor<1x3x9x9xf32> into tensor<1x3x1x9x9xf32>
  %wb5 = tensor.expand_shape %wb [[0, 1], [2], [3], [4]] output_shape [3, 3, 1, 3, 3] : tensor<9x1x3x3xf32> into tensor<3x3x1x3x3xf32>
  %ib5 = tensor.expand_shape %bbb [[0], [1, 2], [3], [4]] output_shape [1, 3, 3, 7, 7] : tensor<1x9x7x7xf32> into tensor<1x3x3x7x7xf32>
  %yb = linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
          ins(%xb5, %wb5 : tensor<1x3x1x9x9xf32>, tensor<3x3x1x3x3xf32>) outs(%ib5 : tensor<1x3x3x7x7xf32>) -> tensor<1x3x3x7x7xf32>
  %cb = tensor.collapse_shape %yb [[0], [1, 2], [3], [4]] : tensor<1x3x3x7x7xf32> into tensor<1x9x7x7xf32>
  call @print_1x9x7x7(%cb) : (tensor<1x9x7x7xf32>) -> ()

  // StableHLO: the grouped generic, G = 4, M = 2, padding 1.
  %xc = arith.constant dense<[[[[-2.0, 2.0, 2.0, 4.0, -1.0, -3.0], [3.0, 0.0, -2.0, 2.0, -4.0, -3.0], [-1.0, -2.0, 4.0, 4.0, 2.0, -3.0], [-4.0, -1.0, 4.0, 2.0, -1.0, -2.0], [-2.0, 1.0, 1.0, 1.0, -4.0, 3.0], [1.0, -3.0, -2.0, -1.0, -4.0, -1.0]], [[3.0, 2.0, -2.0, -1.0, 0.0, -1.0], [1.0, -1.0, -2.0, -3.0, 2.0, 0.0], [-3.0, 4.0, 0.0, -3.0, -4.0, 3.0], [-3.0, -3.0, 1.0, 2.0, -3.0, -4.0], [0.0, 0.0, -1.0, 2.0, 1.0, 1.0], [4.0, 3.0, -2.0, -2.0, -4.0, -2.0]], [[-1.0, 3.0, 2.0, -3.0, 3.0, 3.0], [2.0, 2.0, 2.0, -1.0, 4.0, -4.0], [-4.0, -4.0, 4.0, -4.0, -3.0, 2.0], [-4.0, 4.0, -2.0, -3.0, -2.0, 1.0], [-3.0, 0.0, 2.0, 2.0, -4.0, 1.0], [-2.0, 2.0, 4.0, 4.0, -4.0, -1.0]], [[-3.0, -3.0, 1.0, 2.0, -4.0, 1.0], [-1.0, 1.0, 4.0, 3.0, -1.0, -4.0], [2.0, -3.0, -3.0, 2.0, 0.0, 0.0], [1.0, 4.0, -3.0, -3.0, 3.0, 4.0], [4.0, -1.0, 1.0, 3.0, -4.0, -2.0], [4.0, 1.0, 3.0, -2.0, 0.0, 2.0]]]]> : tensor<1x4x6x6xf32>
  %wc = arith.constant dense<[[[[-2.0, -1.0, 2.0], [-3.0, 1.0, 4.0], [-2.0, 4.0, -4.0]]], [[[0.0, -3.0, -1.0], [-2.0, 1.0, 1.0], [3.0, 4.0, -1.0]]], [[[0.0, 3.0, 4.0], [-4.0, -4.0, -2.0], [3.0, 1.0, 0.0]]], [[[1.0, 1.0, 0.0], [-1.0, -2.0, 4.0], [-1.0, 3.0, 3.0]]], [[[-4.0, 0.0, 0.0], [2.0, 1.0, 0.0], [-1.0, -3.0, 0.0]]], [[[-4.0, -3.0, -3.0], [-3.0, 2.0, -4.0], [-4.0, -4.0, 2.0]]], [[[0.0, -2.0, 2.0], [1.0, -1.0, 4.0], [0.0, 4.0, 0.0]]], [[[-3.0, -2.0, -4.0], [3.0, -4.0, -1.0], [0.0, -1.0, 1.0]]]]> : tensor<8x1x3x3xf32>
  %z0 = arith.constant dense<0.0> : tensor<f32>
  %xcp = tensor.pad %xc low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x4x6x6xf32> to tensor<1x4x8x8xf32>
  %xc5 = tensor.expand_shape %xcp [[0], [1, 2], [3], [4]] output_shape [1, 4, 1, 8, 8] : tensor<1x4x8x8xf32> into tensor<1x4x1x8x8xf32>
  %wc5 = tensor.expand_shape %wc [[0, 1], [2], [3], [4]] output_shape [4, 2, 1, 3, 3] : tensor<8x1x3x3xf32> into tensor<4x2x1x3x3xf32>
  %ec = tensor.empty() : tensor<1x4x2x6x6xf32>
  %ic = linalg.generic {indexing_maps = [#bc, #id5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
            ins(%z0 : tensor<f32>) outs(%ec : tensor<1x4x2x6x6xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  } -> tensor<1x4x2x6x6xf32>
  %yc = linalg.generic {indexing_maps = [#in, #f, #out], iterator_types = ["parallel", "reduction", "parallel", "parallel", "reduction", "parallel", "reduction", "parallel"]}
         ins(%xc5, %wc5 : tensor<1x4x1x8x8xf32>, tensor<4x2x1x3x3xf32>) outs(%ic : tensor<1x4x2x6x6xf32>) {
  ^bb0(%in: f32, %wt: f32, %o: f32):
    %m = arith.mulf %in, %wt : f32
    %a = arith.addf %o, %m : f32
    linalg.yield %a : f32
  } -> tensor<1x4x2x6x6xf32>
  %cc = tensor.collapse_shape %yc [[0], [1, 2], [3], [4]] : tensor<1x4x2x6x6xf32> into tensor<1x8x6x6xf32>
  call @print_1x8x6x6(%cc) : (tensor<1x8x6x6xf32>) -> ()
  return
}

func.func @print_1x4x4x6(%x: tensor<1x4x4x6xf32>) {
  %m = bufferization.to_buffer %x : tensor<1x4x4x6xf32> to memref<1x4x4x6xf32>
  %u = memref.cast %m : memref<1x4x4x6xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}

func.func @print_1x9x7x7(%x: tensor<1x9x7x7xf32>) {
  %m = bufferization.to_buffer %x : tensor<1x9x7x7xf32> to memref<1x9x7x7xf32>
  %u = memref.cast %m : memref<1x9x7x7xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}

func.func @print_1x8x6x6(%x: tensor<1x8x6x6xf32>) {
  %m = bufferization.to_buffer %x : tensor<1x8x6x6xf32> to memref<1x8x6x6xf32>
  %u = memref.cast %m : memref<1x8x6x6xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
