//===- SharedMemoryPlan.h - carving a kernel's shared memory -----*- C++ -*-===//
//
// A kernel with dynamic shared memory carves it into named regions (tiles,
// stages, barriers, tickets) at aligned offsets, in order. The plan is
// computed once, from the kernel's configuration; its total is what the
// launch asks for and what the configuration's rule checks against the
// #dwc.target's shared memory per block; the emitted views read their
// offsets from it.
//
//===----------------------------------------------------------------------===//

#ifndef DWC_CONVERSION_SHAREDMEMORYPLAN_H
#define DWC_CONVERSION_SHAREDMEMORYPLAN_H

#include "dwc/Conversion/IndexEmitter.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/MathExtras.h"
#include <cassert>
#include <string>

namespace mlir {
namespace dwc {

class SharedMemoryPlan {
public:
  /// Appends region `name` of `bytes` bytes at the next offset aligned to
  /// `align` bytes (a power of two); returns that offset.
  int64_t add(StringRef name, int64_t bytes, int64_t align = 16) {
    assert(llvm::isPowerOf2_64(align) && "alignment is a power of two");
    int64_t offset = llvm::alignTo(total, align);
    regions.push_back({name, offset, bytes});
    total = offset + bytes;
    return offset;
  }
  /// The offset of region `name` (which the plan holds).
  int64_t offsetOf(StringRef name) const {
    for (const Region &r : regions)
      if (r.name == name)
        return r.offset;
    llvm_unreachable("no such shared-memory region");
  }
  bool has(StringRef name) const {
    for (const Region &r : regions)
      if (r.name == name)
        return true;
    return false;
  }
  /// Bytes from the start of the first region to the end of the last.
  int64_t totalBytes() const { return total; }
  /// Why the plan does not fit `limit` bytes (a target's shared memory per
  /// block), or "".
  std::string overLimit(int64_t limit) const {
    if (total <= limit)
      return "";
    return (Twine(total) + " bytes of shared memory exceed the target's " +
            Twine(limit))
        .str();
  }

private:
  struct Region {
    StringRef name;
    int64_t offset, bytes;
  };
  llvm::SmallVector<Region, 4> regions;
  int64_t total = 0;
};

/// The dynamic shared memory of the enclosing kernel as an i8 buffer.
inline Value dynamicSharedBuffer(OpBuilder &b, Location loc) {
  auto wg = gpu::AddressSpaceAttr::get(b.getContext(),
                                       gpu::AddressSpace::Workgroup);
  return gpu::DynamicSharedMemoryOp::create(
      b, loc,
      MemRefType::get({ShapedType::kDynamic}, b.getI8Type(), AffineMap(), wg));
}

/// A view of type `type` of region `name` of `plan` in the dynamic shared
/// buffer `raw`.
inline Value viewRegion(OpBuilder &b, Location loc, Value raw,
                        const SharedMemoryPlan &plan, StringRef name,
                        MemRefType type) {
  IndexEmitter e{b, loc};
  return memref::ViewOp::create(b, loc, type, raw, e.cst(plan.offsetOf(name)),
                                ValueRange{});
}

} // namespace dwc
} // namespace mlir

#endif // DWC_CONVERSION_SHAREDMEMORYPLAN_H
