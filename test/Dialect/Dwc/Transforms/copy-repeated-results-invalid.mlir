// dwc-copy-repeated-results refuses what it cannot copy into a result of
// the same type: a repeated memref of a non-identity layout.
// RUN: dwc-opt %s -dwc-copy-repeated-results -verify-diagnostics

func.func @strided(%m: memref<4x8xf32, strided<[16, 1]>>) -> (memref<4x8xf32, strided<[16, 1]>>, memref<4x8xf32, strided<[16, 1]>>) {
  // expected-error @+1 {{result #0 of type 'memref<4x8xf32, strided<[16, 1]>>' repeats another result or is an argument, and a memref of a non-identity layout cannot be copied into a result of its own}}
  return %m, %m : memref<4x8xf32, strided<[16, 1]>>, memref<4x8xf32, strided<[16, 1]>>
}
