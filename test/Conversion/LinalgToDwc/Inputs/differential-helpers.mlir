// Deterministic small-integer inputs and printers for differential.mlir
// (every value is an exact integer, so sums are exact in any order).

func.func @gen_x_dw() -> tensor<1x9x9x8xf32> {
  %e = tensor.empty() : tensor<1x9x9x8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%e : tensor<1x9x9x8xf32>) {
  ^bb0(%o: f32):
    %i0 = linalg.index 0 : index
    %m0 = arith.constant 8 : index
    %p0 = arith.muli %i0, %m0 : index
    %i1 = linalg.index 1 : index
    %m1 = arith.constant 3 : index
    %p1 = arith.muli %i1, %m1 : index
    %i2 = linalg.index 2 : index
    %m2 = arith.constant 5 : index
    %p2 = arith.muli %i2, %m2 : index
    %i3 = linalg.index 3 : index
    %m3 = arith.constant 2 : index
    %p3 = arith.muli %i3, %m3 : index
    %s1 = arith.addi %p0, %p1 : index
    %s2 = arith.addi %s1, %p2 : index
    %s3 = arith.addi %s2, %p3 : index
    %sd = arith.constant 1 : index
    %t = arith.addi %s3, %sd : index
    %c11 = arith.constant 11 : index
    %u = arith.remui %t, %c11 : index
    %v = arith.index_cast %u : index to i32
    %c5 = arith.constant 5 : i32
    %w = arith.subi %v, %c5 : i32
    %f = arith.sitofp %w : i32 to f32
    linalg.yield %f : f32
  } -> tensor<1x9x9x8xf32>
  return %r : tensor<1x9x9x8xf32>
}

func.func @gen_w_dw() -> tensor<3x3x8xf32> {
  %e = tensor.empty() : tensor<3x3x8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} outs(%e : tensor<3x3x8xf32>) {
  ^bb0(%o: f32):
    %i0 = linalg.index 0 : index
    %m0 = arith.constant 9 : index
    %p0 = arith.muli %i0, %m0 : index
    %i1 = linalg.index 1 : index
    %m1 = arith.constant 3 : index
    %p1 = arith.muli %i1, %m1 : index
    %i2 = linalg.index 2 : index
    %m2 = arith.constant 5 : index
    %p2 = arith.muli %i2, %m2 : index
    %s1 = arith.addi %p0, %p1 : index
    %s2 = arith.addi %s1, %p2 : index
    %sd = arith.constant 2 : index
    %t = arith.addi %s2, %sd : index
    %c11 = arith.constant 11 : index
    %u = arith.remui %t, %c11 : index
    %v = arith.index_cast %u : index to i32
    %c5 = arith.constant 5 : i32
    %w = arith.subi %v, %c5 : i32
    %f = arith.sitofp %w : i32 to f32
    linalg.yield %f : f32
  } -> tensor<3x3x8xf32>
  return %r : tensor<3x3x8xf32>
}

func.func @gen_b_dw() -> tensor<8xf32> {
  %e = tensor.empty() : tensor<8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%e : tensor<8xf32>) {
  ^bb0(%o: f32):
    %i0 = linalg.index 0 : index
    %m0 = arith.constant 10 : index
    %p0 = arith.muli %i0, %m0 : index
    %sd = arith.constant 3 : index
    %t = arith.addi %p0, %sd : index
    %c11 = arith.constant 11 : index
    %u = arith.remui %t, %c11 : index
    %v = arith.index_cast %u : index to i32
    %c5 = arith.constant 5 : i32
    %w = arith.subi %v, %c5 : i32
    %f = arith.sitofp %w : i32 to f32
    linalg.yield %f : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}

func.func @gen_x_cv() -> tensor<1x6x6x4xf32> {
  %e = tensor.empty() : tensor<1x6x6x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%e : tensor<1x6x6x4xf32>) {
  ^bb0(%o: f32):
    %i0 = linalg.index 0 : index
    %m0 = arith.constant 11 : index
    %p0 = arith.muli %i0, %m0 : index
    %i1 = linalg.index 1 : index
    %m1 = arith.constant 3 : index
    %p1 = arith.muli %i1, %m1 : index
    %i2 = linalg.index 2 : index
    %m2 = arith.constant 5 : index
    %p2 = arith.muli %i2, %m2 : index
    %i3 = linalg.index 3 : index
    %m3 = arith.constant 2 : index
    %p3 = arith.muli %i3, %m3 : index
    %s1 = arith.addi %p0, %p1 : index
    %s2 = arith.addi %s1, %p2 : index
    %s3 = arith.addi %s2, %p3 : index
    %sd = arith.constant 4 : index
    %t = arith.addi %s3, %sd : index
    %c11 = arith.constant 11 : index
    %u = arith.remui %t, %c11 : index
    %v = arith.index_cast %u : index to i32
    %c5 = arith.constant 5 : i32
    %w = arith.subi %v, %c5 : i32
    %f = arith.sitofp %w : i32 to f32
    linalg.yield %f : f32
  } -> tensor<1x6x6x4xf32>
  return %r : tensor<1x6x6x4xf32>
}

