//===- IndexEmitter.h - index arithmetic of generated GPU kernels -*- C++ -*-===//
//
// The small IR builders the dwc GPU kernel passes share: index constants and
// arithmetic (folded where the operands allow), comparisons, predicates that
// may be absent (a null predicate means "always true"), clamping and
// row-major delinearization; F32VectorEmitter adds f32 channel vectors. Each
// pass derives its own emitter for its memory accesses.
//
//===----------------------------------------------------------------------===//

#ifndef DWC_CONVERSION_INDEXEMITTER_H
#define DWC_CONVERSION_INDEXEMITTER_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/SmallVector.h"

namespace mlir {
namespace dwc {

struct IndexEmitter {
  OpBuilder &b;
  Location loc;

  IndexEmitter(OpBuilder &b, Location loc) : b(b), loc(loc) {}

  Value cst(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value add(Value x, Value y) { return b.createOrFold<arith::AddIOp>(loc, x, y); }
  Value add(Value x, int64_t y) { return y == 0 ? x : add(x, cst(y)); }
  Value sub(Value x, Value y) { return b.createOrFold<arith::SubIOp>(loc, x, y); }
  /// `x - y` for a constant `x`.
  Value sub(int64_t x, Value y) { return sub(cst(x), y); }
  Value mul(Value x, Value y) { return b.createOrFold<arith::MulIOp>(loc, x, y); }
  Value mul(Value x, int64_t y) {
    if (y == 0)
      return cst(0);
    return y == 1 ? x : mul(x, cst(y));
  }
  /// Unsigned division and remainder (indices are non-negative).
  Value div(Value x, int64_t y) {
    return y == 1 ? x : b.createOrFold<arith::DivUIOp>(loc, x, cst(y));
  }
  Value rem(Value x, int64_t y) {
    return y == 1 ? cst(0) : b.createOrFold<arith::RemUIOp>(loc, x, cst(y));
  }
  Value xori(Value x, Value y) { return b.createOrFold<arith::XOrIOp>(loc, x, y); }
  Value cmp(arith::CmpIPredicate p, Value x, Value y) {
    return b.createOrFold<arith::CmpIOp>(loc, p, x, y);
  }
  Value lt(Value x, Value y) { return cmp(arith::CmpIPredicate::slt, x, y); }
  Value lt(Value x, int64_t y) { return lt(x, cst(y)); }
  Value ge(Value x, int64_t y) { return cmp(arith::CmpIPredicate::sge, x, cst(y)); }
  Value eq(Value x, int64_t y) { return cmp(arith::CmpIPredicate::eq, x, cst(y)); }
  /// `x && y` where a null operand is "true".
  Value andi(Value x, Value y) {
    if (!x)
      return y;
    if (!y)
      return x;
    return b.createOrFold<arith::AndIOp>(loc, x, y);
  }
  /// `c ? x : y`, or `x` when `c` is null ("true").
  Value select(Value c, Value x, Value y) {
    return c ? b.createOrFold<arith::SelectOp>(loc, c, x, y) : x;
  }
  Value minc(Value x, int64_t y) {
    return b.createOrFold<arith::MinSIOp>(loc, x, cst(y));
  }
  /// `x` clamped into [lo, hi] (signed).
  Value clamp(Value x, int64_t lo, int64_t hi) { return minc(maxc(x, lo), hi); }
  Value maxc(Value x, int64_t y) {
    return b.createOrFold<arith::MaxSIOp>(loc, x, cst(y));
  }
  /// `0 <= i < size` for an `i` statically known to lie in [lo, hi]: only
  /// the checks that can fail (null: always true).
  Value inBounds(Value i, int64_t lo, int64_t hi, int64_t size) {
    Value ok;
    if (lo < 0)
      ok = andi(ok, cmp(arith::CmpIPredicate::sge, i, cst(0)));
    if (hi >= size)
      ok = andi(ok, cmp(arith::CmpIPredicate::slt, i, cst(size)));
    return ok;
  }
  /// `i` clamped into [0, size) when `ok` may be false (an access stays in
  /// bounds; its value is then discarded), else `i`.
  Value clampIf(Value ok, Value i, int64_t size) {
    return ok ? clamp(i, 0, size - 1) : i;
  }
  /// [x0, x1, ...] of a row-major index into `dims`.
  SmallVector<Value> delinearize(Value x, ArrayRef<int64_t> dims) {
    SmallVector<Value> out(dims.size());
    for (int64_t i = dims.size() - 1; i >= 0; --i) {
      out[i] = i == 0 ? x : rem(x, dims[i]);
      if (i > 0)
        x = div(x, dims[i]);
    }
    return out;
  }
};

/// An IndexEmitter for kernels whose values are `vector<vw x T>` of
/// consecutive channels (also for vw = 1, where memory accesses are scalar).
struct ChannelVectorEmitter : IndexEmitter {
  int64_t vw;
  ChannelVectorEmitter(OpBuilder &b, Location loc, int64_t vw)
      : IndexEmitter(b, loc), vw(vw) {}

