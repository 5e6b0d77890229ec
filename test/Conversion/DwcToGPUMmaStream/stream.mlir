// convert-dwc-to-gpu-mma-stream on small IR: the three kernels (channel-
// major workspace with its zero row, band workspace, streaming kernel), the
// input as the B operand (FW = 13: 2 slices of the FW + 15 band; the filter
// is the 4-register A operand) or the A operand (input_operand = a, and FW = 21
// by auto, where input B would take 3 slices instead of 2), the fully
// unrolled row block (rows x FH x slices mma), 2 blocks per SM for input B
// up to 2 slices, bias, backward data; the two loop orders of a row block
// (filter rows outer by default with the input as B: one filter operand
// feeds the mma of both output rows; input rows outer: the first input
// row's slices chain through one accumulator with two filter operands).
// RUN: dwc-opt %s --dwc-select-kernels --convert-dwc-to-gpu-mma-stream -split-input-file | FileCheck %s
// RUN: dwc-opt %s --dwc-select-kernels --convert-dwc-to-gpu-mma-stream -split-input-file | FileCheck %s --check-prefix=ORDER
// RUN: sed 's/rows = 2>/rows = 2, loop_order = input_rows>/' %s | dwc-opt --dwc-select-kernels --convert-dwc-to-gpu-mma-stream -split-input-file | FileCheck %s --check-prefix=INROWS
// RUN: sed '/^func.func @auto_input_a/,/return/!s/rows = 2>/rows = 2, smem_input = true>/' %s | dwc-opt --dwc-select-kernels --convert-dwc-to-gpu-mma-stream -split-input-file | FileCheck %s --check-prefix=SMEM
// RUN: sed 's/rows = 2>/rows = 2, input_operand = a>/' %s | dwc-opt --dwc-select-kernels --convert-dwc-to-gpu-mma-stream -split-input-file | FileCheck %s --check-prefix=INA
// RUN: sed 's/rows = 2>/rows = 2, overlap_workspace = true>/' %s | dwc-opt --dwc-select-kernels --convert-dwc-to-gpu-mma-stream -split-input-file | FileCheck %s --check-prefix=OVERLAP
// RUN: sed 's/rows = 2>/rows = 2, nhwc_input = true>/' %s | dwc-opt --dwc-select-kernels --convert-dwc-to-gpu-mma-stream -split-input-file | FileCheck %s --check-prefix=NHWC