func.func @gen_w_cv() -> tensor<3x3x4x8xf32> {
  %e = tensor.empty() : tensor<3x3x4x8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%e : tensor<3x3x4x8xf32>) {
  ^bb0(%o: f32):
    %i0 = linalg.index 0 : index
    %m0 = arith.constant 12 : index
    %p0 = arith.muli %i0, %m0 : index
    %i1 = linalg.index 1 : index
    %m1 = arith.constant 3 : index
    %p1 = arith.muli %i1, %m1 : index
    %i2 = linalg.index 2 : index
    %m2 = arith.constant 5 : index
    %p2 = arith.muli %i2, %m2 : index
    %i3 = linalg.index 3 : index
    %m3 = arith.constant 2 : index
    %p3 = arith.muli %i3, %m3 : index
    %s1 = arith.addi %p0, %p1 : index
    %s2 = arith.addi %s1, %p2 : index
    %s3 = arith.addi %s2, %p3 : index
    %sd = arith.constant 5 : index
    %t = arith.addi %s3, %sd : index
    %c11 = arith.constant 11 : index
    %u = arith.remui %t, %c11 : index
    %v = arith.index_cast %u : index to i32
    %c5 = arith.constant 5 : i32
    %w = arith.subi %v, %c5 : i32
    %f = arith.sitofp %w : i32 to f32
    linalg.yield %f : f32
  } -> tensor<3x3x4x8xf32>
  return %r : tensor<3x3x4x8xf32>
}

func.func @gen_x_pool() -> tensor<1x9x9x4xf32> {
  %e = tensor.empty() : tensor<1x9x9x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%e : tensor<1x9x9x4xf32>) {
  ^bb0(%o: f32):
    %i0 = linalg.index 0 : index
    %m0 = arith.constant 13 : index
    %p0 = arith.muli %i0, %m0 : index
    %i1 = linalg.index 1 : index
    %m1 = arith.constant 3 : index
    %p1 = arith.muli %i1, %m1 : index
    %i2 = linalg.index 2 : index
    %m2 = arith.constant 5 : index
    %p2 = arith.muli %i2, %m2 : index
    %i3 = linalg.index 3 : index
    %m3 = arith.constant 2 : index
    %p3 = arith.muli %i3, %m3 : index
    %s1 = arith.addi %p0, %p1 : index
    %s2 = arith.addi %s1, %p2 : index
    %s3 = arith.addi %s2, %p3 : index
    %sd = arith.constant 6 : index
    %t = arith.addi %s3, %sd : index
    %c11 = arith.constant 11 : index
    %u = arith.remui %t, %c11 : index
    %v = arith.index_cast %u : index to i32
    %c5 = arith.constant 5 : i32
    %w = arith.subi %v, %c5 : i32
    %f = arith.sitofp %w : i32 to f32
    linalg.yield %f : f32
  } -> tensor<1x9x9x4xf32>
  return %r : tensor<1x9x9x4xf32>
}

func.func @gen_x_h() -> tensor<2x8x8x4xf16> {
  %e = tensor.empty() : tensor<2x8x8x4xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%e : tensor<2x8x8x4xf16>) {
  ^bb0(%o: f16):
    %i0 = linalg.index 0 : index
    %m0 = arith.constant 14 : index
    %p0 = arith.muli %i0, %m0 : index
    %i1 = linalg.index 1 : index
    %m1 = arith.constant 3 : index
    %p1 = arith.muli %i1, %m1 : index
    %i2 = linalg.index 2 : index
    %m2 = arith.constant 5 : index
    %p2 = arith.muli %i2, %m2 : index
    %i3 = linalg.index 3 : index
    %m3 = arith.constant 2 : index
    %p3 = arith.muli %i3, %m3 : index
    %s1 = arith.addi %p0, %p1 : index
    %s2 = arith.addi %s1, %p2 : index
    %s3 = arith.addi %s2, %p3 : index
    %sd = arith.constant 7 : index
    %t = arith.addi %s3, %sd : index
    %c11 = arith.constant 11 : index
    %u = arith.remui %t, %c11 : index
    %v = arith.index_cast %u : index to i32
    %c5 = arith.constant 5 : i32
    %w = arith.subi %v, %c5 : i32
    %f = arith.sitofp %w : i32 to f16
    linalg.yield %f : f16
  } -> tensor<2x8x8x4xf16>
  return %r : tensor<2x8x8x4xf16>
}

func.func @print_1x5x5x8_f32(%x: tensor<1x5x5x8xf32>) {
  %m = bufferization.to_buffer %x : tensor<1x5x5x8xf32> to memref<1x5x5x8xf32>
  %u = memref.cast %m : memref<1x5x5x8xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}

func.func @print_1x6x6x8_f32(%x: tensor<1x6x6x8xf32>) {
  %m = bufferization.to_buffer %x : tensor<1x6x6x8xf32> to memref<1x6x6x8xf32>
  %u = memref.cast %m : memref<1x6x6x8xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}

func.func @print_1x5x5x4_f32(%x: tensor<1x5x5x4xf32>) {
  %m = bufferization.to_buffer %x : tensor<1x5x5x4xf32> to memref<1x5x5x4xf32>
  %u = memref.cast %m : memref<1x5x5x4xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}

func.func @print_2x4x4x4_f16(%x: tensor<2x4x4x4xf16>) {
  %e = tensor.empty() : tensor<2x4x4x4xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x : tensor<2x4x4x4xf16>) outs(%e : tensor<2x4x4x4xf32>) {
  ^bb0(%a: f16, %o: f32):
    %f = arith.extf %a : f16 to f32
    linalg.yield %f : f32
  } -> tensor<2x4x4x4xf32>
  %m = bufferization.to_buffer %y : tensor<2x4x4x4xf32> to memref<2x4x4x4xf32>
  %u = memref.cast %m : memref<2x4x4x4xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
