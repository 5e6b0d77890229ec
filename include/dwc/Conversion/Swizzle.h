//===- Swizzle.h - XOR swizzle of shared-memory rows -------------*- C++ -*-===//
//
// The generated tensor-core kernels store 128-byte shared-memory rows with
// the XOR swizzle the hardware's 128-byte swizzle mode reads (TMA boxes and
// wgmma descriptors with swizzle mode 128B): 16-byte chunk c of row r sits
// at chunk c ^ (r % 8). Consecutive rows thus spread a column over all 32
// banks (conflict-free cp.async writes and ldmatrix-like reads), and the
// pattern repeats every 8 rows (1024 bytes).
//
//===----------------------------------------------------------------------===//

#ifndef DWC_CONVERSION_SWIZZLE_H
#define DWC_CONVERSION_SWIZZLE_H

#include "dwc/Conversion/IndexEmitter.h"

namespace mlir {
namespace dwc {

/// Rows after which the 128-byte swizzle repeats (16-byte chunks a row).
inline constexpr int64_t kSwizzleRows = 8;
/// Bytes of one period of the 128-byte swizzle: buffers read through it
/// are aligned to this.
inline constexpr int64_t kSwizzlePeriodBytes = 1024;

/// The swizzle of one row `row`: unit u of the row is stored at
/// u ^ (row % 8). A unit is a 16-byte chunk, or a smaller piece whose index
/// in a 16-unit row leaves the low three bits to the chunk. (The row's
/// phase is computed once, before the units.)
struct SwizzledRow {
  IndexEmitter &e;
  Value phase;
  SwizzledRow(IndexEmitter &e, Value row)
      : e(e), phase(e.rem(row, kSwizzleRows)) {}
  Value at(Value unit) { return e.xori(unit, phase); }
};

/// The swizzled position of linear position `pos` in rows of `unitsPerRow`
/// units.
inline Value swizzleLinear(IndexEmitter &e, Value pos, int64_t unitsPerRow) {
  return SwizzledRow(e, e.div(pos, unitsPerRow)).at(pos);
}

} // namespace dwc
} // namespace mlir

#endif // DWC_CONVERSION_SWIZZLE_H
