// A memref-level gpu.launch module (no dwc ops): out[i] = 2 * in[i] + 1 on
// 1024 floats. Compiled by dwc-aot --pipeline=upstream in the AOT tests.
module attributes {gpu.container_module} {
  func.func @scale(%in: memref<1024xf32>, %out: memref<1024xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c256 = arith.constant 256 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
      %base = arith.muli %bx, %c256 : index
      %i = arith.addi %base, %tx : index
      %v = memref.load %in[%i] : memref<1024xf32>
      %two = arith.constant 2.0 : f32
      %one = arith.constant 1.0 : f32
      %m = arith.mulf %v, %two : f32
      %w = arith.addf %m, %one : f32
      memref.store %w, %out[%i] : memref<1024xf32>
      gpu.terminator
    }
    return
  }
}
