// f16 inputs in the split-z kernel: the window and dY stay f16, packed f16
// FMAs (vector<8xf16>) sum runs of half_steps columns into f16 partial sums
// that are flushed into the f32 sums with one widening add per run (only
// when requested: #dwc.bwd_filter_split_z<half_steps = 16>); the chosen
// half_steps = 0 keeps f32 FMAs on widened loads (the op promises f32
// accumulation); bf16 always takes the f32 FMAs (half_steps does not fit
// it: kernel-configs-bwd-filter-invalid.mlir).
// RUN: dwc-opt %s --dwc-select-kernels --convert-dwc-to-gpu-backward-filter --canonicalize --cse -split-input-file | FileCheck %s

// 7x7, OW = 40: maxTW = 9 with the partial sums -> one tile of TW = 7 per
// filter row; runs of 16 columns: a loop of 2 runs, then a run of 8.
// CHECK-LABEL: func @f16_7x7
// CHECK: scf.for {{.*}} -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>)
// CHECK: vector.load %arg0{{.*}} vector<8xf16>
// CHECK-NOT: arith.extf
// CHECK: scf.for {{.*}} = %c0 to %c2 step %c1
// CHECK-NOT: arith.extf
// CHECK-COUNT-112: vector.fma {{.*}} : vector<8xf16>
// CHECK-COUNT-7: arith.extf {{.*}} : vector<8xf16> to vector<8xf32>
// CHECK: scf.yield
// CHECK-COUNT-56: vector.fma {{.*}} : vector<8xf16>
// CHECK-COUNT-7: arith.extf {{.*}} : vector<8xf16> to vector<8xf32>
// CHECK: memref.atomic_rmw addf
func.func @f16_7x7(%x: memref<1x4x40x64xf16>, %dy: memref<1x4x40x64xf16>, %dw: memref<7x7x64xf32>) {
  dwc.depthwise_conv2d_backward_filter ins(%x, %dy : memref<1x4x40x64xf16>, memref<1x4x40x64xf16>) outs(%dw : memref<7x7x64xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [3, 3, 3, 3] {dwc.kernel = #dwc.bwd_filter_split_z<half_steps = 16>}
  return
}

// -----

// CHECK-LABEL: func @f16_7x7_f32
// The split-z kernel requested (on this small map the image kernel is the
// default): widened once on load, f32 FMAs; maxTW = 6: 2 tiles of TW = 4.
// CHECK: scf.for {{.*}} -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>)
// CHECK: vector.load %arg0{{.*}} vector<8xf16>
// CHECK-NEXT: arith.extf {{.*}} : vector<8xf16> to vector<8xf32>
// CHECK-NOT: vector<8xf16>)
// CHECK: vector.fma {{.*}} : vector<8xf32>
func.func @f16_7x7_f32(%x: memref<1x4x40x64xf16>, %dy: memref<1x4x40x64xf16>, %dw: memref<7x7x64xf32>) {
  dwc.depthwise_conv2d_backward_filter ins(%x, %dy : memref<1x4x40x64xf16>, memref<1x4x40x64xf16>) outs(%dw : memref<7x7x64xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [3, 3, 3, 3] {dwc.kernel = #dwc.bwd_filter_split_z<>}
  return
}

// -----

// bf16: f32 FMAs on widened loads (bf16 partial sums would lose too much).
// CHECK-LABEL: func @bf16_7x7
// CHECK-NOT: vector.fma {{.*}} : vector<8xbf16>
// CHECK: arith.extf {{.*}} : vector<8xbf16> to vector<8xf32>
// CHECK: vector.fma {{.*}} : vector<8xf32>
// CHECK-NOT: vector.fma {{.*}} : vector<8xbf16>
// CHECK: return
func.func @bf16_7x7(%x: memref<1x4x40x64xbf16>, %dy: memref<1x4x40x64xbf16>, %dw: memref<7x7x64xf32>) {
  dwc.depthwise_conv2d_backward_filter ins(%x, %dy : memref<1x4x40x64xbf16>, memref<1x4x40x64xbf16>) outs(%dw : memref<7x7x64xf32>)
    strides = [1, 1] dilations = [1, 1] padding = [3, 3, 3, 3] {dwc.kernel = #dwc.bwd_filter_split_z<>}
  return
}
