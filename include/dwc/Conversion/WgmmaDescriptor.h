//===- WgmmaDescriptor.h - wgmma shared-memory matrix descriptors -*- C++ -*-===//
//
// A warpgroup MMA reads its shared-memory operands through 64-bit matrix
// descriptors (PTX ISA, wgmma "matrix descriptor format"): bits 0-13 the
// start address >> 4, 16-29 the leading-dimension byte offset >> 4, 32-45
// the stride-dimension byte offset >> 4, 62-63 the swizzle mode. The
// fields are named here once; a kernel states the layout of its operand.
//
//===----------------------------------------------------------------------===//

#ifndef DWC_CONVERSION_WGMMADESCRIPTOR_H
#define DWC_CONVERSION_WGMMADESCRIPTOR_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"

namespace mlir {
namespace dwc {

/// The swizzle mode field (bits 62-63) of a wgmma descriptor.
enum class WgmmaSwizzle : int64_t {
  None = 0,
  Bytes128 = 1,
  Bytes64 = 2,
  Bytes32 = 3,
};

/// The layout fields of a wgmma matrix descriptor (all but the address).
struct WgmmaLayout {
  /// Leading-dimension byte offset (a multiple of 16).
  int64_t leadingByteOffset;
  /// Stride-dimension byte offset: between 8-row core-matrix groups.
  int64_t strideByteOffset;
  WgmmaSwizzle swizzle = WgmmaSwizzle::Bytes128;

  /// The descriptor bits these fields set.
  int64_t bits() const {
    return ((leadingByteOffset >> 4) << 16) | ((strideByteOffset >> 4) << 32) |
           (static_cast<int64_t>(swizzle) << 62);
  }
};

inline Value wgmmaI64(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIntOp::create(b, loc, v, 64);
}

/// The descriptor of the shared buffer `mem` (its start: the address field
/// is the low 14 bits of address >> 4) with `layout`.
inline Value wgmmaDescriptor(OpBuilder &b, Location loc, Value mem,
                             const WgmmaLayout &layout) {
  Value ptr = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, mem);
  Value addr = arith::IndexCastUIOp::create(b, loc, b.getI64Type(), ptr);
  Value field = arith::AndIOp::create(
      b, loc, arith::ShRUIOp::create(b, loc, addr, wgmmaI64(b, loc, 4)),
      wgmmaI64(b, loc, 0x3FFF));
  return arith::OrIOp::create(b, loc, field, wgmmaI64(b, loc, layout.bits()));
}

/// Descriptor `d` with its start address advanced by `bytes` (an index, a
/// multiple of 16, within the 18-bit shared window: no carry out of the
/// address field).
inline Value advanceWgmmaDescriptor(OpBuilder &b, Location loc, Value d,
                                    Value bytes) {
  Value v = arith::IndexCastUIOp::create(b, loc, b.getI64Type(), bytes);
  return arith::AddIOp::create(
      b, loc, d, arith::ShRUIOp::create(b, loc, v, wgmmaI64(b, loc, 4)));
}

} // namespace dwc
} // namespace mlir

#endif // DWC_CONVERSION_WGMMADESCRIPTOR_H