// CHECK-LABEL: func @input_b
// Workspace: 1 x 6 x 16 x pitch 136 (OW + FW - 1 = 140 -> 144), + zero row.
// CHECK: memref.alloc() : memref<{{[0-9]+}}xf16>
// CHECK: gpu.launch
// CHECK: vector.store {{.*}} : memref<{{[0-9]+}}xf16>, vector<8xf16>
// Band workspace: 2 x 13 x 8 x 32 entries x 8 halves.
// CHECK: memref.alloc() : memref<53248xf16>
// CHECK: gpu.launch
// CHECK: vector.store {{.*}} : memref<53248xf16>, vector<8xf16>
// CHECK: gpu.launch blocks({{.*}}) in (%{{.*}} = %c6, {{.*}} threads({{.*}}) in (%{{.*}} = %c256
// CHECK: gpu.barrier {dwc.min_blocks_per_sm = 2 : i64}
// CHECK: scf.for
// CHECK-COUNT-52: nvgpu.mma.sync({{.*}}) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
// CHECK-NOT: nvgpu.mma.sync
// CHECK: gpu.barrier
// CHECK: vector.store {{.*}} : memref<1x6x128x16xf16>, vector<8xf16>
// CHECK: gpu.barrier
// CHECK: memref.dealloc
// CHECK: memref.dealloc
// CHECK-NOT: dwc.depthwise_conv2d
// ORDER-LABEL: func @input_b
// ORDER: scf.for {{.*}} iter_args
// ORDER: [[F:%.+]] = vector.from_elements {{.*}} : vector<4x2xf16>
// ORDER: nvgpu.mma.sync([[F]], %{{.*}}, [[Z:%.+]])
// ORDER-NOT: vector<4x2xf16>
// ORDER: nvgpu.mma.sync([[F]], %{{.*}}, [[Z]])
// INROWS-LABEL: func @input_b
// INROWS: scf.for {{.*}} iter_args
// INROWS: [[F0:%.+]] = vector.from_elements {{.*}} : vector<4x2xf16>
// INROWS: [[A:%.+]] = nvgpu.mma.sync([[F0]], %{{.*}}, %{{.*}})
// INROWS-NOT: nvgpu.mma.sync
// INROWS: [[F1:%.+]] = vector.from_elements {{.*}} : vector<4x2xf16>
// INROWS-NOT: nvgpu.mma.sync
// INROWS: nvgpu.mma.sync([[F1]], %{{.*}}, [[A]])
// smem_input (filter-row order only): the 14 rows x 8 channels x 144
// columns of a row block in two shared buffers; the first by 8 cp.async
// per thread (the last guarded) before the first barrier, the next one's in
// an scf.if at the top of each row block, its wait before the epilogue's
// last barrier; no global loads of input words in the loop, and no second
// block per SM (the buffers do not fit twice).
// SMEM-LABEL: func @input_b
// SMEM: gpu.launch {{.*}} dynamic_shared_memory_size %c121856_i32
// SMEM: memref.view {{.*}} to memref<2x14x8x144xf16, #gpu.address_space<workgroup>>
// SMEM-COUNT-8: nvgpu.device_async_copy {{.*}} {bypassL1}
// SMEM: nvgpu.device_async_create_group
// SMEM: nvgpu.device_async_wait {{.*}} {numGroups = 0 : i32}
// SMEM-NEXT: gpu.barrier{{$}}
// SMEM: scf.for
// SMEM: scf.if
// SMEM: nvgpu.device_async_copy
// SMEM: nvgpu.device_async_create_group
// SMEM-NOT: memref<13968xf16>, vector<2xf16>
// SMEM: nvgpu.mma.sync
// SMEM: nvvm.cp.async.wait.group 0
// SMEM-NEXT: gpu.barrier
// SMEM-LABEL: func @auto_input_a
// SMEM-NOT: nvgpu.device_async_copy
// SMEM-LABEL: func @backward_data
// SMEM: memref<2x12x8x256xf16, #gpu.address_space<workgroup>>
// SMEM: nvgpu.device_async_copy
// overlap_workspace: no transposition kernel; the band kernel writes the
// zero row and clears the ticket / per-set counters; one launch of P + Q =
// 1 + 6 blocks: thread 0 takes a ticket, producers transpose (eight 16-byte
// loads a unit, both units' loads before the stores), fence and count
// themselves done, consumers spin until the set's count reaches P = 1.
// OVERLAP-LABEL: func @input_b
// OVERLAP: %[[XT:.*]] = memref.alloc() : memref<{{[0-9]+}}xf16>
// OVERLAP: %[[CNT:.*]] = memref.alloc() : memref<2xi32>
// OVERLAP-NOT: memref<1x6x128x16xf16>, vector<8xf16>
// OVERLAP: gpu.launch
// OVERLAP: vector.store %{{.*}}, %[[XT]]
// OVERLAP: memref.store %c0_i32, %[[CNT]]
// OVERLAP: gpu.launch blocks({{.*}}) in (%{{.*}} = %c7,
// OVERLAP: scf.if
// OVERLAP: memref.atomic_rmw addi %c1_i32, %[[CNT]][%{{.*}}] : (i32, memref<2xi32>) -> i32
// OVERLAP: gpu.barrier
// OVERLAP: scf.if
// OVERLAP-COUNT-16: vector.load %arg0{{.*}} : memref<1x6x128x16xf16>, vector<8xf16>
// OVERLAP: vector.store {{.*}}, %[[XT]]
// OVERLAP: gpu.barrier
// OVERLAP: llvm.fence syncscope("device") acq_rel
// OVERLAP-NEXT: arith.constant 1 : i32
// OVERLAP: memref.atomic_rmw addi %{{.*}}, %[[CNT]]
// OVERLAP: } else {
// OVERLAP: scf.while
// OVERLAP: memref.atomic_rmw addi %c0_i32{{.*}}, %[[CNT]]
// OVERLAP: arith.cmpi slt, %{{.*}}, %c1_i32
// OVERLAP: scf.condition
// OVERLAP: llvm.fence syncscope("device") acq_rel
// OVERLAP: gpu.barrier {dwc.min_blocks_per_sm = 2 : i64}
// OVERLAP: nvgpu.mma.sync
// OVERLAP: memref.dealloc %[[CNT]]
// nhwc_input: no workspace (the band is the only alloc); the row block's
// 14 rows x 144 positions x 8 channels come straight from the NHWC input,
// one 16-byte copy per position into its XOR-swizzled chunk; a lane's word
// is two f16 loads of its channel at swizzled positions.
// NHWC-LABEL: func @input_b
// NHWC-NOT: memref.alloc() : memref<{{[0-9]+}}xf16>
// NHWC: memref.alloc() : memref<53248xf16>
// NHWC-NOT: memref.alloc
// NHWC: gpu.launch
// NHWC: gpu.launch {{.*}} dynamic_shared_memory_size %c121856_i32
// NHWC: %[[BUF:.*]] = memref.view {{.*}} to memref<2x14x144x8xf16, #gpu.address_space<workgroup>>
// NHWC: %[[CHUNK:.*]] = arith.xori
// NHWC: nvgpu.device_async_copy %arg0[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}], %[[BUF]][%{{.*}}, %{{.*}}, %[[CHUNK]], %{{.*}}], 8, %{{.*}} {bypassL1} : memref<1x6x128x16xf16> to memref<2x14x144x8xf16
// NHWC: nvgpu.device_async_create_group
// NHWC: scf.for
// NHWC: memref.load %[[BUF]]{{.*}} : memref<2x14x144x8xf16, #gpu.address_space<workgroup>>
// NHWC: memref.load %[[BUF]]{{.*}} : memref<2x14x144x8xf16, #gpu.address_space<workgroup>>
// NHWC: nvgpu.mma.sync
// NHWC: nvvm.cp.async.wait.group 0
// NHWC-NOT: memref.dealloc %{{.*}} : memref<{{[0-9]+}}xf16>
// NHWC: memref.dealloc %{{.*}} : memref<53248xf16>
// INA-LABEL: func @input_b
// INA-NOT: dwc.min_blocks_per_sm
// INA-COUNT-52: nvgpu.mma.sync({{.*}}) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>)
func.func @input_b(%x: memref<1x6x128x16xf16>, %w: memref<13x13x16xf16>, %y: memref<1x6x128x16xf16>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<1x6x128x16xf16>, memref<13x13x16xf16>) outs(%y : memref<1x6x128x16xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [6, 6, 6, 6] {dwc.kernel = #dwc.mma_stream<rows = 2>}
  return
}

// -----

// FW = 21: input B would need 3 slices (36 columns), input A 2 (28): auto
// takes A, 2 x 3 x 2 mma per row block; bf16 with a bias.
// CHECK-LABEL: func @auto_input_a
// CHECK-NOT: dwc.min_blocks_per_sm
// CHECK: vector.broadcast {{.*}} : f32 to vector<2x2xf32>
// CHECK-COUNT-12: nvvm.mma.sync
// CHECK-NOT: nvvm.mma.sync
// CHECK-NOT: dwc.depthwise_conv2d
func.func @auto_input_a(%x: memref<2x5x40x8xbf16>, %w: memref<3x21x8xbf16>, %b: memref<8xbf16>, %y: memref<2x5x40x8xbf16>) {
  dwc.depthwise_conv2d ins(%x, %w : memref<2x5x40x8xbf16>, memref<3x21x8xbf16>) bias(%b : memref<8xbf16>) outs(%y : memref<2x5x40x8xbf16>)
    strides = [1, 1] dilations = [1, 1] padding = [1, 1, 10, 10] {dwc.kernel = #dwc.mma_stream<rows = 2>}
  return
}

// -----

// Backward data: the same kernel on the rotated filter (the band kernel
// reads tap FW - 1 - t of row FH - 1 - fh).
// CHECK-LABEL: func @backward_data
// CHECK-COUNT-3: gpu.launch
// CHECK: arith.subi
// CHECK-NOT: dwc.depthwise_conv2d_backward_data
func.func @backward_data(%dy: memref<2x12x12x8xf16>, %w: memref<11x11x8xf16>, %dx: memref<2x12x12x8xf16>) {
  dwc.depthwise_conv2d_backward_data ins(%dy, %w : memref<2x12x12x8xf16>, memref<11x11x8xf16>) outs(%dx : memref<2x12x12x8xf16>)
    strides = [1, 1] dilations = [1, 1] padding = [5, 5, 5, 5] {dwc.kernel = #dwc.mma_stream<rows = 2>}
  return
}
