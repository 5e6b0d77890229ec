// RUN: dwc-opt %s --split-input-file --dwc-select-kernels --convert-dwc-to-gpu-global-pool | FileCheck %s
// RUN: dwc-opt %s --split-input-file --convert-dwc-to-gpu-global-pool | FileCheck %s --check-prefix=NOCONFIG

// A ConvNeXt-T stage-1 bias gradient (64 x 56 x 56 rows of 96 f16
// channels): 256 slices of 784 rows, each block 16 channel vectors x 32
// rows (25 loads per thread: 3 groups of 8 and the tail), a butterfly over
// the lanes 16 apart and the 16 warps' sums into the 64-byte aligned f32
// workspace; then one block of 32 f32-vector tiles x 8 rows adds the 256
// workspace rows into dB. Without a configuration the pass leaves the op.
// CHECK-LABEL: func.func @convnext_stage1
// CHECK: %[[WS:.*]] = memref.alloc() {alignment = 64 : i64} : memref<256x96xf32>
// CHECK: gpu.launch blocks({{.*}}) in ({{.*}} = %c256, {{.*}}) threads({{.*}}) in ({{.*}} = %c512,
// CHECK-SAME: function(@convnext_stage1_backward_bias_slices)
// CHECK-SAME: workgroup(%{{.*}} : memref<16x16x8xf32, #gpu.address_space<workgroup>>)
// CHECK: memref.collapse_shape %{{.*}} {{\[\[}}0, 1, 2], [3]] : memref<64x56x56x96xf16> into memref<200704x96xf16>
// CHECK: memref.expand_shape %{{.*}} {{\[\[}}0, 1], [2]] output_shape [256, 784, 96] : memref<200704x96xf16> into memref<256x784x96xf16>
// CHECK: scf.for
// CHECK-COUNT-8: vector.load %{{.*}} : memref<256x784x96xf16>, vector<8xf16>
// CHECK: gpu.shuffle xor
// CHECK: gpu.barrier
// CHECK-NOT: arith.divf
// CHECK: vector.store %{{.*}}, %[[WS]][%{{.*}}, %{{.*}}] {{.*}} : memref<256x96xf32>, vector<8xf32>
// CHECK: gpu.launch blocks({{.*}}) in ({{.*}} = %c1_{{[0-9]+}}, {{.*}}) threads({{.*}}) in ({{.*}} = %c256_{{[0-9]+}},
// CHECK-SAME: function(@convnext_stage1_backward_bias_total)
// CHECK: memref.expand_shape %[[WS]] {{\[\[}}0, 1], [2]] output_shape [1, 256, 96] : memref<256x96xf32> into memref<1x256x96xf32>
// CHECK: memref.expand_shape %{{.*}} {{\[\[}}0, 1]] output_shape [1, 96] : memref<96xf32> into memref<1x96xf32>
// CHECK: vector.load %{{.*}} : memref<1x256x96xf32>, vector<4xf32>
// CHECK-NOT: arith.divf
// CHECK: vector.store %{{.*}} : memref<1x96xf32>, vector<4xf32>
// CHECK: memref.dealloc %[[WS]]
// CHECK-NOT: dwc.conv2d_backward_bias
// NOCONFIG-LABEL: func.func @convnext_stage1
// NOCONFIG: dwc.conv2d_backward_bias
func.func @convnext_stage1(%dy: memref<64x56x56x96xf16>, %db: memref<96xf32>) {
  dwc.conv2d_backward_bias ins(%dy : memref<64x56x56x96xf16>) outs(%db : memref<96xf32>)
  return
}

// -----

// One slice (30 rows): a single launch sums straight into dB, no
// workspace; a bf16 dB: the sums rounded once when stored; scalar channels
// (C = 13).
// CHECK-LABEL: func.func @bf16_result
// CHECK-NOT: memref.alloc
// CHECK: gpu.launch {{.*}} function(@bf16_result_backward_bias_slices)
// CHECK: vector.load %{{.*}} : memref<1x30x13xbf16>, vector<1xbf16>
// CHECK: arith.truncf %{{.*}} : vector<1xf32> to vector<1xbf16>
// CHECK: vector.store %{{.*}} : memref<1x13xbf16>, vector<1xbf16>
// CHECK-NOT: gpu.launch
func.func @bf16_result(%dy: memref<2x5x3x13xbf16>, %db: memref<13xbf16>) {
  dwc.conv2d_backward_bias ins(%dy : memref<2x5x3x13xbf16>) outs(%db : memref<13xbf16>)
  return
}