  VectorType vecOf(Type elem) { return VectorType::get({vw}, elem); }
  Value broadcast(Value scalar) {
    return vector::BroadcastOp::create(b, loc, vecOf(scalar.getType()), scalar);
  }
  static unsigned bytesOf(Type t) { return t.getIntOrFloatBitWidth() / 8; }
  static Type elemOfMemRef(Value mem) {
    return cast<MemRefType>(mem.getType()).getElementType();
  }
  /// Loads `vw` consecutive elements of `mem` at `idx`.
  Value load(Value mem, ValueRange idx) {
    Type elem = elemOfMemRef(mem);
    if (vw == 1) {
      Value s = memref::LoadOp::create(b, loc, mem, idx);
      return vector::FromElementsOp::create(b, loc, vecOf(elem), s);
    }
    return vector::LoadOp::create(b, loc, vecOf(elem), mem, idx,
                                  /*nontemporal=*/false,
                                  llvm::Align(vw * bytesOf(elem)));
  }
  /// Stores the `vw` elements of `v` at `idx` of `mem`.
  void store(Value v, Value mem, ValueRange idx) {
    if (vw == 1) {
      Value s = vector::ExtractOp::create(b, loc, v, ArrayRef<int64_t>{0});
      memref::StoreOp::create(b, loc, s, mem, idx);
      return;
    }
    vector::StoreOp::create(b, loc, v, mem, idx, /*nontemporal=*/false,
                            llvm::Align(vw * bytesOf(elemOfMemRef(mem))));
  }
  /// Converts a vector to element type `to` (extf / truncf / nothing).
  Value convert(Value v, Type to) {
    Type from = cast<VectorType>(v.getType()).getElementType();
    if (from == to)
      return v;
    if (from.getIntOrFloatBitWidth() < to.getIntOrFloatBitWidth())
      return arith::ExtFOp::create(b, loc, vecOf(to), v);
    return arith::TruncFOp::create(b, loc, vecOf(to), v);
  }
};

/// An IndexEmitter for kernels that hold `vw`-element channel vectors in
/// f32 registers: 128-bit (or 64-bit) loads widened to f32 once.
struct F32VectorEmitter : IndexEmitter {
  int64_t vw;
  F32VectorEmitter(OpBuilder &b, Location loc, int64_t vw)
      : IndexEmitter(b, loc), vw(vw) {}

  VectorType vec(Type elem) { return VectorType::get({vw}, elem); }
  VectorType vec() { return vec(b.getF32Type()); }
  /// Alignment of one `vw`-element vector of `elem` in memory (16 bytes
  /// for the 128-bit vectors, 8 for 64-bit ones).
  llvm::Align align(Type elem) {
    return llvm::Align(vw * elem.getIntOrFloatBitWidth() / 8);
  }
  Value zeros() {
    return arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(vec(), b.getF32FloatAttr(0.0f)));
  }
  /// A 128-bit load, widened to f32.
  Value load(Value mem, ValueRange idx) {
    Type elem = cast<MemRefType>(mem.getType()).getElementType();
    Value v = vector::LoadOp::create(b, loc, vec(elem), mem, idx,
                                     /*nontemporal=*/false, align(elem));
    return elem.isF32() ? v : arith::ExtFOp::create(b, loc, vec(), v);
  }
  /// Rounds an f32 vector once to the memory's element type and stores it.
  void store(Value v, Value mem, ValueRange idx) {
    Type elem = cast<MemRefType>(mem.getType()).getElementType();
    if (!elem.isF32())
      v = arith::TruncFOp::create(b, loc, vec(elem), v);
    vector::StoreOp::create(b, loc, v, mem, idx, /*nontemporal=*/false,
                            align(elem));
  }
  /// load(), with zeros where `ok` is false; 16-bit vectors are selected
  /// before they are widened (one select per 32-bit word, not per f32).
  Value loadOrZero(Value mem, ValueRange idx, Value ok) {
    return widen(loadOrZeroAsStored(mem, idx, ok));
  }
  /// loadOrZero() before the widening: 16-bit vectors as loaded (half the
  /// registers while they wait for their turn).
  Value loadOrZeroAsStored(Value mem, ValueRange idx, Value ok) {
    Type elem = cast<MemRefType>(mem.getType()).getElementType();
    if (elem.isF32())
      return select(ok, load(mem, idx), zeros());
    Value v = vector::LoadOp::create(b, loc, vec(elem), mem, idx,
                                     /*nontemporal=*/false, align(elem));
    // As 32-bit words: a select of the f16 vector would be moved past the
    // extension by LLVM (one select per f32 again).
    auto words = VectorType::get({vw / 2}, b.getI32Type());
    Value bits = vector::BitCastOp::create(b, loc, words, v);
    Value raw0 = arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(words, b.getI32IntegerAttr(0)));
    return vector::BitCastOp::create(b, loc, vec(elem), select(ok, bits, raw0));
  }
  /// A loaded vector widened to f32 (f32 vectors unchanged).
  Value widen(Value v) {
    if (cast<VectorType>(v.getType()).getElementType().isF32())
      return v;
    return arith::ExtFOp::create(b, loc, vec(), v);
  }
};

} // namespace dwc
} // namespace mlir

#endif // DWC_CONVERSION_INDEXEMITTER_H
